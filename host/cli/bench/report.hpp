// The results of a sweep as a table (for a person), JSON and CSV (for scripts). Latencies
// are in milliseconds, throughput in proofs per second, busy as device time over wall x devices
// (busy_fraction: above 1 when workers overlap on a device).
#pragma once

#include "bench/stats.hpp"

#include <string>
#include <vector>

namespace zkp::cli::bench {

// What was benchmarked, printed above the table and stored in the JSON.
struct BenchInfo {
  std::string prover;
  std::string target;   // "local" or the serve address
  std::string key;
  std::string witness;
  uint32_t warmup = 0;
  double keygen_s = -1;         // --synthetic: seconds the key took to generate; < 0 otherwise
  unsigned keygen_threads = 0;  // --synthetic: the threads that generated it
  // What the figures were measured with and on, so that a JSON file read later says it.
  std::string zkpipe_version;
  uint64_t started_unix_ms = 0;
  std::string host_name;
  std::string cpu;                // /proc/cpuinfo's model name
  unsigned hardware_threads = 0;
  uint64_t memory_bytes = 0;
};

std::string format_table(const BenchInfo& info, const std::vector<PointResult>& results);

// {"zkpipe_version":..,"started_unix_ms":..,"host":{"name":..,"cpu":..,"hardware_threads":..,
//  "memory_bytes":..},"prover":..,"target":..,"key":..,"witness":..,"warmup":N,
//  ["keygen_s":..,"keygen_threads":.., with --synthetic; its "key" says INSECURE,]
//  "busy_samples":[{"point":i,"t_s":..,"busy":[share per device],"busy_ns":[cumulative per
//  device]}, ...] (time order; busy_sampler.hpp says how a share is reconstructed),
//  "points":[{"workers_per_device":..,
//  "synthesis_threads":..,"in_flight":..,"proofs":..,"failed":..,"verified":..,"wall_s":..,
//  "proofs_per_s":..,"p50_ms":..,"p99_ms":..,"busy":..}, ...]}
// (against a `zkpipe serve`, synthesis_threads is 0: the server's own, which it does not report)
std::string format_json(const BenchInfo& info, const std::vector<PointResult>& results);

// A header line, then one row per point, the columns of the JSON points.
std::string format_csv(const std::vector<PointResult>& results);

}  // namespace zkp::cli::bench
