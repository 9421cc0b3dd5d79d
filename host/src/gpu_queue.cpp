#include <zkpipe/host/gpu_queue.hpp>

namespace zkp::host {

GpuQueue::GpuQueue(QueueMode mode, uint32_t device_count)
    : mode_(mode), queues_(mode == QueueMode::shared ? 1 : device_count) {}

bool GpuQueue::may_run(const Task& task, uint32_t device) {
  return task.job->gpu_index < 0 || static_cast<uint32_t>(task.job->gpu_index) == device;
}

uint32_t GpuQueue::least_loaded(const std::vector<uint32_t>& proving) {
  const uint32_t n = static_cast<uint32_t>(queues_.size());
  uint32_t best = tie_cursor_ % n;
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t d = (tie_cursor_ + k) % n;
    if (queues_[d].size() + proving[d] < queues_[best].size() + proving[best]) best = d;
  }
  tie_cursor_ = (best + 1) % n;
  return best;
}

int32_t GpuQueue::push(Task task, const std::vector<uint32_t>& proving) {
  int32_t device = -1;
  std::deque<Task>* queue = &queues_.front();
  if (mode_ == QueueMode::per_device) {
    device = task.job->gpu_index >= 0 ? task.job->gpu_index : static_cast<int32_t>(least_loaded(proving));
    queue = &queues_[static_cast<size_t>(device)];
  }
  task.device = device;
  // After the last partition of the same or higher priority: FIFO within a priority.
  auto it = queue->end();
  while (it != queue->begin() && std::prev(it)->job->priority < task.job->priority) --it;
  queue->insert(it, std::move(task));
  ++size_;
  return device;
}

bool GpuQueue::has_work_for(uint32_t device) const {
  if (mode_ == QueueMode::per_device) return !queues_[device].empty();
  for (const Task& t : queues_.front()) {
    if (may_run(t, device)) return true;
  }
  return false;
}

std::optional<Task> GpuQueue::pop_for(uint32_t device) {
  std::deque<Task>& queue = queues_[mode_ == QueueMode::per_device ? device : 0];
  for (auto it = queue.begin(); it != queue.end(); ++it) {
    if (may_run(*it, device)) {
      Task task = std::move(*it);
      queue.erase(it);
      --size_;
      return task;
    }
  }
  return std::nullopt;
}

std::vector<Task> GpuQueue::remove_job(uint64_t job_id) {
  std::vector<Task> out;
  for (std::deque<Task>& queue : queues_) {
    for (auto it = queue.begin(); it != queue.end();) {
      if (it->job->id == job_id) {
        out.push_back(std::move(*it));
        it = queue.erase(it);
        --size_;
      } else {
        ++it;
      }
    }
  }
  return out;
}

}  // namespace zkp::host
