// The discrete-event pipeline the pacers are judged in: a virtual nanosecond clock, the
// host's FIFO of pending partitions, the memory budget, synthesis, the GPU queue and the
// GPU workers of every device. It drives a pacer exactly as the host will, through the
// zkp.pacer/1 C ABI: every event with a snapshot of the pipeline after it, and
// next_admission_ns only while a partition is pending and the budget could grant it.
//
// The model (PACING.md's seed scenario, generalized):
//  - admission reserves the partition's bytes; GPU done releases them;
//  - synthesis starts at admission on a free synthesis thread (FIFO when all are busy;
//    unlimited threads when the scenario says 0: then the budget limits concurrency);
//  - a synthesized partition waits in one GPU queue; a free worker takes it at once, on
//    the least busy device;
//  - GPU work progresses at rate 1 on a device where it runs alone and at
//    gpu_alone/gpu_busy while another worker of that device is busy, divided by any
//    slowdown factor in force: contention and throttling change the speed of work already
//    running, not only of work that starts later;
//  - a device runs at its scenario speed (GPU time / speed), and a lost device finishes
//    the work it has and takes no more (device.N.lost_at_s); the pacer is not told;
//  - pinned buffers: a partition takes a buffer from its class's pool at admission or
//    allocates one; an allocation less than the stall window after another marks both
//    partitions, whose GPU work is then x pinned_stall_factor (applied if the mark comes
//    before the partition starts on the GPU).
#pragma once

#include "scenario.hpp"
#include "workload.hpp"

#include <zkpipe/zkp_pacer.h>
#include <zkpipe/sdk/error.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace zkp::pacing_sim {

// How to make the pacer of one run.
struct PacerSpec {
  std::string label;                         // as reported ("pi", "greedy", ...)
  const zkp_pacer_factory_t* factory = nullptr;
  std::vector<std::pair<std::string, std::string>> options;
  std::shared_ptr<const void> keepalive;     // e.g. the PluginLibrary the factory lives in
};

inline constexpr uint64_t kNever = UINT64_MAX;

struct PartitionRecord {
  uint64_t submit_ns = 0;
  uint64_t admit_ns = kNever;
  uint64_t synthesis_done_ns = kNever;
  uint64_t gpu_start_ns = kNever;
  uint64_t gpu_done_ns = kNever;
  int32_t device = -1;
  bool pinned_stall = false;  // its GPU work was multiplied by the stall factor
};

// The pipeline from one instant until the next sample (a step function).
struct StateSample {
  uint64_t t_ns = 0;
  uint32_t pending = 0;
  uint32_t synthesizing = 0;
  uint32_t waiting = 0;
  uint32_t proving = 0;
  uint64_t budget_used = 0;
  // A partition is pending, the budget could grant it and a synthesis thread is free:
  // admitting now would start work.
  bool admissible = false;
  uint32_t idle_devices = 0;  // devices with no busy worker (a lost device is not idle: it is gone)
};

struct RunTrace {
  std::string pacer;
  std::vector<PartitionRecord> partitions;  // in workload order
  std::vector<StateSample> samples;
  std::vector<uint64_t> admissions_ns;
  std::vector<std::string> log;             // the pacer's log lines, with virtual time
  uint64_t end_ns = 0;                      // the last event
  uint64_t asks = 0;                        // next_admission_ns calls
  uint64_t pinned_allocations = 0;
  uint64_t peak_budget_used = 0;            // at any instant, even one a sample overwrote
  bool timed_out = false;                   // stopped at max_time_s
  std::string final_status;                 // the pacer's status line at the end
};

// Runs one pacer through the scenario. Throws std::runtime_error if the pacer cannot be
// created (the message is the factory's).
RunTrace simulate(const Scenario& scenario, const Workload& workload, const PacerSpec& pacer);

}  // namespace zkp::pacing_sim
