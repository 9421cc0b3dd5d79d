// What the service counts from the host's completion records, for /metrics and /status:
// partitions and jobs by outcome, per-stage duration histograms (device time per device,
// synthesis, GPU-queue wait, submit to completion), the latest failures with their messages,
// and a ring of the latest completions (recent.hpp makes the dashboard's last minutes of it).
// The host's own counters (zkp_host_stats, zkp_host_device_info) are read when a page is made,
// not copied here.
//
// Locking: one mutex; observe_* run on the host's completion thread, snapshot() anywhere.
#pragma once

#include "exposition.hpp"
#include "recent.hpp"
#include "retention.hpp"

#include <zkpipe/zkpipe.h>

#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>

namespace zkp::serve {

class Metrics {
 public:
  static constexpr size_t kRecentFailures = 16;
  // The completions kept for the dashboard's last 5 minutes (retention.hpp; Recent then sees
  // fewer when the oldest of those minutes fall out of it first).
  static constexpr size_t kRecentCompletions = kRecentCompletionsKept;
  // A partition that failed (not one cancelled): what an operator looks for first.
  struct Failure {
    uint64_t job_id = 0;
    uint32_t partition = 0;
    std::string status;  // zkp_status_name
    std::string message;
    int32_t gpu_index = -1;
    uint64_t unix_ms = 0;
  };
  struct Snapshot {
    std::map<std::string, uint64_t> partitions;  // by zkp_status_name
    std::map<std::string, uint64_t> jobs;        // by the job's status name
    std::map<int32_t, Histogram> gpu_duration;   // by the device that ran it
    Histogram synthesis;
    Histogram queue_wait;
    Histogram total;
    std::deque<Failure> recent_failures;  // the latest kRecentFailures, oldest first
    std::deque<RecentCompletion> recent_completions;  // the latest kRecentCompletions, oldest first
  };

  void observe_partition(const zkp_completion_t& record);  // [completion-thread]
  void observe_job(const zkp_job_summary_t& summary);      // [completion-thread]
  Snapshot snapshot() const;                               // [any-thread]

 private:
  mutable std::mutex mu_;
  Snapshot s_;
};

}  // namespace zkp::serve
