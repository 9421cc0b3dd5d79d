// Pending partitions in admission order: highest job priority first, then the order
// of submission (job id, then partition index). Not synchronized: the pipeline calls it
// under its scheduler lock.
#pragma once

#include "job.hpp"

#include <map>
#include <vector>

namespace zkp::host {

class Scheduler {
 public:
  void push(Task task);
  bool empty() const { return pending_.empty(); }
  size_t size() const { return pending_.size(); }
  const Task& front() const { return pending_.begin()->second; }  // requires !empty()
  Task pop();                                                     // requires !empty()
  // Removes and returns every pending partition of job `job_id`.
  std::vector<Task> remove_job(uint64_t job_id);

 private:
  struct Order {
    int32_t priority;
    uint64_t job;
    uint32_t partition;
    bool operator<(const Order& o) const {
      if (priority != o.priority) return priority > o.priority;
      if (job != o.job) return job < o.job;
      return partition < o.partition;
    }
  };
  std::map<Order, Task> pending_;
};

}  // namespace zkp::host
