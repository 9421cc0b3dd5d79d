// What the service counts from the host's completion records, for /metrics and /status:
// partitions and jobs by outcome, per-stage duration histograms (device time per device,
// synthesis, GPU-queue wait, submit to completion), the latest failures with their messages,
// and a ring of the latest completions (recent.hpp makes the dashboard's last minutes of it).
// The host's own counters (zkp_host_stats, zkp_host_device_info) are read when a page is made,
// not copied here.
//
// Every status has its count from the start, 0 until one is seen, so an alert on a series
// (failed, cancelled, ...) has a baseline before the first event; a status is named by
// status_label(), snake_case, in both pages.
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

namespace zkp::observe {

// zkp_status_name in snake_case, the label value /metrics gives a status and the key /status
// gives it: "bad input" -> "bad_input", "ABI mismatch" -> "abi_mismatch", "ok" -> "ok".
std::string status_label(zkp_status_t status);


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

  Metrics();  // every status at 0

  // `key_id`: the host's id of the key the partition was proved with.
  void observe_partition(const zkp_completion_t& record, uint64_t key_id);  // [completion-thread]
  void observe_job(const zkp_job_summary_t& summary);      // [completion-thread]
  Snapshot snapshot() const;                               // [any-thread]


 private:
  mutable std::mutex mu_;
  Snapshot s_;
};

}  // namespace zkp::observe
