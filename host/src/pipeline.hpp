// The proving pipeline (ARCHITECTURE.md, "the data path"):
//
//   submit → Scheduler (priority, then FIFO)
//     → admission thread: the pacer says "now" AND the MemoryBudget grants the bytes
//     → SynthesisPool (prover->synthesize; caller-synthesized input skips it)
//     → GpuQueue (per device, or shared)
//     → Workers: W per device (prove_start / prove_finish / self-check; a worker may start
//       its next partition before finishing one: worker.hpp, "Overlap")
//     → CompletionDispatcher (callbacks on the completion thread)
//
// Threads: one admission thread, `synthesis_threads` synthesis threads, devices × W
// worker threads, the partition watchdog's thread (when watchdog_floor_ms is set), and the
// dispatcher's completion thread. Callers' threads submit, cancel and read stats.
//
// Locking. One mutex, the scheduler lock `mu_`, guards every piece of pipeline state
// (scheduler, synthesis queue, GPU queue, budget, counts, jobs) and serializes every
// pacer call, so the pacer sees consistent snapshots and needs no lock of its own. It
// is never held while a prover runs (synthesize, prove_*, verify, synthesis_free) or a
// callback runs. Lock order: Host::shutdown_mu_ → mu_ → CompletionDispatcher::mu_
// (a leaf); the plugin registry lock is only taken at load and unload, outside these.
//
// Pacer events, one stream per partition: ADMITTED → SYNTHESIS_DONE → GPU_START →
// GPU_DONE, or FAILED at whichever stage it failed or was cancelled; a partition retried
// after a device error goes GPU_START → REQUEUED → GPU_START (on another device). GPU_DONE means the
// device finished its work (prove_finish succeeded) even if the self-check then rejects
// the proof: the pacer steers the flow, not the validity of proofs. Every event and
// every submission wakes the admission thread, which asks the pacer again only when a
// partition is pending and the budget could grant it.
//
// Cancel: pending partitions complete with ZKP_ERR_CANCELLED at once; admitted ones not
// yet synthesized, and synthesized ones in the GPU queue, are dropped (and their budget
// released) before they reach a device; one being synthesized is dropped when its
// synthesis returns; those on a device finish (including one a worker already started
// behind the op it is finishing).
#pragma once

