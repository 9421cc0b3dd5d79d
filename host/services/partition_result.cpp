#include "services/partition_result.hpp"

#include <zkpipe/sdk/error.hpp>

#include "services/names.hpp"
#include "services/snarkjs_result.hpp"

#include <optional>
#include <string>

namespace zkp::services {

namespace {

zkp_curve_t curve_of(const std::string& name) { return curve_from_name(name).value_or(ZKP_CURVE_UNKNOWN); }

const uint8_t* bytes_of(const std::string& s) {
  return s.empty() ? nullptr : reinterpret_cast<const uint8_t*>(s.data());
}

}  // namespace

zkpipe::v1::PartitionResult to_partition_result(const zkp_completion_t& r) {
  namespace v1 = zkpipe::v1;
  v1::PartitionResult out;
  out.set_job_id(r.job_id);
  out.set_partition(r.partition);
  out.set_status(static_cast<int32_t>(r.status));
  out.set_status_name(zkp_status_name(r.status));
  out.set_message(r.message != nullptr ? r.message : "");
  out.set_gpu_index(r.gpu_index);
  out.set_worker(r.worker);
  out.set_gpu_duration_ns(r.gpu_duration_ns);
  out.set_synthesis_ns(r.synthesis_ns);
  out.set_queue_wait_ns(r.queue_wait_ns);
  out.set_total_ns(r.total_ns);
  out.set_flags(r.flags);
  if (const CurveName* curve = find_curve(r.curve)) out.set_curve(std::string(curve->snarkjs));
  if (r.proof != nullptr) out.set_proof(reinterpret_cast<const char*>(r.proof), r.proof_size);
  if (r.public_inputs != nullptr) out.set_public_inputs(reinterpret_cast<const char*>(r.public_inputs), r.public_size);
  try {
    if (std::optional<SnarkjsFiles> files = snarkjs_files(r)) {  // none: a failure, or a simulation
      out.set_proof_json(std::move(files->proof_json));
      out.set_public_json(std::move(files->public_json));
    }
  } catch (const sdk::Error& e) {
    out.set_status(e.status());
    out.set_status_name(zkp_status_name(e.status()));
    out.set_message(e.what());
  }
  return out;
}


zkp_client_partition_t client_view(const zkpipe::v1::PartitionResult& m) {
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

}  // namespace zkp::services
