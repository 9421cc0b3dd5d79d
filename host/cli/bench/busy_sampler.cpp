#include "bench/busy_sampler.hpp"

#include <algorithm>

namespace zkp::cli::bench {

namespace {

constexpr double kShortTailFraction = 0.5;  // a last interval under half the interval is merged
constexpr double kNsPerS = 1e9;

uint64_t busy_at(const BusyReading& r, std::size_t device) {
  return device < r.busy_ns.size() ? r.busy_ns[device] : 0;
}

}  // namespace

std::vector<BusySample> busy_shares(const std::vector<BusyReading>& readings) {
  if (readings.size() < 2) return {};
  const std::size_t intervals = readings.size() - 1;
  std::size_t devices = 0;
  for (const BusyReading& r : readings) devices = std::max(devices, r.busy_ns.size());
  // Interval j runs from readings[j] to readings[j + 1].
  std::vector<double> length(intervals);
  for (std::size_t j = 0; j < intervals; ++j) length[j] = std::max(0.0, readings[j + 1].t_s - readings[j].t_s);

  std::vector<BusySample> samples(intervals);
  for (std::size_t j = 0; j < intervals; ++j) {
    samples[j].t_s = readings[j + 1].t_s;
    samples[j].share.assign(devices, 0.0);
    for (std::size_t d = 0; d < devices; ++d) samples[j].busy_ns.push_back(busy_at(readings[j + 1], d));
  }
  std::vector<double> credited(intervals);  // seconds of device time placed in each interval
  for (std::size_t d = 0; d < devices; ++d) {
    std::fill(credited.begin(), credited.end(), 0.0);
    for (std::size_t k = 0; k < intervals; ++k) {
      const uint64_t before = busy_at(readings[k], d), after = busy_at(readings[k + 1], d);
      double left = after > before ? static_cast<double>(after - before) / kNsPerS : 0.0;
      const double earliest = readings[k].t_s - left;
      // Layer by layer, from interval k back to the earliest the increment can have begun.
      for (double layer = 1; left > 0; ++layer) {
        for (std::size_t j = k + 1; j-- > 0 && left > 0;) {
          if (readings[j + 1].t_s <= earliest) break;
          const double room = layer * length[j] - credited[j];
          if (room <= 0) continue;
          const double take = std::min(room, left);
          credited[j] += take;
          left -= take;
        }
        if (length[k] <= 0) break;  // a zero-length interval can hold nothing: drop the rest
      }
    }
    for (std::size_t j = 0; j < intervals; ++j) samples[j].share[d] = length[j] > 0 ? credited[j] / length[j] : 0.0;
  }
  return samples;
}

BusySampler::BusySampler(Reader reader, Clock::time_point origin, std::chrono::nanoseconds interval, Now now,
                         Drive drive)
    : reader_(std::move(reader)), origin_(origin), interval_(interval), now_(std::move(now)) {
  read();
  if (drive == Drive::thread) thread_ = std::thread([this] { loop(); });
}

BusySampler::~BusySampler() { stop(); }

void BusySampler::sample() {
  const std::lock_guard lock(mutex_);
  if (!stopping_) read();
}

// With mutex_ held (or before the thread starts).
void BusySampler::read() {
  if (failed_) return;
  try {
    std::vector<uint64_t> busy = reader_();
    readings_.push_back({std::chrono::duration<double>(now_() - origin_).count(), std::move(busy)});
  } catch (...) {
    failed_ = true;  // e.g. the server went away under the reader: keep what was read
  }
}

void BusySampler::loop() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, interval_, [this] { return stopping_; })) read();
}

std::vector<BusySample> BusySampler::stop() {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) return {};
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  const std::lock_guard lock(mutex_);
  read();
  const std::size_t n = readings_.size();
  const double short_tail_s = kShortTailFraction * std::chrono::duration<double>(interval_).count();
  if (n >= 3 && readings_[n - 1].t_s - readings_[n - 2].t_s < short_tail_s) readings_.erase(readings_.end() - 2);
  return busy_shares(readings_);
}

}  // namespace zkp::cli::bench
