// Synthesized partitions waiting for a GPU worker (PACING.md's `waiting`: it does not
// count partitions a worker already holds). Within a queue, a higher job priority goes
// first, then arrival order.
//
//   per-device: one queue per device. A partition pinned to device d joins d's queue;
//               an unpinned one joins the least-loaded device's queue (fewest waiting +
//               proving; ties rotate) when its synthesis is done. Worker of d pops d's.
//   shared:     one queue. A worker of device d takes the first partition that is
//               unpinned or pinned to d.
//
// Device faults. An unpinned partition never goes back to a device it failed on
// (Task::failed_on), and a quarantined device (one that reported a device error) gets
// no unpinned partitions while some device is not quarantined, until it is released (with
// isolation = process, once its device process was restarted). Pinned partitions go to
// their device whatever its state: the prover reports its error for them.
//
// Not synchronized: the pipeline calls it under its scheduler lock.
#pragma once

#include <zkpipe/host/config.hpp>
#include "job.hpp"

#include <deque>
#include <optional>
#include <vector>

namespace zkp::host {

class GpuQueue {
 public:
  // `devices_recover`: a device that failed a partition may take its retry (isolation =
  // process: the failed device process is replaced by a new one, with a new context); else a
  // retry goes only to devices the partition has not failed on.
  GpuQueue(QueueMode mode, uint32_t device_count, bool devices_recover = false);

  QueueMode mode() const { return mode_; }

  // Queues `task`; `proving` holds the partitions on each device's workers now. Returns
  // the device whose queue it joined (per-device), or -1 (shared).
  int32_t push(Task task, const std::vector<uint32_t>& proving);

  bool has_work_for(uint32_t device) const;
  // The next partition a worker of `device` may run, or nullopt.
  std::optional<Task> pop_for(uint32_t device);

  // Whether some device may still take unpinned `task` (not one it failed on, unless devices recover).
  bool has_device_for(const Task& task) const;

  // Keeps unpinned partitions off `device` while another device is not quarantined; in
  // per-device mode its queued unpinned partitions move to other devices (`proving` as
  // for push). Returns false if it already was quarantined.
  bool quarantine(uint32_t device, const std::vector<uint32_t>& proving);
  bool quarantined(uint32_t device) const { return quarantined_[device]; }
  // Takes `device` out of quarantine (its device process was restarted: a new context).
  // Returns false if it was not quarantined.
  bool release(uint32_t device);

  // Removes and returns every queued partition of job `job_id`.
  std::vector<Task> remove_job(uint64_t job_id);

  size_t size() const { return size_; }
  // Devices quarantined now.
  uint32_t quarantined() const { return static_cast<uint32_t>(quarantined_count_); }

 private:
  // A worker of `device` may run `task`.
  bool may_run(const Task& task, uint32_t device) const;
  // Not quarantined, or every device is.
  bool usable(uint32_t device) const { return !quarantined_[device] || quarantined_count_ == quarantined_.size(); }
  uint32_t least_loaded(const Task& task, const std::vector<uint32_t>& proving);

  QueueMode mode_;
  bool devices_recover_;
  std::vector<std::deque<Task>> queues_;  // one per device, or one (shared)
  size_t size_ = 0;
  uint32_t tie_cursor_ = 0;  // where the next tie-break starts
  std::vector<bool> quarantined_;  // one per device
  size_t quarantined_count_ = 0;
};

}  // namespace zkp::host
