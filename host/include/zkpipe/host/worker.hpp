// One GPU worker: a thread bound to one device (gpu_index) and one worker slot on it.
// It takes a synthesized partition, calls prove_start(gpu_index = its device, worker)
// and prove_finish, frees the synthesis, runs the self-check, and hands the record back
// to the pipeline. It measures nothing itself: gpu_duration_ns is the prover's own
// measurement (PACING.md, failures 1 and 2: time between completions is not GPU time).
//
// Self-check: when enabled and the prover can verify (ZKP_PROVER_FLAG_VERIFY), every
// proof is verified before delivery; an invalid proof becomes a failed partition
// (ZKP_ERR_INTERNAL, "self-check failed"), never a delivered proof. A prover that
// reports a different device than the one asked for fails the partition too
// (PACING.md, failure 8).
#pragma once

#include <zkpipe/host/completion.hpp>
#include <zkpipe/host/job.hpp>

#include <cstdint>
#include <thread>

namespace zkp::host {

class Pipeline;
class Prover;

class Worker {
 public:
  Worker(Pipeline& pipeline, Prover& prover, uint32_t device, uint32_t index, bool self_check);  // starts
  ~Worker();  // joins; the pipeline must be stopping
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

 private:
  void run();
  // Proves `task` on this worker's device and frees its synthesis after prove_finish;
  // `device_finished` tells whether the device completed its work (ZKP_OK).
  Completion prove(Task& task, bool& device_finished);
  void self_check(const Task& task, Completion& record) const;

  Pipeline& pipeline_;
  Prover& prover_;
  const uint32_t device_;
  const uint32_t index_;
  const bool self_check_;
  std::thread thread_;  // last: started once everything above is set
};

}  // namespace zkp::host
