// What one sweep point measured, and the numbers the outputs report from it.
#pragma once

#include "bench/sweep.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace zkp::cli::bench {

// One reading of GPU busy over time (busy_sampler.hpp).
struct BusySample {
  double t_s = 0;                 // seconds since the bench started, at the interval's end
  std::vector<double> share;      // per device: its busy share over the interval (busy_sampler.hpp)
  std::vector<uint64_t> busy_ns;  // per device: cumulative busy_ns at t_s, as read
};

struct PointResult {
  Point point;
  uint32_t warmup = 0;                // proofs run before the clock started, not counted below
  std::vector<uint64_t> latency_ns;   // submit to completion of every measured proof that succeeded
  uint64_t failed = 0;                // measured proofs that failed
  std::string first_failure;          // the first failed proof's status and message
  uint64_t verified = 0;              // measured proofs the host verified before delivery
  uint64_t wall_ns = 0;               // first measured submit to last measured completion
  uint64_t busy_ns = 0;               // device time (zkp_device_info_t busy_ns) in the measured part, all devices
  uint32_t devices = 1;
  std::vector<BusySample> busy_samples;  // over the whole point, warm-up included; empty if not sampled
};

// The nearest-rank percentile (p in (0, 100]) of `values`: the smallest value with at least
// p% of them at or below it. 0 for no values.
uint64_t nearest_rank(std::vector<uint64_t> values, double p);

// Measured proofs that succeeded per second of wall time.
double proofs_per_second(const PointResult& r);

// Device time (the workers' gpu_duration, summed) over (wall time x devices): at most 1 with
// one worker per device; up to workers_per_device when workers overlap on a device.
double busy_fraction(const PointResult& r);

}  // namespace zkp::cli::bench
