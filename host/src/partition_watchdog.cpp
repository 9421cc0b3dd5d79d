#include "partition_watchdog.hpp"

#include <algorithm>
#include <cstddef>

namespace zkp::host {

uint64_t PartitionWatchdog::started(uint32_t device, uint64_t key_id, uint64_t job_id, uint32_t partition,
                                    uint64_t now_ns) {
  const uint64_t id = next_id_++;
  on_device_.emplace(id, OnDevice{device, key_id, job_id, partition, now_ns, false});
  return id;
}

bool PartitionWatchdog::ended(uint64_t id) {
  auto it = on_device_.find(id);
  if (it == on_device_.end()) return false;
  const bool declared = it->second.declared;
  on_device_.erase(it);
  return declared;
}

void PartitionWatchdog::proved(uint64_t key_id, uint64_t gpu_duration_ns) {
  if (gpu_duration_ns == 0) return;  // a prover that measures nothing tells nothing
  std::deque<uint64_t>& window = durations_[key_id];
  window.push_back(gpu_duration_ns);
  if (window.size() > kWindow) window.pop_front();
}

uint64_t PartitionWatchdog::median_ns(uint64_t key_id) const {
  auto it = durations_.find(key_id);
  if (it == durations_.end() || it->second.empty()) return 0;
  std::vector<uint64_t> sorted(it->second.begin(), it->second.end());
  const auto mid = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
  std::nth_element(sorted.begin(), mid, sorted.end());
  return *mid;
}

uint64_t PartitionWatchdog::threshold_ns(uint64_t key_id) const {
  const uint64_t median = median_ns(key_id);
  const uint64_t scaled = median > kNever / kMediansPerHang ? kNever : median * kMediansPerHang;
  return std::max(floor_ns_, scaled);
}

std::vector<PartitionWatchdog::Hung> PartitionWatchdog::check(uint64_t now_ns) {
  std::vector<Hung> out;
  if (!enabled()) return out;
  for (auto& [id, p] : on_device_) {
    if (p.declared || now_ns < p.since_ns) continue;
    const uint64_t threshold = threshold_ns(p.key_id);
    if (now_ns - p.since_ns < threshold) continue;
    p.declared = true;
    ++hung_;
    out.push_back({id, p.device, p.job_id, p.partition, now_ns - p.since_ns, threshold, median_ns(p.key_id)});
  }
  return out;
}

uint64_t PartitionWatchdog::deadline_ns() const {
  uint64_t deadline = kNever;
  if (!enabled()) return deadline;
  for (const auto& [id, p] : on_device_) {
    if (p.declared) continue;
    const uint64_t t = threshold_ns(p.key_id);
    deadline = std::min(deadline, p.since_ns > kNever - t ? kNever : p.since_ns + t);
  }
  return deadline;
}

}  // namespace zkp::host
