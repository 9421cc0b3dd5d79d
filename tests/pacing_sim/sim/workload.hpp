// The work a scenario submits: every partition with its arrival time, class and synthesis
// time, drawn once from the scenario's seed. Every pacer runs against the same workload
// (common random numbers), so a difference between pacers is the pacers' doing.
#pragma once

#include "scenario.hpp"

#include <cstdint>
#include <vector>

namespace zkp::pacing_sim {

struct WorkPartition {
  uint32_t job = 0;
  uint32_t index = 0;  // within the job
  uint32_t class_index = 0;
  uint64_t bytes = 0;
  uint64_t submit_ns = 0;
  uint64_t synthesis_ns = 0;
};

struct Workload {
  // In submission order (by time, then job, then index): the host's FIFO order.
  std::vector<WorkPartition> partitions;
  uint32_t jobs = 0;
  uint64_t last_arrival_ns = 0;
};

Workload make_workload(const Scenario& scenario);

}  // namespace zkp::pacing_sim
