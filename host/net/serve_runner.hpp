// Runs sweep points against a `zkpipe serve` (the same Prove RPC a client calls): the key is
// loaded once (LoadKey, by its absolute path: the server must see the same file), the witness
// sent as bytes with each proof. The server's own configuration fixes its workers and
// synthesis threads, so a point varies only the jobs in flight: that many client threads, each
// calling Prove (one partition) and measuring submit-to-reply latency. A proof counts as
// verified when the server says so (ZKP_COMPLETION_SELF_CHECKED in its flags).
#pragma once

#include "bench/budget.hpp"
#include "bench/stats.hpp"

#include <chrono>
#include <cstdint>
#include <string>

namespace zkp::client {
class Connection;  // host/client/connection.hpp
}

namespace zkp::cli::bench {

class ServeRunner {
 public:
  // Loads the key and reads the witness; an sdk::Error when the server refuses the key.
  // `origin`: time 0 of the busy samples (the bench's start).
  ServeRunner(client::Connection& connection, const std::string& key_path, const std::string& witness_path,
              std::chrono::steady_clock::time_point origin);

  // Warm-up proofs run one at a time; the measured part's busy samples come from Status RPCs
  // every 100 ms (the server's per-device busy_ns). `point.workers_per_device` is overwritten with the
  // server's, `synthesis_threads` set to 0 (the server does not report it).
  PointResult run(const Point& point, const Budget& budget, const ProofTick& tick);

  const std::string& prover_name() const { return prover_name_; }

 private:
  client::Connection& connection_;
  uint64_t key_id_ = 0;
  std::string witness_;
  std::string prover_name_;
  std::chrono::steady_clock::time_point origin_;
};

}  // namespace zkp::cli::bench
