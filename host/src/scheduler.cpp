#include "scheduler.hpp"

namespace zkp::host {

void Scheduler::push(Task task) {
  const Order order{task.job->priority, task.job->id, task.partition};
  pending_.emplace(order, std::move(task));
}

Task Scheduler::pop() {
  auto node = pending_.extract(pending_.begin());
  return std::move(node.mapped());
}

std::vector<Task> Scheduler::remove_job(uint64_t job_id) {
  std::vector<Task> out;
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->first.job == job_id) {
      out.push_back(std::move(it->second));
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

}  // namespace zkp::host
