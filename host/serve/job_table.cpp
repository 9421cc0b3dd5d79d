#include "job_table.hpp"

#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include "services/partition_result.hpp"

#include <optional>

namespace zkp::serve {

namespace v1 = zkpipe::v1;

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
  context->table->metrics_.observe_partition(*record, context->job->key_id_);
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
  context->job->add(services::to_partition_result(*record));
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
  held_.fetch_sub(job.held_bytes_);  // finish() has freed its witnesses
  std::lock_guard lock(mu_);  // after submit() has set job.id_, which it does under this lock
  finished_.push_back(job.id_);
  while (finished_.size() > keep_finished_) {
    jobs_.erase(finished_.front());
    finished_.pop_front();
  }
}

JobTable::Reservation JobTable::reserve(uint64_t bytes) {
  // The request's bytes stay with the job until it ends: counted, so that concurrent large jobs
  // cannot add up past serve.request_budget (issue 36: four 60 MiB Submits held 614 MiB).
  const uint64_t before = held_.fetch_add(bytes);
  if (request_budget_ != 0 && (bytes > request_budget_ || before + bytes > request_budget_)) {
    held_.fetch_sub(bytes);
    throw sdk::Error(ZKP_ERR_BUDGET_EXHAUSTED,
                     "a request of " + std::to_string(bytes) + " bytes with " + std::to_string(before) +
                         " bytes of open jobs' requests held would pass serve.request_budget (" +
                         std::to_string(request_budget_) + " bytes); try again when a job finishes");
  }
  return Reservation(&held_, bytes);
}

std::shared_ptr<const JobState> JobTable::submit(v1::JobRequest& request) {
  return submit(request, reserve(request.ByteSizeLong()));
}

std::shared_ptr<const JobState> JobTable::submit(v1::JobRequest& request, Reservation reserved) {
  auto job = std::make_shared<JobState>();
  job->key_id_ = request.key_id();
  job->held_bytes_ = reserved.bytes();
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
  reserved.held_ = nullptr;  // the job holds them now: finished() gives them back
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
