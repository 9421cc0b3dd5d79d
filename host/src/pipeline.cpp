#include "pipeline.hpp"

#include <zkpipe/host/clock.hpp>
#include "invariant.hpp"
#include <zkpipe/host/logging.hpp>
#include "status.hpp"
#include "synthesis_pool.hpp"
#include "worker.hpp"
#include <zkpipe/sdk/error.hpp>

#include <algorithm>
#include <chrono>

namespace zkp::host {

using sdk::Error;

namespace {

// A pacer may ask to be called again in up to UINT64_MAX - 1 ns. The admission thread
// re-asks at least this often instead, so a deadline never overflows the clock; the
// pacer just answers again.
constexpr uint64_t kLongestAdmissionWaitNs = 3600ull * 1000 * 1000 * 1000;

zkp_pacer_event_t event_of(zkp_pacer_event_kind_t kind, const Task& task) {
  zkp_pacer_event_t e{};
  e.header = ZKP_HEADER_INIT(zkp_pacer_event_t);
  e.kind = kind;
  e.job_id = task.job->id;
  e.partition = task.partition;
  e.gpu_index = -1;
  e.synthesis_ns = task.synthesis_ns;
  e.bytes = task.job->partition_bytes();
  return e;
}

std::string partition_name(const Task& task) {
  return "partition " + std::to_string(task.partition) + " of job " + std::to_string(task.job->id);
}

}  // namespace

Pipeline::Pipeline(const PipelineSettings& settings, Prover& prover, Pacer& pacer,
                   CompletionDispatcher& dispatcher)
    : settings_(settings),
      prover_(prover),
      pacer_(pacer),
      dispatcher_(dispatcher),
      device_cv_(settings.devices),
      gpu_queue_(settings.queue, settings.devices, prover.isolated()),
      budget_(settings.budget_bytes),
      proving_on_(settings.devices, 0),
      idle_on_(settings.devices, 0),
      device_epoch_(settings.devices, 0),
      watchdog_(settings.admission_watchdog_ns),
      partition_watchdog_(settings.watchdog_floor_ns) {}

Pipeline::~Pipeline() { stop(); }

void Pipeline::start() {
  synthesis_pool_ = std::make_unique<SynthesisPool>(*this, prover_, settings_.synthesis_threads);
  for (uint32_t device = 0; device < settings_.devices; ++device) {
    for (uint32_t w = 0; w < settings_.workers_per_device; ++w) {
      workers_.push_back(
          std::make_unique<Worker>(*this, prover_, device, w, settings_.self_check, settings_.worker_overlap));
    }
  }
  prover_.on_device_back([this](uint32_t device) { device_back(device); });
  admission_thread_ = std::thread([this] { admission_loop(); });
  if (partition_watchdog_.enabled()) watchdog_thread_ = std::thread([this] { watchdog_loop(); });
}

uint64_t Pipeline::submit(std::shared_ptr<Job> job, JobCallbacks callbacks) {
  std::lock_guard lock(mu_);
  if (closed_) throw Error(ZKP_ERR_CANCELLED, "the host is shut down: it accepts no new jobs");
  job->id = next_job_id_++;
  job->in_pipeline = static_cast<uint32_t>(job->partitions.size());
  callbacks.partitions = job->in_pipeline;
  callbacks.submit_ns = job->submit_ns;
  dispatcher_.add_job(job->id, callbacks);
  jobs_.emplace(job->id, job);
  for (uint32_t p = 0; p < job->in_pipeline; ++p) {
    Task task;
    task.job = job;
    task.partition = p;
    scheduler_.push(std::move(task));
  }
  ++jobs_submitted_;
  wake_locked();
  return job->id;
}

void Pipeline::cancel(uint64_t job_id) {
  std::vector<Task> dropped;
  {
    std::lock_guard lock(mu_);
    auto it = jobs_.find(job_id);
    if (it == jobs_.end()) {
      throw Error(ZKP_ERR_NOT_FOUND, "job " + std::to_string(job_id) + " is unknown or has already finished");
    }
    const std::shared_ptr<Job> job = it->second;  // cancel_locked may erase the entry
    dropped = cancel_locked(*job);
  }
  drop_queued(std::move(dropped));
}

uint64_t Pipeline::partitions_in_flight(uint64_t key_id) const {
  std::lock_guard lock(mu_);
  uint64_t n = 0;
  for (const auto& [id, job] : jobs_) {
    if (job->key->id == key_id) n += job->in_pipeline;
  }
  return n;
}

void Pipeline::cancel_all() {
  std::vector<Task> dropped;
  {
    std::lock_guard lock(mu_);
    std::vector<std::shared_ptr<Job>> jobs;
    for (const auto& [id, job] : jobs_) jobs.push_back(job);
    for (const auto& job : jobs) {
      for (Task& t : cancel_locked(*job)) dropped.push_back(std::move(t));
    }
  }
  drop_queued(std::move(dropped));
}

std::vector<Task> Pipeline::cancel_locked(Job& job) {
  job.cancelled = true;
  for (Task& task : scheduler_.remove_job(job.id)) {
    fail_locked(task, ZKP_ERR_CANCELLED, "job " + std::to_string(job.id) + " was cancelled before " +
                                             partition_name(task) + " was admitted");
  }
  for (auto it = synthesis_queue_.begin(); it != synthesis_queue_.end();) {
    if (it->job->id != job.id) {
      ++it;
      continue;
    }
    Task task = std::move(*it);
    it = synthesis_queue_.erase(it);
    --synthesizing_;
    budget_.release(job.partition_bytes());
    fail_locked(task, ZKP_ERR_CANCELLED, "job " + std::to_string(job.id) + " was cancelled before " +
                                             partition_name(task) + " started synthesis");
  }
  return gpu_queue_.remove_job(job.id);
}

void Pipeline::drop_queued(std::vector<Task> dropped) {
  if (dropped.empty()) return;
  // Freeing a synthesis can take a while (gigabytes of buffers): not under the lock. The
  // budget is released after, when the memory really is free.
  for (Task& task : dropped) task.synthesis.reset();
  std::lock_guard lock(mu_);
  for (Task& task : dropped) {
    budget_.release(task.job->partition_bytes());
    fail_locked(task, ZKP_ERR_CANCELLED, "job " + std::to_string(task.job->id) + " was cancelled while " +
                                             partition_name(task) + " waited for a GPU");
  }
}

void Pipeline::close() {
  std::lock_guard lock(mu_);
  closed_ = true;
}

void Pipeline::stop() {
  prover_.on_device_back({});  // first, outside mu_: waits for a call in progress, which takes mu_
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    if (!scheduler_.empty() || !synthesis_queue_.empty() || gpu_queue_.size() != 0) {
      log().warn("pipeline stopped with partitions still queued; they are dropped without completion");
    }
  }
  admission_cv_.notify_all();
  synthesis_cv_.notify_all();
  for (auto& cv : device_cv_) cv.notify_all();
  partition_watchdog_cv_.notify_all();
  if (admission_thread_.joinable()) admission_thread_.join();
  if (watchdog_thread_.joinable()) watchdog_thread_.join();
  synthesis_pool_.reset();
  workers_.clear();
}

