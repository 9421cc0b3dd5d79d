// A partition's completion on `zkpipe serve`'s wire (prover.proto's PartitionResult), both ways:
// the server writes it from the host's zkp_completion_t, the client library reads it into the
// C view zkp_client.h gives its callers. Written once so that a field of a completion crosses
// the wire in this one file pair (and the proto), not in serve and the client separately.
#pragma once

#include <zkpipe/zkp_client.h>
#include <zkpipe/zkp_host.h>

#include "zkpipe/v1/prover.pb.h"

namespace zkp::services {

// The completion as the API's PartitionResult, with its proof and public signals also as
// snarkjs JSON (snarkjs_result.hpp); bytes that do not convert make the result a
// ZKP_ERR_INTERNAL failure that says so. Reads only `record`: any thread.
zkpipe::v1::PartitionResult to_partition_result(const zkp_completion_t& record);

// The C view of a PartitionResult: its pointers point into `message`'s strings, so it is valid
// while `message` lives unchanged.
zkp_client_partition_t client_view(const zkpipe::v1::PartitionResult& message);

}  // namespace zkp::services
