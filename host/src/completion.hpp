// The host's record of one finished partition, before it is shown to a callback as a
// zkp_completion_t (which borrows its strings and buffers).
#pragma once

#include "job.hpp"
#include <zkpipe/zkp_host.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace zkp::host {

struct Completion {
  uint64_t job_id = 0;
  uint32_t partition = 0;
  zkp_status_t status = ZKP_OK;
  std::string message;
  int32_t gpu_index = -1;
  uint32_t worker = 0;
  uint64_t gpu_duration_ns = 0;
  uint64_t synthesis_ns = 0;
  uint64_t queue_wait_ns = 0;
  uint64_t total_ns = 0;
  zkp_curve_t curve = ZKP_CURVE_UNKNOWN;
  uint32_t flags = 0;
  std::vector<uint8_t> proof;
  std::vector<uint8_t> public_inputs;

  // The C view for a callback; valid while this record lives and is not modified.
  zkp_completion_t view() const;
};

// What a caller registered with a job: its callbacks and how many partitions to expect.
struct JobCallbacks {
  zkp_partition_callback_t on_partition = nullptr;
  zkp_job_callback_t on_job = nullptr;
  void* user_data = nullptr;
  std::shared_ptr<InputRelease> input_release;  // told before on_partition, if not yet
  uint32_t partitions = 0;
  uint64_t submit_ns = 0;
};

}  // namespace zkp::host