PipelineCounts Pipeline::counts() const {
  std::lock_guard lock(mu_);
  PipelineCounts c;
  c.jobs_submitted = jobs_submitted_;
  c.pending = static_cast<uint32_t>(scheduler_.size());
  c.synthesizing = synthesizing_;
  c.waiting = static_cast<uint32_t>(gpu_queue_.size());
  c.proving = proving_;
  c.budget_total = budget_.total();
  c.budget_used = budget_.used();
  c.budget_peak = budget_.peak();
  c.admission_stalls = watchdog_.stalls();
  c.admission_interval_ns = watchdog_.last_interval_ns();
  c.devices_quarantined = gpu_queue_.quarantined();
  return c;
}

std::string Pipeline::pacer_status() {
  std::lock_guard lock(mu_);
  return pacer_.status_line();
}

// -- admission -----------------------------------------------------------------------

void Pipeline::admission_loop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    const uint64_t seen = wake_seq_;
    auto woken = [&] { return stopping_ || wake_seq_ != seen; };
    // Ask the pacer only when something is pending AND the budget could grant it.
    if (scheduler_.empty() || !budget_.can_grant(scheduler_.front().job->partition_bytes())) {
      watchdog_.not_admissible();
      admission_cv_.wait(lock, woken);
      continue;
    }
    const uint64_t delay = pacer_.next_admission_ns(snapshot_locked());
    if (delay == 0) {
      admit_locked();
      continue;
    }
    const uint64_t now = now_ns();
    watch_admission_locked(now);
    // Wake for the pacer's time, or the watchdog's, whichever comes first.
    uint64_t deadline = watchdog_.deadline_ns();
    if (delay != ZKP_PACER_WAIT_FOR_EVENT) deadline = std::min(deadline, now + std::min(delay, kLongestAdmissionWaitNs));
    if (deadline == AdmissionWatchdog::kNever) {
      admission_cv_.wait(lock, woken);
    } else {
      admission_cv_.wait_until(lock, to_time_point(deadline), woken);
    }
  }
}

