#include "result.hpp"

#include <zkpipe/sdk/error.hpp>

#include "services/names.hpp"

#include <memory>

namespace zkp::client {

namespace {

zkp_curve_t curve_of(const std::string& name) { return services::curve_from_name(name).value_or(ZKP_CURVE_UNKNOWN); }

const uint8_t* bytes_of(const std::string& s) {
  return s.empty() ? nullptr : reinterpret_cast<const uint8_t*>(s.data());
}

zkp_client_partition_t view_of(const zkpipe::v1::PartitionResult& m) {
  auto v = sdk::make_struct<zkp_client_partition_t>();
  v.partition = m.partition();
  v.status = m.status();
  v.message = m.message().c_str();
  v.gpu_index = m.gpu_index();
  v.worker = m.worker();
  v.gpu_duration_ns = m.gpu_duration_ns();
  v.synthesis_ns = m.synthesis_ns();
  v.queue_wait_ns = m.queue_wait_ns();
  v.total_ns = m.total_ns();
  v.curve = curve_of(m.curve());
  v.flags = m.flags();
  v.proof = bytes_of(m.proof());
  v.proof_size = m.proof().size();
  v.public_inputs = bytes_of(m.public_inputs());
  v.public_inputs_size = m.public_inputs().size();
  v.proof_json = m.proof_json().c_str();
  v.public_json = m.public_json().c_str();
  return v;
}

}  // namespace

std::unique_ptr<zkp_client_result_t> make_result(uint64_t job_id, std::vector<zkpipe::v1::PartitionResult> messages) {
  auto r = std::make_unique<zkp_client_result_t>();
  r->job_id = job_id;
  r->messages = std::move(messages);
  r->views.reserve(r->messages.size());
  for (const zkpipe::v1::PartitionResult& m : r->messages) r->views.push_back(view_of(m));
  return r;
}

}  // namespace zkp::client
