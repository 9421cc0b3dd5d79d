#include "job_table.hpp"

#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include "core/formats/groth16_json.hpp"
#include "core/formats/proof_bytes.hpp"

#include <optional>

namespace zkp::serve {

namespace v1 = zkpipe::v1;

namespace {

std::optional<Curve> curve_of(zkp_curve_t c) {
  switch (c) {
    case ZKP_CURVE_BN254: return Curve::bn254;
    case ZKP_CURVE_BLS12_381: return Curve::bls12_381;
    default: return std::nullopt;
  }
}

}  // namespace

v1::PartitionResult to_result(const zkp_completion_t& r) {
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
  const std::optional<Curve> curve = curve_of(r.curve);
  if (curve) out.set_curve(std::string(curve_info(*curve).snarkjs_name));
  if (r.proof != nullptr) out.set_proof(reinterpret_cast<const char*>(r.proof), r.proof_size);
  if (r.public_inputs != nullptr) out.set_public_inputs(reinterpret_cast<const char*>(r.public_inputs), r.public_size);
  if (r.status != ZKP_OK || r.proof == nullptr || !curve) return out;  // a failure, or a simulation
  try {
    const auto* proof = reinterpret_cast<const std::byte*>(r.proof);
    out.set_proof_json(write_proof_json(proof_from_bytes(*curve, ByteView(proof, r.proof_size), "proof")));
    std::vector<ByteVec> publics;
    const auto* pub = reinterpret_cast<const std::byte*>(r.public_inputs);
    for (size_t off = 0; pub != nullptr && off + ZKP_SCALAR_SIZE <= r.public_size; off += ZKP_SCALAR_SIZE) {
      publics.emplace_back(pub + off, pub + off + ZKP_SCALAR_SIZE);
    }
    out.set_public_json(write_public_json(publics));
  } catch (const std::exception& e) {
    out.set_status(ZKP_ERR_INTERNAL);
    out.set_status_name(zkp_status_name(ZKP_ERR_INTERNAL));
    out.set_message(std::string("the prover's proof bytes do not convert to snarkjs JSON: ") + e.what());
  }
  return out;
}

JobState::Batch JobState::wait_from(size_t from, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, timeout, [&] { return done_ || results_.size() > from; });
  Batch batch;
  batch.done = done_;
  for (size_t i = from; i < results_.size(); ++i) batch.results.push_back(results_[i]);
  return batch;
}

void JobState::add(v1::PartitionResult result) {
  std::lock_guard lock(mu_);
  results_.push_back(std::move(result));
  cv_.notify_all();
}

void JobState::finish() {
  std::lock_guard lock(mu_);
  done_ = true;
  // The host reads them no more; parts (which point into them) stay for partitions().
  inputs_.witnesses.clear();
  inputs_.witnesses.shrink_to_fit();
  inputs_.synthesized.clear();
  cv_.notify_all();
}

// What the callbacks get: the job and the table; freed by on_job, the last callback.
struct JobTable::CallbackContext {
  JobTable* table;
  std::shared_ptr<JobState> job;
};

void JobTable::on_partition(void* user_data, const zkp_completion_t* record) {
  auto* context = static_cast<CallbackContext*>(user_data);
  context->table->metrics_.observe_partition(*record);
  // One line per partition, naming job, partition and device, so serve.log_format = json
  // gives a log shipper those fields: a failure for the operator, a success or a cancel at debug.
  const char* message = record->message != nullptr ? record->message : "";
  if (record->status == ZKP_OK) {
    host::log().debug("serve: job {} partition {} proved on device {} in {:.1f} ms", record->job_id, record->partition,
                      record->gpu_index, static_cast<double>(record->total_ns) / 1e6);
  } else if (record->status == ZKP_ERR_CANCELLED) {
    host::log().debug("serve: job {} partition {} cancelled", record->job_id, record->partition);
  } else if (record->gpu_index >= 0) {
    host::log().warn("serve: job {} partition {} failed on device {}: [{}] {}", record->job_id, record->partition,
                     record->gpu_index, zkp_status_name(record->status), message);
  } else {
    host::log().warn("serve: job {} partition {} failed: [{}] {}", record->job_id, record->partition,
                     zkp_status_name(record->status), message);
  }
  context->job->add(to_result(*record));
}

void JobTable::on_job(void* user_data, const zkp_job_summary_t* summary) {
  std::unique_ptr<CallbackContext> context(static_cast<CallbackContext*>(user_data));
  context->table->metrics_.observe_job(*summary);
  context->table->on_done_(context->job->key_id_);
  // The table first: a client that sees the job done (and asks Status) sees it finished there too.
  context->table->finished(*context->job);
  context->job->finish();
}

void JobTable::finished(const JobState& job) {
  std::lock_guard lock(mu_);  // after submit() has set job.id_, which it does under this lock
  finished_.push_back(job.id_);
  while (finished_.size() > keep_finished_) {
    jobs_.erase(finished_.front());
    finished_.pop_front();
  }
}

std::shared_ptr<const JobState> JobTable::submit(v1::JobRequest& request) {
  auto job = std::make_shared<JobState>();
  job->key_id_ = request.key_id();
  take_partitions(request, job->inputs_);
  auto context = std::make_unique<CallbackContext>(CallbackContext{this, job});
  auto c_job = sdk::make_struct<zkp_job_t>();
  c_job.key_id = request.key_id();
  c_job.partitions = job->inputs_.parts.data();
  c_job.partition_count = static_cast<uint32_t>(job->inputs_.parts.size());
  c_job.gpu_index = request.gpu_index();
  c_job.priority = request.priority();
  c_job.on_partition = &on_partition;
  c_job.on_job = &on_job;
  c_job.user_data = context.get();
  // The table lock is held across submit so the job is in the table before its first
  // callback can look for it (callbacks take only the job's own lock, and finished() waits).
  std::lock_guard lock(mu_);
  job->id_ = host_.submit(c_job);
  context.release();  // owned by the callbacks from here on
  jobs_.emplace(job->id_, job);
  return job;
}

std::shared_ptr<const JobState> JobTable::find(uint64_t job_id) const {
  std::lock_guard lock(mu_);
  const auto it = jobs_.find(job_id);
  if (it == jobs_.end()) {
    throw sdk::Error(ZKP_ERR_NOT_FOUND, "job " + std::to_string(job_id) + " is unknown to this server (or long finished)");
  }
  return it->second;
}

size_t JobTable::open() const {
  std::lock_guard lock(mu_);
  return jobs_.size() - finished_.size();
}

}  // namespace zkp::serve