void Pipeline::watch_admission_locked(uint64_t now) {
  if (!watchdog_.stalled(now)) return;
  const double ns_per_s = 1e9;
  log().warn("admission stalled: pacer {} has admitted nothing for {:.1f} s while {} partition(s) are pending and "
             "the budget could grant the next (watchdog threshold {:.1f} s: max(admission_watchdog_ms, 20 x its last "
             "interval)); pacer status: {}",
             pacer_.name(), static_cast<double>(watchdog_.stalled_for_ns(now)) / ns_per_s, scheduler_.size(),
             static_cast<double>(watchdog_.threshold_ns()) / ns_per_s, pacer_.status_line());
}

void Pipeline::admit_locked() {
  Task task = scheduler_.pop();
  budget_.reserve(task.job->partition_bytes());
  ++admissions_;
  watchdog_.admitted(now_ns());
  ++synthesizing_;
  emit_locked(event_of(ZKP_PACER_EVENT_ADMITTED, task));
  if (task.externally_synthesized()) {
    --synthesizing_;  // the caller synthesized it: straight to the GPU queue
    enqueue_gpu_locked(std::move(task));
  } else {
    synthesis_queue_.push_back(std::move(task));
    synthesis_cv_.notify_one();
  }
  if (settings_.status_every != 0 && admissions_ % settings_.status_every == 0) {
    log().info("pacer {}: {}", pacer_.name(), pacer_.status_line());
  }
}

// -- synthesis -----------------------------------------------------------------------

std::optional<Task> Pipeline::next_synthesis() {
  std::unique_lock lock(mu_);
  synthesis_cv_.wait(lock, [&] { return stopping_ || !synthesis_queue_.empty(); });
  if (stopping_) return std::nullopt;
  Task task = std::move(synthesis_queue_.front());
  synthesis_queue_.pop_front();
  return task;
}

void Pipeline::synthesis_done(Task task, Status status, uint64_t synthesis_ns) {
  task.synthesis_ns = synthesis_ns;
  std::unique_lock lock(mu_);
  const bool drop = status.ok() && task.job->cancelled;
  if (drop) {
    lock.unlock();
    task.synthesis.reset();  // not under the lock (see drop_queued)
    lock.lock();
  }
  --synthesizing_;
  if (!status.ok()) {
    budget_.release(task.job->partition_bytes());
    fail_locked(task, status.code, std::move(status.message));
  } else if (drop) {
    budget_.release(task.job->partition_bytes());
    fail_locked(task, ZKP_ERR_CANCELLED, "job " + std::to_string(task.job->id) + " was cancelled while " +
                                             partition_name(task) + " was being synthesized");
  } else {
    enqueue_gpu_locked(std::move(task));
  }
}

