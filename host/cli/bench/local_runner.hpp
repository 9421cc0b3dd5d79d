// Runs sweep points on a host in this process (host::Host, the C API's implementation): one
// host per point, built from the base configuration with that point's workers_per_device and
// synthesis_threads, and self_check forced on so every proof the bench counts was verified
// before delivery (a fast engine that proves wrong fails its partitions instead of benching well).
// While a point runs, a BusySampler reads every device's busy_ns every 100 ms.
#pragma once

#include "bench/budget.hpp"
#include "bench/stats.hpp"

#include <zkpipe/host/config.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace zkp::cli::bench {

// What every proof proves: files, or bytes in memory (`--synthetic`).
struct BenchInput {
  std::string key_path;               // a .zkey file; empty when key_image is given
  std::string witness_path;           // a .wtns file; empty when assignment is given
  std::vector<std::byte> key_image;   // a .zkey in memory
  std::vector<std::byte> assignment;  // ZKP_WITNESS_ASSIGNMENT: n_vars standard-form scalars
};

class LocalRunner {
 public:
  // `origin`: time 0 of the busy samples (the bench's start).
  LocalRunner(host::Config base, BenchInput input, std::chrono::steady_clock::time_point origin);

  // Runs one point; a key or witness the prover rejects is an sdk::Error. Failed proofs are
  // counted in the result, not thrown.
  PointResult run(const Point& point, const Budget& budget, const ProofTick& tick);

  // The prover's name, known once a point has run.
  const std::string& prover_name() const { return prover_name_; }

 private:
  host::Config base_;
  BenchInput input_;
  std::chrono::steady_clock::time_point origin_;
  std::string prover_name_;
};

}  // namespace zkp::cli::bench
