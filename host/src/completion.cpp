#include "completion.hpp"

namespace zkp::host {

zkp_completion_t Completion::view() const {
  zkp_completion_t c{};
  c.header = ZKP_HEADER_INIT(zkp_completion_t);
  c.job_id = job_id;
  c.partition = partition;
  c.status = status;
  c.message = message.c_str();
  c.gpu_index = gpu_index;
  c.worker = worker;
  c.gpu_duration_ns = gpu_duration_ns;
  c.synthesis_ns = synthesis_ns;
  c.queue_wait_ns = queue_wait_ns;
  c.total_ns = total_ns;
  c.curve = curve;
  c.flags = flags;
  c.proof = proof.empty() ? nullptr : proof.data();
  c.proof_size = proof.size();
  c.public_inputs = public_inputs.empty() ? nullptr : public_inputs.data();
  c.public_size = public_inputs.size();
  return c;
}

}  // namespace zkp::host