void Pipeline::enqueue_gpu_locked(Task task) {
  const zkp_pacer_event_t event = event_of(ZKP_PACER_EVENT_SYNTHESIS_DONE, task);
  push_gpu_locked(std::move(task));
  emit_locked(event);
}

void Pipeline::push_gpu_locked(Task task) {
  task.queued_ns = now_ns();
  const int32_t device = gpu_queue_.push(std::move(task), proving_on_);
  if (device >= 0) {
    device_cv_[static_cast<size_t>(device)].notify_one();
  } else {
    for (auto& cv : device_cv_) cv.notify_all();  // shared: any device's worker may take it
  }
}

// -- GPU workers ---------------------------------------------------------------------

std::optional<Task> Pipeline::next_proof(uint32_t device, uint32_t worker) {
  std::unique_lock lock(mu_);
  ++idle_on_[device];
  device_cv_[device].wait(lock, [&] { return stopping_ || gpu_queue_.has_work_for(device); });
  --idle_on_[device];
  if (stopping_) return std::nullopt;
  return take_proof_locked(device, worker);
}

std::optional<Task> Pipeline::try_next_proof(uint32_t device, uint32_t worker) {
  std::lock_guard lock(mu_);
  if (stopping_ || !gpu_queue_.has_work_for(device) || idle_worker_has_work_locked(device)) return std::nullopt;
  return take_proof_locked(device, worker);
}

bool Pipeline::idle_worker_has_work_locked(uint32_t device) const {
  if (gpu_queue_.mode() == QueueMode::per_device) return idle_on_[device] > 0;
  for (uint32_t d = 0; d < idle_on_.size(); ++d) {
    if (idle_on_[d] > 0 && gpu_queue_.has_work_for(d)) return true;
  }
  return false;
}

Task Pipeline::take_proof_locked(uint32_t device, uint32_t worker) {
  std::optional<Task> task = gpu_queue_.pop_for(device);
  ZKP_HOST_INVARIANT(task.has_value(), "a worker woke for work that is not there");
  task->queue_wait_ns = now_ns() - task->queued_ns;
  ++proving_;
  ++proving_on_[device];
  task->device_epoch = device_epoch_[device];
  zkp_pacer_event_t event = event_of(ZKP_PACER_EVENT_GPU_START, *task);
  event.gpu_index = static_cast<int32_t>(device);
  event.worker = worker;
  emit_locked(event);
  return std::move(*task);
}

// -- the partition watchdog -----------------------------------------------------------

uint64_t Pipeline::device_op_started(const Task& task, uint32_t device) {
  std::lock_guard lock(mu_);
  const uint64_t id = partition_watchdog_.started(device, task.job->key->id, task.job->id, task.partition, now_ns());
  partition_watchdog_cv_.notify_one();  // its deadline may be the next one
  return id;
}

bool Pipeline::device_op_ended(uint64_t id) {
  std::lock_guard lock(mu_);
  return partition_watchdog_.ended(id);
}

