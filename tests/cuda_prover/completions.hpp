// What a job's on_partition callback reported, for the tests that drive the cuda prover through
// the host (cuda_host_test.cpp, cuda_isolation_test.cpp): each completion record, with its
// message and proof copied out (the host's pointers live only during the callback).
#pragma once

#include <zkpipe/zkpipe.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace zkp::test {

struct Completions {
  std::mutex mu;
  std::vector<zkp_completion_t> records;  // message and proof pointers cleared
  std::vector<std::string> messages;
  std::vector<std::vector<std::uint8_t>> proofs;

  // A zkp_job_t.on_partition, with the Completions as user_data.
  static void on_partition(void* self, const zkp_completion_t* c) {
    auto& me = *static_cast<Completions*>(self);
    std::lock_guard lk(me.mu);
    me.records.push_back(*c);
    me.records.back().message = nullptr;
    me.records.back().proof = nullptr;
    me.messages.emplace_back(c->message != nullptr ? c->message : "");
    me.proofs.emplace_back(c->proof, c->proof + c->proof_size);
  }
};

}  // namespace zkp::test
