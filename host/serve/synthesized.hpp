// A SynthesizedPartition of a gRPC request (proto/zkpipe/v1/prover.proto) as the host takes
// it: the zkp_synthesized_t a caller of the C API would fill, pointing into arrays this object
// owns (the request's bytes, moved in, not copied), valid while it lives.
#pragma once

#include <zkpipe/zkp_prover.h>

#include "zkpipe/v1/prover.pb.h"

#include <cstdint>
#include <string>

namespace zkp::serve {

class SynthesizedInput {
 public:
  // Takes `from`'s arrays. Throws zkp::sdk::Error (ZKP_ERR_INVALID_ARGUMENT, naming partition
  // `index` and the field) for arrays that are not whole 32-byte scalars, a, b and c of
  // different lengths or empty, an empty assignment, or a density bitmap whose words are not
  // whole u64 words or fewer than its bit_len needs. What only the key can judge (lengths
  // against the domain and variable counts, popcounts) the prover checks, failing the
  // partition with ZKP_ERR_BAD_INPUT.
  SynthesizedInput(zkpipe::v1::SynthesizedPartition&& from, uint32_t index);
  SynthesizedInput(const SynthesizedInput&) = delete;
  SynthesizedInput& operator=(const SynthesizedInput&) = delete;

  const zkp_synthesized_t& record() const { return record_; }

 private:
  zkpipe::v1::SynthesizedPartition arrays_;
  zkp_synthesized_t record_{};
};

}  // namespace zkp::serve
