// The completion thread: the one thread that runs callbacks (zkp_host.h). Records are
// delivered one at a time in the order they were posted; after the last partition of a
// job, that job's callback. A callback that throws a C++ exception is logged and the
// thread carries on. It also answers "has job N finished and have its callbacks
// returned?" for zkp_host_wait and shutdown.
//
// Locking: one mutex, a leaf (taken inside the pipeline's scheduler lock by add_job and
// post; never held while a callback runs).
#pragma once

#include "completion.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace zkp::host {

class CompletionDispatcher {
 public:
  CompletionDispatcher();   // starts the completion thread
  ~CompletionDispatcher();  // stop()
  CompletionDispatcher(const CompletionDispatcher&) = delete;
  CompletionDispatcher& operator=(const CompletionDispatcher&) = delete;

  // Registers job `job_id` (ids increase) before any of its records is posted.
  void add_job(uint64_t job_id, const JobCallbacks& callbacks);
  // Queues one partition's record for delivery.
  void post(Completion record);

  bool on_completion_thread() const { return std::this_thread::get_id() == thread_id_; }

  // Waits until job `job_id` (0: every job added so far) has finished and its callbacks
  // have returned; nullopt timeout waits forever. ZKP_OK, ZKP_ERR_TIMEOUT, or
  // ZKP_ERR_NOT_FOUND for an id never added.
  zkp_status_t wait(uint64_t job_id, std::optional<std::chrono::milliseconds> timeout);

  // Delivers what is queued, then ends the thread. Idempotent.
  void stop();

  struct Counters {
    uint64_t jobs_finished = 0;
    uint64_t partitions_succeeded = 0;
    uint64_t partitions_failed = 0;  // includes cancelled
  };
  Counters counters() const;

 private:
  struct JobState {
    JobCallbacks callbacks;
    uint32_t delivered = 0;
    uint32_t succeeded = 0;
    uint32_t failed = 0;
    uint32_t cancelled = 0;
    zkp_status_t first_failure = ZKP_OK;
  };

  void run();
  void deliver(const Completion& record, const JobCallbacks& callbacks);
  void finish_job(uint64_t job_id, const JobState& state);
  bool finished_locked(uint64_t job_id, uint64_t last_id) const;

  mutable std::mutex mu_;
  std::condition_variable work_cv_;  // records posted, or stop
  std::condition_variable done_cv_;  // a job finished
  std::deque<Completion> queue_;
  std::map<uint64_t, JobState> jobs_;  // unfinished jobs
  uint64_t last_job_id_ = 0;
  bool stopping_ = false;
  Counters counters_;
  std::thread thread_;
  std::thread::id thread_id_;  // set once in the constructor, read-only after
};

}  // namespace zkp::host
