// How `zkpipe serve` turns a JobRequest (proto/zkpipe/v1/prover.proto) into the partitions of a
// host job: the one step between the protobuf message and zkp_host_submit, kept apart from the
// job table so it can be fuzzed on its own (tests/serve/fuzz_serve_request.cpp).
#pragma once

#include <zkpipe/zkp_host.h>

#include "synthesized.hpp"

#include "zkpipe/v1/prover.pb.h"

#include <memory>
#include <string>
#include <vector>

namespace zkp::serve {

// The partitions of one job and the bytes they point into, which this object owns: valid, and
// not to be moved from, while the job runs (the vectors' elements never move once built).
struct JobPartitions {
  std::vector<std::string> witnesses;                          // a .wtns each, or none
  std::vector<std::unique_ptr<SynthesizedInput>> synthesized;  // or these, a partition each
  std::vector<zkp_partition_t> parts;                          // into the above, in order
};

// Moves the request's witnesses (each a ZKP_WITNESS_WTNS_BUFFER partition) or synthesized
// partitions (SynthesizedInput's checks) out of `request` into `out`. Throws zkp::sdk::Error
// with ZKP_ERR_INVALID_ARGUMENT for a request with neither or both, or a malformed synthesized
// partition (naming it and the field); `out` is then unspecified. What only the key can judge
// (a witness's contents, the lengths against the circuit) is the host's and the prover's.
void take_partitions(zkpipe::v1::JobRequest& request, JobPartitions& out);

}  // namespace zkp::serve
