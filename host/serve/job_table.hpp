// The jobs a server has submitted, by the host's job id: the witnesses they read (kept until
// the job ends) and the partition results delivered so far, which Prove and any number of
// Await streams read. A job stays after it finishes so a late Await still gets its results;
// the oldest finished jobs beyond `keep_finished` are forgotten.
//
// Locking: each JobState has its own mutex; the table's mutex guards the map. The two are
// never held together. Callbacks run on the host's completion thread.
#pragma once

#include <zkpipe/host/host.hpp>

#include "job_request.hpp"
#include "services/observe/metrics.hpp"
#include "services/observe/retention.hpp"

#include "zkpipe/v1/prover.pb.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace zkp::serve {

class JobState {
 public:
  uint64_t id() const { return id_; }
  uint32_t partitions() const { return static_cast<uint32_t>(inputs_.parts.size()); }

  struct Batch {
    std::vector<zkpipe::v1::PartitionResult> results;  // results[from...] at the time of the call
    bool done = false;                                 // every partition has completed
  };
  // Waits up to `timeout` for a result past the first `from`, or for the end. [any-thread]
  Batch wait_from(size_t from, std::chrono::milliseconds timeout) const;

 private:
  friend class JobTable;
  void add(zkpipe::v1::PartitionResult result);  // [completion-thread]
  void finish();                                 // [completion-thread]

  uint64_t id_ = 0;  // set before any callback can read it
  uint64_t key_id_ = 0;
  JobPartitions inputs_;

  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  std::vector<zkpipe::v1::PartitionResult> results_;  // in completion order
  bool done_ = false;
  uint64_t held_bytes_ = 0;  // the request's size, counted in the table's request budget until done
};

class JobTable {
 public:
  // Every completion is also counted in `metrics`, and `on_done` told the key of each job that
  // finishes [completion-thread]; both must outlive the jobs.
  JobTable(host::Host& host, observe::Metrics& metrics, std::function<void(uint64_t key_id)> on_done,
           size_t keep_finished = observe::kKeepFinishedJobs)
      : host_(host), metrics_(metrics), on_done_(std::move(on_done)), keep_finished_(keep_finished) {}

  // What the open jobs' requests (witnesses, synthesized partitions) may hold at once, all
  // together (serve.request_budget; 0: no limit). Before serving.
  void set_request_budget(uint64_t bytes) { request_budget_ = bytes; }
  uint64_t request_bytes_held() const { return held_.load(); }

  // Bytes counted in the request budget before the request that needs them is whole (a
  // SubmitStream's witnesses, before they arrive); given back when dropped unless a submit
  // takes them over. Move-only; it must not outlive its table.
  class Reservation {
   public:
    Reservation() = default;
    Reservation(Reservation&& other) noexcept : held_(other.held_), bytes_(other.bytes_) { other.held_ = nullptr; }
    Reservation& operator=(Reservation&&) = delete;
    ~Reservation() {
      if (held_ != nullptr) held_->fetch_sub(bytes_);
    }
    uint64_t bytes() const { return bytes_; }

   private:
    friend class JobTable;
    Reservation(std::atomic<uint64_t>* held, uint64_t bytes) : held_(held), bytes_(bytes) {}
    std::atomic<uint64_t>* held_ = nullptr;
    uint64_t bytes_ = 0;
  };
  // Counts `bytes` in the request budget. Throws ZKP_ERR_BUDGET_EXHAUSTED (naming the figures)
  // when they would take the open jobs' requests past it.
  Reservation reserve(uint64_t bytes);

  // Submits the request (its witnesses, or synthesized partitions, moved into the job by
  // take_partitions). Throws zkp::sdk::Error as host::Host::submit or take_partitions does, and
  // ZKP_ERR_BUDGET_EXHAUSTED when the request would take the open jobs' requests past the
  // request budget; nothing is submitted then.
  std::shared_ptr<const JobState> submit(zkpipe::v1::JobRequest& request);
  // The same with the request's bytes counted already: the job holds `reserved` until it ends
  // (a refused submit gives it back).
  std::shared_ptr<const JobState> submit(zkpipe::v1::JobRequest& request, Reservation reserved);
  // ZKP_ERR_NOT_FOUND for a job never submitted here or forgotten since.
  std::shared_ptr<const JobState> find(uint64_t job_id) const;
  // Jobs not yet finished.
  size_t open() const;

 private:
  struct CallbackContext;
  static void on_partition(void* user_data, const zkp_completion_t* record);
  static void on_job(void* user_data, const zkp_job_summary_t* summary);
  void finished(const JobState& job);

  host::Host& host_;
  observe::Metrics& metrics_;
  std::function<void(uint64_t)> on_done_;
  const size_t keep_finished_;
  mutable std::mutex mu_;
  std::map<uint64_t, std::shared_ptr<JobState>> jobs_;
  std::deque<uint64_t> finished_;  // oldest first
  uint64_t request_budget_ = 0;
  std::atomic<uint64_t> held_{0};  // bytes of the open jobs' requests
};

}  // namespace zkp::serve