void Pipeline::watchdog_loop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    for (const PartitionWatchdog::Hung& h : partition_watchdog_.check(now_ns())) {
      const double ns_per_s = 1e9;
      const bool quarantined = gpu_queue_.quarantine(h.device, proving_on_);
      log().error("watchdog: partition {} of job {} has been on device {} for {:.1f} s (threshold {:.1f} s: "
                  "max(watchdog_floor_ms, 10 x its key's median gpu_duration of {:.3f} s)); it is declared hung{}. {}",
                  h.partition, h.job_id, h.device, static_cast<double>(h.on_device_ns) / ns_per_s,
                  static_cast<double>(h.threshold_ns) / ns_per_s, static_cast<double>(h.median_ns) / ns_per_s,
                  quarantined ? " and device " + std::to_string(h.device) +
                                    " is quarantined: it takes no unpinned partitions while another device is usable"
                              : "",
                  prover_.isolated()
                      ? "Its device process is killed and restarted; the partition fails with ZKP_ERR_DEVICE (and is "
                        "retried elsewhere as device_retries allows)"
                      : "A prover call on a host thread cannot be interrupted: the partition fails with ZKP_ERR_DEVICE "
                        "(and is retried elsewhere as device_retries allows) when the call returns");
      if (quarantined) {
        for (auto& cv : device_cv_) cv.notify_all();  // per-device: its queue may have moved
      }
      // Process isolation: the call returns now, failed (a signal to a process; no prover call).
      prover_.device_hung(h.device, "the partition watchdog declared partition " + std::to_string(h.partition) +
                                        " of job " + std::to_string(h.job_id) + " hung");
    }
    const uint64_t deadline = partition_watchdog_.deadline_ns();
    if (deadline == PartitionWatchdog::kNever) {
      partition_watchdog_cv_.wait(lock);
    } else {
      partition_watchdog_cv_.wait_until(lock, to_time_point(deadline));
    }
  }
}

void Pipeline::device_back(uint32_t device) {
  std::lock_guard lock(mu_);
  ++device_epoch_[device];
  if (!gpu_queue_.release(device)) return;
  log().warn("device {} is back in service after its zkpipe-device process was restarted: it takes unpinned "
             "partitions again",
             device);
  device_cv_[device].notify_all();
}

bool Pipeline::last_attempt(const Task& task) const {
  if (prover_.isolated()) return false;
  // The same conditions as retry_elsewhere's refusal, read without the lock: the job's pin and
  // the settings never change, and failed_on is the task's own, held by its worker.
  return task.job->gpu_index >= 0 || task.failed_on.size() >= settings_.device_retries || prover_.device_count() <= 1;
}

bool Pipeline::retry_elsewhere(Task& task, const Completion& record) {
  const bool device_error = device_failure(record.status);
  if (!device_error && record.status != ZKP_ERR_OUT_OF_MEMORY) return false;
  std::lock_guard lock(mu_);
  const auto device = static_cast<uint32_t>(record.gpu_index);
  // A failure from a process replaced since (device_back came first) says nothing of the new one.
  const bool current = task.device_epoch == device_epoch_[device];
  if (device_error && current && gpu_queue_.quarantine(device, proving_on_)) {
    if (record.status == ZKP_ERR_DEVICE_LOST && !prover_.isolated()) {
      log().error("device {} is lost for good in this process ({}): it is quarantined, takes no unpinned partitions "
                  "while another device is usable, and its pinned partitions fail. Restart the host to use it "
                  "again, or run isolation = process, where a new device process takes it back",
                  device, record.message);
    } else {
      log().warn("device {} reported a device error ({}); it takes no unpinned partitions while another device "
                 "is usable{}",
                 device, record.message, prover_.isolated() ? " until its device process is restarted" : "");
    }
    for (auto& cv : device_cv_) cv.notify_all();  // per-device: its queue may have moved
  }
  const Job& job = *task.job;
  // A pinned partition is retried only where its device comes back: under isolation = process,
  // whose failed device process the host replaces (the send waits for the new one).
  const bool pinned = job.gpu_index >= 0;
  if ((pinned && !prover_.isolated()) || job.cancelled || stopping_ || task.failed_on.size() >= settings_.device_retries ||
      task.synthesis_handed_over ||  // the prover may have consumed it (last_attempt)
      task.input_released) {         // the caller may have freed it (on_input_released)
    return false;
  }
  task.failed_on.push_back(device);
  if (!gpu_queue_.has_device_for(task)) {
    task.failed_on.pop_back();
    return false;
  }
  log().warn("{} failed on device {} ({}); retrying it {} ({} of {})", partition_name(task), device, record.message,
             prover_.isolated() ? "on a device whose process is up, this one once restarted" : "on another device",
             task.failed_on.size(), settings_.device_retries);
  --proving_;
  --proving_on_[device];
  zkp_pacer_event_t event = event_of(ZKP_PACER_EVENT_REQUEUED, task);
  event.gpu_index = record.gpu_index;
  event.worker = record.worker;
  push_gpu_locked(std::move(task));
  emit_locked(event);
  return true;
}

