#include "gpu_queue.hpp"

#include <algorithm>

namespace zkp::host {

GpuQueue::GpuQueue(QueueMode mode, uint32_t device_count, bool devices_recover)
    : mode_(mode), devices_recover_(devices_recover), queues_(mode == QueueMode::shared ? 1 : device_count), quarantined_(device_count, false) {}

bool GpuQueue::may_run(const Task& task, uint32_t device) const {
  if (task.job->gpu_index >= 0) return static_cast<uint32_t>(task.job->gpu_index) == device;
  return usable(device) && (devices_recover_ ||
                            std::find(task.failed_on.begin(), task.failed_on.end(), device) == task.failed_on.end());
}

bool GpuQueue::has_device_for(const Task& task) const {
  for (uint32_t d = 0; d < quarantined_.size(); ++d) {
    if (may_run(task, d)) return true;
  }
  return false;
}

bool GpuQueue::quarantine(uint32_t device, const std::vector<uint32_t>& proving) {
  if (quarantined_[device]) return false;
  quarantined_[device] = true;
  ++quarantined_count_;
  if (mode_ == QueueMode::per_device && !usable(device)) {
    // Its unpinned partitions move to the other devices' queues.
    std::deque<Task>& queue = queues_[device];
    std::vector<Task> moved;
    for (auto it = queue.begin(); it != queue.end();) {
      if (it->job->gpu_index < 0 && has_device_for(*it)) {
        moved.push_back(std::move(*it));
        it = queue.erase(it);
        --size_;
      } else {
        ++it;
      }
    }
    for (Task& t : moved) push(std::move(t), proving);
  }
  return true;
}

bool GpuQueue::release(uint32_t device) {
  if (!quarantined_[device]) return false;
  quarantined_[device] = false;
  --quarantined_count_;
  return true;  // queued partitions stay where they are; new ones may join its queue again
}

uint32_t GpuQueue::least_loaded(const Task& task, const std::vector<uint32_t>& proving) {
  const uint32_t n = static_cast<uint32_t>(queues_.size());
  const auto load = [&](uint32_t d) { return queues_[d].size() + proving[d]; };
  std::optional<uint32_t> best;
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t d = (tie_cursor_ + k) % n;
    if (!may_run(task, d)) continue;
    if (!best || load(d) < load(*best)) best = d;
  }
  // The pipeline queues only partitions some device may run (has_device_for).
  const uint32_t chosen = best.value_or(tie_cursor_ % n);
  tie_cursor_ = (chosen + 1) % n;
  return chosen;
}

int32_t GpuQueue::push(Task task, const std::vector<uint32_t>& proving) {
  int32_t device = -1;
  std::deque<Task>* queue = &queues_.front();
  if (mode_ == QueueMode::per_device) {
    device = task.job->gpu_index >= 0 ? task.job->gpu_index : static_cast<int32_t>(least_loaded(task, proving));
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
  if (mode_ == QueueMode::per_device) {  // routed when it was pushed
    if (queue.empty()) return std::nullopt;
    Task task = std::move(queue.front());
    queue.pop_front();
    --size_;
    return task;
  }
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
