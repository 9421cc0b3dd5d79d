#include "recent.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace zkp::observe {

double nearest_rank(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
  const size_t at = std::min(values.size(), std::max<size_t>(rank, 1)) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(at), values.end());
  return values[at];
}

Recent summarize(const std::deque<RecentCompletion>& ring, uint64_t now_unix_ms, size_t devices,
                 uint32_t workers_per_device) {
  Recent r;
  r.busy_share.assign(devices, 0);
  r.busy_share_short.assign(devices, 0);
  const uint64_t current = now_unix_ms / Recent::kBucketMs * Recent::kBucketMs;
  const uint64_t span = (Recent::kBuckets - 1) * Recent::kBucketMs;
  const uint64_t first = current >= span ? current - span : 0;
  r.series.resize(Recent::kBuckets);
  for (size_t b = 0; b < Recent::kBuckets; ++b) r.series[b].start_unix_ms = first + b * Recent::kBucketMs;

  std::vector<double> window_latency;
  std::vector<std::vector<double>> bucket_latency(Recent::kBuckets);
  std::vector<double> busy_ns(devices, 0), busy_short_ns(devices, 0);
  std::map<uint64_t, std::pair<Recent::KeyWindow, std::vector<double>>> keys;  // and each key's latencies
  for (const RecentCompletion& c : ring) {
    if (c.status == ZKP_ERR_CANCELLED) continue;
    const bool ok = c.status == ZKP_OK;
    const uint64_t at = std::min(c.unix_ms, now_unix_ms);
    const double latency = static_cast<double>(c.total_ns) / 1e9;
    const bool on_device = c.gpu_index >= 0 && static_cast<size_t>(c.gpu_index) < devices;
    if (now_unix_ms - at < Recent::kWindowMs) {
      auto& [key, key_latency] = keys[c.key_id];
      key.key_id = c.key_id;
      if (ok) {
        ++r.proofs;
        window_latency.push_back(latency);
        ++key.proofs;
        key_latency.push_back(latency);
      } else {
        ++r.failed;
        ++key.failed;
      }
      if (on_device) busy_ns[c.gpu_index] += static_cast<double>(c.gpu_duration_ns);
    }
    if (now_unix_ms - at < Recent::kShortWindowMs) {
      if (ok) ++r.proofs_short;
      if (on_device) busy_short_ns[c.gpu_index] += static_cast<double>(c.gpu_duration_ns);
    }
    if (at >= first) {
      const size_t b = (at - first) / Recent::kBucketMs;
      if (ok) {
        ++r.series[b].proofs;
        bucket_latency[b].push_back(latency);
      } else {
        ++r.series[b].failed;
      }
    }
  }
  const double window_s = static_cast<double>(Recent::kWindowMs) / 1e3;
  r.proofs_per_second = static_cast<double>(r.proofs) / window_s;
  r.p50_seconds = nearest_rank(window_latency, 0.50);
  r.p99_seconds = nearest_rank(window_latency, 0.99);
  const double capacity_ns = window_s * 1e9 * std::max<uint32_t>(workers_per_device, 1);
  for (size_t d = 0; d < devices; ++d) r.busy_share[d] = busy_ns[d] / capacity_ns;
  const double short_s = static_cast<double>(Recent::kShortWindowMs) / 1e3;
  r.proofs_per_second_short = static_cast<double>(r.proofs_short) / short_s;
  const double short_capacity_ns = short_s * 1e9 * std::max<uint32_t>(workers_per_device, 1);
  for (size_t d = 0; d < devices; ++d) r.busy_share_short[d] = busy_short_ns[d] / short_capacity_ns;
  for (auto& [id, entry] : keys) {
    entry.first.p50_seconds = nearest_rank(entry.second, 0.50);
    entry.first.p99_seconds = nearest_rank(entry.second, 0.99);
    r.by_key.push_back(entry.first);
  }
  for (size_t b = 0; b < Recent::kBuckets; ++b) {
    r.series[b].p50_seconds = nearest_rank(bucket_latency[b], 0.50);
    r.series[b].p99_seconds = nearest_rank(bucket_latency[b], 0.99);
  }
  return r;
}

}  // namespace zkp::observe