#include "admission_watchdog.hpp"
#include "completion_dispatcher.hpp"
#include <zkpipe/host/config.hpp>
#include "gpu_queue.hpp"
#include "job.hpp"
#include "memory_budget.hpp"
#include "pacer.hpp"
#include "partition_watchdog.hpp"
#include "prover.hpp"
#include "scheduler.hpp"
#include "status.hpp"

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace zkp::host {

class SynthesisPool;
class Worker;

// What the pipeline takes from the configuration; from() is the one place it is
// copied, and the defaults are Config's (config_table.hpp), not repeated here.
struct PipelineSettings {
  uint32_t devices{};  // the prover's
  uint32_t workers_per_device{};
  uint32_t synthesis_threads{};
  uint64_t budget_bytes{};
  QueueMode queue{};
  bool self_check{};
  bool worker_overlap{};
  uint32_t device_retries{};
  uint32_t status_every{};  // admissions between pacer status lines; 0: never
  uint64_t admission_watchdog_ns{};  // the watchdog's shortest stall; 0: off
  uint64_t watchdog_floor_ns{};  // the partition watchdog's floor; 0: off

  static PipelineSettings from(const Config& config, uint32_t devices);
};

// Gauges and counters, read together under the scheduler lock.
struct PipelineCounts {
  uint64_t jobs_submitted = 0;
  uint32_t pending = 0;
  uint32_t synthesizing = 0;
  uint32_t waiting = 0;
  uint32_t proving = 0;
  uint64_t budget_total = 0;
  uint64_t budget_used = 0;
  uint64_t budget_peak = 0;
  uint64_t admission_stalls = 0;  // stalls the admission watchdog reported
  uint64_t admission_interval_ns = 0;  // between the last two admissions
  uint32_t devices_quarantined = 0;    // after device errors, now
};

class Pipeline {
 public:
  // The prover, pacer and dispatcher must outlive the pipeline.
  Pipeline(const PipelineSettings& settings, Prover& prover, Pacer& pacer,
           CompletionDispatcher& dispatcher);
  ~Pipeline();  // stop()
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  const PipelineSettings& settings() const { return settings_; }

  // Starts every thread.
  void start();

  // Queues every partition of `job` (validated by the caller; id and in_pipeline are
  // set here) and registers its callbacks. Returns the new job id (never 0). Throws
  // zkp::sdk::Error(ZKP_ERR_CANCELLED) once close() was called.
  uint64_t submit(std::shared_ptr<Job> job, JobCallbacks callbacks);

  // Cancels job `job_id` (see above). Throws ZKP_ERR_NOT_FOUND for an unknown job or one
  // whose partitions have all completed.
  void cancel(uint64_t job_id);

  // Refuses every later submit (ZKP_ERR_CANCELLED).
  void close();
  // Cancels every job in the pipeline.
  void cancel_all();
  // Ends every thread. Call once every job has finished (after close() and a wait).
  void stop();

  PipelineCounts counts() const;
  // Partitions of jobs that use key `key_id` and have not completed yet.
  uint64_t partitions_in_flight(uint64_t key_id) const;
  std::string pacer_status();

  // -- For the stages' threads (synthesis_pool.cpp, worker.cpp) -------------------------

  // The next admitted partition to synthesize; blocks; nullopt once stopping.
  std::optional<Task> next_synthesis();
  // Its synthesis returned `status` after `synthesis_ns`.
  void synthesis_done(Task task, Status status, uint64_t synthesis_ns);

  // The next partition for worker `worker` of `device`; blocks; nullopt once stopping.
  // Taking it is its GPU_START, and it counts as proving from then on.
  std::optional<Task> next_proof(uint32_t device, uint32_t worker);
  // The same without blocking, for a worker that holds a started op (worker_overlap):
  // the next partition if one is queued for `device` and no worker waiting in
  // next_proof could take queued work instead (an idle worker starts it sooner than one
  // whose device stream is busy); else nullopt, also once stopping.
  std::optional<Task> try_next_proof(uint32_t device, uint32_t worker);
  // The partition failed on the worker's device (`record`, before its synthesis is
  // freed). A device error (ZKP_ERR_DEVICE or ZKP_ERR_DEVICE_LOST) quarantines the device
  // (gpu_queue.hpp), unless its device process was restarted since the partition started
  // there (isolation = process: the failure was the old process's). Under thread isolation
  // ZKP_ERR_DEVICE_LOST is logged as an error: the device stays quarantined until the host
  // restarts. Under process isolation the device process exits on it and, once restarted,
  // the device returns to service (device_back). If the error is a
  // device error or out of memory, the job is unpinned, not cancelled, and
  // device_retries allows, the task goes back to the GPU queue for a device it has not
  // failed on (a REQUEUED event) and this returns true: the worker must not touch it
  // again. Otherwise false: the worker frees the synthesis and calls proof_done.
  bool retry_elsewhere(Task& task, const Completion& record);
  // Whether the attempt of `task` a worker is about to start is its last, whatever happens:
  // retry_elsewhere could not retry it (one device, a pinned job, device_retries used up;
  // isolation = process, whose restarted devices take retries, is never sure). The worker then
  // hands the synthesis over with ZKP_PROVE_INPUT_FINAL, so the prover works in its memory
  // instead of copying it (two domain vectors at the cpu prover's H step).
  bool last_attempt(const Task& task) const;
  // The partition watchdog (partition_watchdog.hpp): a worker calls device_op_started
  // just before prove_start and device_op_ended once its prove_finish (or a failed
  // prove_start) returned. While on the device, a partition that reaches its threshold is
  // declared hung by the watchdog thread: the log says so and its device is quarantined
  // (gpu_queue.hpp). device_op_ended returns whether it was: the worker then fails the
  // partition with ZKP_ERR_DEVICE, whatever the prover returned, and offers it to
  // retry_elsewhere.
  uint64_t device_op_started(const Task& task, uint32_t device);
  bool device_op_ended(uint64_t id);
  // The worker is done with it (its synthesis freed). `device_finished`: prove_finish
  // succeeded (GPU_DONE), else the partition failed on the device (FAILED).
  void proof_done(Task task, Completion record, bool device_finished);

 private:
  void admission_loop();
  void watchdog_loop();
  void admit_locked();
  // The pacer said "not now" while the pipeline is admissible: tells the watchdog, and
  // logs the warning when it reports a stall.
  void watch_admission_locked(uint64_t now);
  // Isolation = process, on the device's keeper thread: its process was restarted and serves
  // again, so the device leaves quarantine (and takes unpinned partitions again).
  void device_back(uint32_t device);
  // Pops the next partition for `device` (there is one) and emits its GPU_START.
  Task take_proof_locked(uint32_t device, uint32_t worker);
  // A worker blocked in next_proof could take queued work: one of `device` (per-device
  // queues), or of any device that has work it may run (shared queue).
  bool idle_worker_has_work_locked(uint32_t device) const;
  // Into the GPU queue after synthesis (a SYNTHESIS_DONE event).
  void enqueue_gpu_locked(Task task);
  // Into the GPU queue, waking the workers that may take it; no event.
  void push_gpu_locked(Task task);
  void complete_locked(Task& task, Completion record);
  void fail_locked(Task& task, zkp_status_t status, std::string message);
  // Completes the pacer event with a snapshot of the state after it, tells the pacer,
  // and wakes the admission thread.
  void emit_locked(zkp_pacer_event_t event);
  zkp_pipeline_state_t snapshot_locked() const;
  void wake_locked();
  // Frees the syntheses of tasks dropped from the GPU queue outside the lock, then
  // completes them as cancelled.
  void drop_queued(std::vector<Task> dropped);
  std::vector<Task> cancel_locked(Job& job);

  const PipelineSettings settings_;
  Prover& prover_;
  Pacer& pacer_;
  CompletionDispatcher& dispatcher_;

  mutable std::mutex mu_;  // the scheduler lock
  std::condition_variable admission_cv_;
  std::condition_variable synthesis_cv_;
  std::vector<std::condition_variable> device_cv_;  // one per device

  // Guarded by mu_.
  Scheduler scheduler_;
  std::deque<Task> synthesis_queue_;  // admitted, waiting for a synthesis thread
  GpuQueue gpu_queue_;
  MemoryBudget budget_;
  std::map<uint64_t, std::shared_ptr<Job>> jobs_;  // jobs with partitions in the pipeline
  std::vector<uint32_t> proving_on_;               // partitions on each device's workers
  std::vector<uint32_t> idle_on_;                  // each device's workers waiting in next_proof
  std::vector<uint64_t> device_epoch_;             // restarts of each device's process seen
  uint32_t synthesizing_ = 0;                      // admitted, synthesis not done
  uint32_t proving_ = 0;
  uint64_t next_job_id_ = 1;
  uint64_t jobs_submitted_ = 0;
  uint64_t admissions_ = 0;
  AdmissionWatchdog watchdog_;
  PartitionWatchdog partition_watchdog_;
  std::condition_variable partition_watchdog_cv_;  // a partition went onto a device, or stopping
  uint64_t wake_seq_ = 0;  // bumped by every event and submission
  bool closed_ = false;
  bool stopping_ = false;

  std::thread admission_thread_;
  std::thread watchdog_thread_;  // only when the partition watchdog is on
  std::unique_ptr<SynthesisPool> synthesis_pool_;
  std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace zkp::host
