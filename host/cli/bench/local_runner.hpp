// Runs sweep points on a host in this process (host::Host, the C API's implementation): one
// host per point, built from the base configuration with that point's workers_per_device and
// synthesis_threads, and self_check forced on so every proof the bench counts was verified
// before delivery (a fast engine that proves wrong fails its partitions instead of benching well).
#pragma once

#include "bench/budget.hpp"
#include "bench/stats.hpp"

#include <zkpipe/host/config.hpp>

#include <cstdint>
#include <string>

namespace zkp::cli::bench {

class LocalRunner {
 public:
  LocalRunner(host::Config base, std::string key_path, std::string witness_path);

  // Runs one point; a key or witness the prover rejects is an sdk::Error. Failed proofs are
  // counted in the result, not thrown.
  PointResult run(const Point& point, const Budget& budget, const ProofTick& tick);

  // The prover's name, known once a point has run.
  const std::string& prover_name() const { return prover_name_; }

 private:
  host::Config base_;
  std::string key_path_;
  std::string witness_path_;
  std::string prover_name_;
};

}  // namespace zkp::cli::bench
