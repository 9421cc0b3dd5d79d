// The last minutes of the service, for the dashboard (/status's "recent" and
// "recent_completions"): proofs/s, p50/p99 latency and each device's busy share over the last
// 60 s, proofs/s and busy shares over the last 10 s too (a 60 s figure reads 67% after 40 s of
// saturation; the 10 s one is there within 10 s), each key's proofs and latency over the 60 s,
// and 10 s buckets over the last 5 minutes, summarized from the ring of completions that
// Metrics keeps. The window's denominator is always 60 s (not the uptime, when that is less):
// a figure then changes only when a partition completes or leaves the window, so what the page
// shows can be checked against /status read a moment later.
#pragma once

#include <zkpipe/zkpipe.h>

#include <cstdint>
#include <deque>
#include <vector>

namespace zkp::observe {

// One partition's completion as the ring keeps it.
struct RecentCompletion {
  uint64_t job_id = 0;
  uint32_t partition = 0;
  uint64_t key_id = 0;           // the host's key id
  zkp_status_t status = ZKP_OK;
  int32_t gpu_index = -1;        // -1: no device ran it
  uint64_t gpu_duration_ns = 0;  // its device time
  uint64_t total_ns = 0;         // submit to completion: the latency
  uint64_t unix_ms = 0;          // when the service saw it complete
};

struct Recent {
  static constexpr uint64_t kWindowMs = 60'000;
  static constexpr uint64_t kShortWindowMs = 10'000;
  static constexpr uint64_t kBucketMs = 10'000;
  static constexpr size_t kBuckets = 30;  // 5 minutes

  struct Bucket {
    uint64_t start_unix_ms = 0;  // a multiple of kBucketMs
    uint64_t proofs = 0;         // partitions that succeeded
    uint64_t failed = 0;         // that failed (cancelled ones are in neither)
    double p50_seconds = 0;      // latency quantiles of its proofs (0: none)
    double p99_seconds = 0;
  };

  // Over the last kWindowMs.
  uint64_t proofs = 0;
  uint64_t failed = 0;
  double proofs_per_second = 0;  // proofs / 60
  double p50_seconds = 0;        // latency (total_ns) of the proofs, nearest rank; 0: none
  double p99_seconds = 0;
  // Per device: the device time of its partitions completed in the window over the window's
  // worker time (60 s x workers_per_device), so 1 is every worker busy throughout. A partition
  // that started before the window counts whole: a share may pass 1 briefly.
  std::vector<double> busy_share;
  std::vector<Bucket> series;  // kBuckets, oldest first; the last is the bucket holding now

  // Over the last kShortWindowMs, as the 60 s figures (denominator always 10 s).
  uint64_t proofs_short = 0;
  double proofs_per_second_short = 0;
  std::vector<double> busy_share_short;

  // Each key with a completion in the last kWindowMs, by key id.
  struct KeyWindow {
    uint64_t key_id = 0;
    uint64_t proofs = 0;
    uint64_t failed = 0;
    double p50_seconds = 0;  // latency of its proofs; 0: none
    double p99_seconds = 0;
  };
  std::vector<KeyWindow> by_key;
};

// `ring` oldest first. Completions newer than `now_unix_ms` (a clock step) count as now.
Recent summarize(const std::deque<RecentCompletion>& ring, uint64_t now_unix_ms, size_t devices,
                 uint32_t workers_per_device);

// The q-quantile (0 < q <= 1) of `values` by nearest rank: the smallest value with at least
// q of them at or below it. 0 for no values.
double nearest_rank(std::vector<double> values, double q);

}  // namespace zkp::observe
