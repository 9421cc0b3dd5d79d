// One GPU worker: a thread bound to one device (gpu_index) and one worker slot on it.
// It takes a synthesized partition, calls prove_start(gpu_index = its device, worker)
// and prove_finish, frees the synthesis, runs the self-check, and hands the record back
// to the pipeline. It measures nothing itself: gpu_duration_ns is the prover's own
// measurement (PACING.md, failures 1 and 2: time between completions is not GPU time).
//
// Overlap (PipelineSettings::worker_overlap, zkp_prover.h): once a partition's op is
// started, the worker asks the pipeline for its next one without blocking
// (Pipeline::try_next_proof) and, if there is one, starts it before it finishes the
// first, so the first one's epilogue and self-check run while the device works on the
// second. It holds at most two ops (kOverlapOpsPerWorker), finishes them in the order
// it started them, and never blocks for new work while it holds one: with nothing
// queued, it finishes the op it holds at once. A failed prove_start of the second is
// reported (retry or completion) before the first is finished; a failed prove_finish of
// the first leaves the second in flight, to be finished next. Stopping finishes every
// op the worker holds.
//
// Self-check: a proof the prover reports as verified (ZKP_PROVE_OUTPUT_VERIFIED) is not
// verified again; it is delivered flagged ZKP_COMPLETION_SELF_CHECKED. Otherwise, when
// enabled and the prover can verify (ZKP_PROVER_FLAG_VERIFY), every proof is verified
// before delivery; an invalid proof becomes a failed partition (ZKP_ERR_UNSATISFIED_WITNESS,
// "self-check failed ..."), never a delivered proof. A prover that reports a different
// device than the one asked for fails the partition too (PACING.md, failure 8).
//
// Watchdog: each partition is on the device, for the partition watchdog, from just before
// its prove_start until its prove_finish (or a failed prove_start) returns
// (Pipeline::device_op_started/ended). One the watchdog declared hung meanwhile fails with
// ZKP_ERR_DEVICE whatever the prover returned, its proof dropped, and goes to
// retry_elsewhere like any device error.
#pragma once

#include "completion.hpp"
#include "job.hpp"

#include <cstdint>
#include <optional>
#include <thread>

namespace zkp::host {

class Pipeline;
class Prover;

// The most ops one overlapping worker holds: the one being finished and the next.
inline constexpr uint32_t kOverlapOpsPerWorker = 2;

class Worker {
 public:
  Worker(Pipeline& pipeline, Prover& prover, uint32_t device, uint32_t index, bool self_check,
         bool overlap);  // starts
  ~Worker();  // joins; the pipeline must be stopping
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

 private:
  // A partition this worker took from the pipeline.
  struct Held {
    Task task;
    zkp_prove_op_t* op = nullptr;  // owned by the prover until prove_finish; null: prove_start failed
    Completion record;             // its outcome so far
    uint64_t watch = 0;            // its id in the partition watchdog (Pipeline::device_op_started)
  };

  void run();
  // start, and a start that failed is concluded at once: then nullopt.
  std::optional<Held> begin(Task task);
  // Calls prove_start; on failure the record says why and op stays null.
  Held start(Task task);
  // Calls prove_finish, frees the synthesis when the device finished (device_finished),
  // checks what the prover wrote and runs the self-check.
  void finish(Held& held, bool& device_finished);
  // Hands the partition back: to another device (Pipeline::retry_elsewhere) or done.
  void conclude(Held held, bool device_finished);
  // A caller-synthesized partition whose caller listens for on_input_released: prove_wait, and
  // on its OK the caller is told (the partition is then never retried elsewhere).
  void release_input_early(Task& task, zkp_prove_op_t* op);
  void self_check(const Task& task, Completion& record) const;
  // It left the device: if the watchdog declared it hung meanwhile, its outcome becomes a
  // device error (and its proof is dropped). Returns whether it was.
  bool left_device(Held& held);

  Pipeline& pipeline_;
  Prover& prover_;
  const uint32_t device_;
  const uint32_t index_;
  const bool self_check_;
  const bool overlap_;
  std::thread thread_;  // last: started once everything above is set
};

}  // namespace zkp::host
