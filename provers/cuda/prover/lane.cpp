#include "lane.hpp"

#include <algorithm>
#include <cstring>

#include "cuda/util/device_guard.hpp"
#include "device_errors.hpp"

namespace zkp::cuda::prover {
namespace {

// Device scratch is padded to this so the H region and the witness region each start 16-byte
// aligned (run_device reads scalars as uint4).
constexpr std::size_t kAlign = 256;

std::size_t round_up(std::size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

std::string mib(std::size_t bytes) { return std::to_string(bytes) + " bytes (" + std::to_string(bytes >> 20) + " MiB)"; }

}  // namespace

Lane::Lane(int ordinal, unsigned index, std::string name)
    : ordinal_(ordinal), index_(index), name_(std::move(name)), thread_([this] { loop(); }) {}

Lane::~Lane() {
  {
    std::lock_guard lk(queue_mutex_);
    stopping_ = true;
  }
  queue_cv_.notify_all();
  thread_.join();
  // The CUDA objects are freed on their own device.
  try {
    DeviceGuard guard(ordinal_);
    stream_.reset();
    start_.reset();
    witness_ready_.reset();
    h_start_.reset();
    h_uploaded_.reset();
    h_ready_.reset();
    end_.reset();
    pinned_ = {};
    device_witness_ = {};
    device_h_ = {};
    device_b_ = {};
    device_c_ = {};
    device_density_ = {};
    device_a_scalars_ = {};
    device_b_scalars_ = {};
  } catch (...) {  // no device to select (it was lost): the destructors below still free
  }
}

std::size_t Lane::pinned_bytes() const {
  std::lock_guard lk(scratch_mutex_);
  return pinned_.size();
}

LaneNeeds Lane::grown(const LaneNeeds& needs) const {
  return {std::max(reserved_.witness_bytes, round_up(needs.witness_bytes)),
          std::max(reserved_.h_bytes, round_up(needs.h_bytes)),
          std::max(reserved_.b_bytes, round_up(needs.b_bytes)),
          std::max(reserved_.c_bytes, round_up(needs.c_bytes)),
          std::max(reserved_.density_bytes, round_up(needs.density_bytes)),
          std::max(reserved_.a_scalar_bytes, round_up(needs.a_scalar_bytes)),
          std::max(reserved_.b_scalar_bytes, round_up(needs.b_scalar_bytes))};
}

void Lane::grow_pinned(const LaneNeeds& grown, std::size_t pinned_cap) {
  const std::size_t pinned = grown.pinned_total();
  if (pinned_cap != 0 && pinned > pinned_cap) {
    throw sdk::Error(ZKP_ERR_OUT_OF_MEMORY, name_ + ": a proof needs " + mib(pinned) +
                                                " of pinned staging, but pinned_pool_bytes gives each worker " +
                                                mib(pinned_cap));
  }
  const std::size_t want_pinned = pinned_cap != 0 ? pinned_cap : pinned;
  if (pinned_.size() >= want_pinned) return;
  pinned_ = {};
  try {
    // Resident from here on: every page is touched and locked, so the first proof faults in none.
    pinned_ = PinnedBuffer<std::uint8_t>(want_pinned);
  } catch (const CudaError& e) {
    throw sdk::Error(ZKP_ERR_OUT_OF_MEMORY, name_ + ": cannot allocate " + mib(want_pinned) +
                                                " of pinned host memory: " + e.what());
  }
}

void Lane::reserve_pinned(const LaneNeeds& needs, std::size_t pinned_cap) {
  std::lock_guard lk(scratch_mutex_);
  DeviceGuard guard(ordinal_);
  grow_pinned(grown(needs), pinned_cap);
}

void Lane::reserve(const LaneNeeds& needs, std::size_t pinned_cap) {
  std::lock_guard lk(scratch_mutex_);
  DeviceGuard guard(ordinal_);
  if (!stream_) {
    stream_.emplace();
    start_.emplace();
    witness_ready_.emplace();
    h_start_.emplace();
    h_uploaded_.emplace();
    h_ready_.emplace();
    end_.emplace();
  }
  const LaneNeeds g = grown(needs);
  grow_pinned(g, pinned_cap);  // first: a refused pinned_cap allocates nothing on the device
  const auto grow = [&](DeviceBuffer<std::uint8_t>& buf, std::size_t bytes, const char* what) {
    if (buf.size() >= bytes) return;
    buf = {};  // free first: the old and new buffers need not fit together
    try {
      buf = DeviceBuffer<std::uint8_t>(bytes);
    } catch (const CudaError& e) {
      throw sdk::Error(status_of(e), name_ + ": cannot allocate " + mib(bytes) + " of device memory for the " + what +
                                       ": " + e.what());
    }
  };
  grow(device_witness_, g.witness_bytes, "witness scalars");
  grow(device_h_, g.h_bytes, "H scalars");
  grow(device_b_, g.b_bytes, "b scalars");
  grow(device_c_, g.c_bytes, "c scalars");
  grow(device_density_, g.density_bytes, "density bitmaps");
  grow(device_a_scalars_, g.a_scalar_bytes, "a query scalars");
  grow(device_b_scalars_, g.b_scalar_bytes, "b query scalars");
  reserved_ = g;
}

void Lane::post(std::function<void(const Scratch&)> job) {
  {
    std::lock_guard lk(queue_mutex_);
    queue_.push_back(std::move(job));
  }
  queue_cv_.notify_one();
}

void Lane::loop() {
  for (;;) {
    std::function<void(const Scratch&)> job;
    {
      std::unique_lock lk(queue_mutex_);
      queue_cv_.wait(lk, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, and nothing left
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    std::lock_guard lk(scratch_mutex_);
    Scratch s;
    s.stream = stream_ ? &*stream_ : nullptr;
    s.start = start_ ? &*start_ : nullptr;
    s.witness_ready = witness_ready_ ? &*witness_ready_ : nullptr;
    s.h_start = h_start_ ? &*h_start_ : nullptr;
    s.h_uploaded = h_uploaded_ ? &*h_uploaded_ : nullptr;
    s.h_ready = h_ready_ ? &*h_ready_ : nullptr;
    s.end = end_ ? &*end_ : nullptr;
    if (pinned_.data() != nullptr) {
      s.pinned_witness = pinned_.data();
      s.pinned_h = s.pinned_witness + reserved_.witness_bytes;
      s.pinned_b = s.pinned_h + reserved_.h_bytes;
      s.pinned_c = s.pinned_b + reserved_.b_bytes;
      s.pinned_density = s.pinned_c + reserved_.c_bytes;
    }
    s.density_bytes = reserved_.density_bytes;
    s.device_witness = device_witness_.data();
    s.device_h = device_h_.data();
    s.device_b = device_b_.data();
    s.device_c = device_c_.data();
    s.device_density = device_density_.data();
    s.device_a_scalars = device_a_scalars_.data();
    s.device_b_scalars = device_b_scalars_.data();
    job(s);
  }
}

}  // namespace zkp::cuda::prover
