#include "completion_dispatcher.hpp"

#include <zkpipe/host/clock.hpp>
#include "invariant.hpp"
#include <zkpipe/host/logging.hpp>

#include <exception>

namespace zkp::host {

namespace {

// Runs a caller's callback; a C++ exception it throws is logged, never propagated
// (the host stays up and later callbacks still arrive).
template <class Call>
void run_callback(const char* what, uint64_t job_id, Call&& call) noexcept {
  try {
    call();
  } catch (const std::exception& e) {
    log().error("{} callback of job {} threw an exception: {} (ignored; the host carries on)", what,
                job_id, e.what());
  } catch (...) {
    log().error("{} callback of job {} threw a non-standard exception (ignored; the host carries on)",
                what, job_id);
  }
}

}  // namespace

CompletionDispatcher::CompletionDispatcher() {
  thread_ = std::thread([this] { run(); });
  thread_id_ = thread_.get_id();
}

CompletionDispatcher::~CompletionDispatcher() { stop(); }

void CompletionDispatcher::add_job(uint64_t job_id, const JobCallbacks& callbacks) {
  std::lock_guard lock(mu_);
  ZKP_HOST_INVARIANT(job_id > last_job_id_, "job ids must increase");
  jobs_.emplace(job_id, JobState{callbacks});
  last_job_id_ = job_id;
}

void CompletionDispatcher::post(Completion record) {
  {
    std::lock_guard lock(mu_);
    queue_.push_back(std::move(record));
  }
  work_cv_.notify_one();
}

void CompletionDispatcher::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    work_cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and everything was delivered

    Completion record = std::move(queue_.front());
    queue_.pop_front();
    auto it = jobs_.find(record.job_id);
    ZKP_HOST_INVARIANT(it != jobs_.end(), "a completion for a job that is not registered");
    JobState& state = it->second;
    ++state.delivered;
    if (record.status == ZKP_OK) {
      ++state.succeeded;
      ++counters_.partitions_succeeded;
    } else {
      ++(record.status == ZKP_ERR_CANCELLED ? state.cancelled : state.failed);
      ++counters_.partitions_failed;
      if (state.first_failure == ZKP_OK) state.first_failure = record.status;
    }
    ZKP_HOST_INVARIANT(state.delivered <= state.callbacks.partitions, "more completions than partitions");
    const bool last = state.delivered == state.callbacks.partitions;
    const JobState snapshot = state;

    lock.unlock();
    deliver(record, snapshot.callbacks);
    if (last) finish_job(record.job_id, snapshot);
    lock.lock();

    if (last) {
      jobs_.erase(record.job_id);
      ++counters_.jobs_finished;
      done_cv_.notify_all();
    }
  }
}

void CompletionDispatcher::deliver(const Completion& record, const JobCallbacks& callbacks) {
  if (callbacks.input_release != nullptr) {
    run_callback("input released", record.job_id, [&] { callbacks.input_release->release(record.partition); });
  }
  if (callbacks.on_partition == nullptr) return;
  const zkp_completion_t view = record.view();
  run_callback("partition", record.job_id, [&] { callbacks.on_partition(callbacks.user_data, &view); });
}

void CompletionDispatcher::finish_job(uint64_t job_id, const JobState& state) {
  if (state.callbacks.on_job == nullptr) return;
  zkp_job_summary_t summary{};
  summary.header = ZKP_HEADER_INIT(zkp_job_summary_t);
  summary.job_id = job_id;
  summary.status = state.first_failure;
  summary.partitions = state.callbacks.partitions;
  summary.succeeded = state.succeeded;
  summary.failed = state.failed;
  summary.cancelled = state.cancelled;
  summary.wall_ns = now_ns() - state.callbacks.submit_ns;
  run_callback("job", job_id, [&] { state.callbacks.on_job(state.callbacks.user_data, &summary); });
}

bool CompletionDispatcher::finished_locked(uint64_t job_id, uint64_t last_id) const {
  if (job_id != 0) return !jobs_.contains(job_id);
  return jobs_.empty() || jobs_.begin()->first > last_id;
}

zkp_status_t CompletionDispatcher::wait(uint64_t job_id, std::optional<std::chrono::milliseconds> timeout) {
  std::unique_lock lock(mu_);
  if (job_id > last_job_id_) return ZKP_ERR_NOT_FOUND;
  const uint64_t last_id = last_job_id_;
  auto done = [&] { return finished_locked(job_id, last_id); };
  if (!timeout) {
    done_cv_.wait(lock, done);
    return ZKP_OK;
  }
  return done_cv_.wait_for(lock, *timeout, done) ? ZKP_OK : ZKP_ERR_TIMEOUT;
}

void CompletionDispatcher::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

CompletionDispatcher::Counters CompletionDispatcher::counters() const {
  std::lock_guard lock(mu_);
  return counters_;
}

}  // namespace zkp::host
