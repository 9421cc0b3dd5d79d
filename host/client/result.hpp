// zkp_client_result_t: a job's partition results as the server sent them, and the C views of
// them (zkp_client_partition_t) whose pointers point into those messages.
#pragma once

#include <zkpipe/zkp_client.h>

#include "zkpipe/v1/prover.pb.h"

#include <memory>
#include <vector>

struct zkp_client_result_t {
  uint64_t job_id = 0;
  // Never resized once views is built: the views point into these messages' strings.
  std::vector<zkpipe::v1::PartitionResult> messages;
  std::vector<zkp_client_partition_t> views;
};

namespace zkp::client {

// A result owning `messages`, with one view each, in their order.
std::unique_ptr<zkp_client_result_t> make_result(uint64_t job_id, std::vector<zkpipe::v1::PartitionResult> messages);

}  // namespace zkp::client