void Pipeline::proof_done(Task task, Completion record, bool device_finished) {
  ZKP_HOST_INVARIANT(!task.synthesis, "the worker must free the synthesis before proof_done");
  std::lock_guard lock(mu_);
  const auto device = static_cast<uint32_t>(record.gpu_index);
  ZKP_HOST_INVARIANT(proving_ > 0 && proving_on_[device] > 0, "proving count below zero");
  budget_.release(task.job->partition_bytes());
  --proving_;
  --proving_on_[device];
  zkp_pacer_event_t event =
      event_of(device_finished ? ZKP_PACER_EVENT_GPU_DONE : ZKP_PACER_EVENT_FAILED, task);
  event.gpu_index = record.gpu_index;
  event.worker = record.worker;
  event.gpu_duration_ns = record.gpu_duration_ns;
  emit_locked(event);
  if (device_finished) partition_watchdog_.proved(task.job->key->id, record.gpu_duration_ns);
  if (record.status != ZKP_OK && !task.failed_on.empty()) {
    std::string earlier;
    for (uint32_t d : task.failed_on) earlier += (earlier.empty() ? "" : ", ") + std::to_string(d);
    record.message += " (it had failed before on device " + earlier + ")";
  }
  complete_locked(task, std::move(record));
}

// -- shared helpers ------------------------------------------------------------------

void Pipeline::fail_locked(Task& task, zkp_status_t status, std::string message) {
  emit_locked(event_of(ZKP_PACER_EVENT_FAILED, task));
  Completion record;
  record.status = status;
  record.message = std::move(message);
  record.synthesis_ns = task.synthesis_ns;
  record.flags = prover_.simulated() ? ZKP_COMPLETION_SIMULATED : 0u;
  complete_locked(task, std::move(record));
}

void Pipeline::complete_locked(Task& task, Completion record) {
  Job& job = *task.job;
  record.job_id = job.id;
  record.partition = task.partition;
  record.curve = job.key->info.curve;
  record.total_ns = now_ns() - job.submit_ns;
  ZKP_HOST_INVARIANT(job.in_pipeline > 0, "a partition completed twice");
  if (--job.in_pipeline == 0) jobs_.erase(job.id);
  dispatcher_.post(std::move(record));
}

void Pipeline::emit_locked(zkp_pacer_event_t event) {
  event.state = snapshot_locked();
  pacer_.on_event(event);
  wake_locked();
}

zkp_pipeline_state_t Pipeline::snapshot_locked() const {
  zkp_pipeline_state_t s{};
  s.header = ZKP_HEADER_INIT(zkp_pipeline_state_t);
  s.now_ns = now_ns();
  s.pending = static_cast<uint32_t>(scheduler_.size());
  s.synthesizing = synthesizing_;
  s.waiting = static_cast<uint32_t>(gpu_queue_.size());
  s.proving = proving_;
  s.budget_used_bytes = budget_.used();
  s.budget_total_bytes = budget_.total();
  s.next_partition_bytes = scheduler_.empty() ? 0 : scheduler_.front().job->partition_bytes();
  return s;
}

void Pipeline::wake_locked() {
  ++wake_seq_;
  admission_cv_.notify_one();
}

}  // namespace zkp::host
