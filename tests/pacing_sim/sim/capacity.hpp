// The bottleneck's capacity: the most partitions per second any pacer could complete.
//
//   GPU:     sum over devices of workers / E[gpu_busy] (every worker busy, so each runs at
//            its contended speed; a one-worker device: 1 / E[gpu_alone]), x speed /
//            slowdown; a lost device adds nothing from its loss on;
//   threads: synthesis_threads / E[synthesis] (unbounded when the scenario gives none);
//   budget:  budget / E[bytes x (synthesis + gpu_alone x slowdown)] -- Little's law on the
//            bytes held from admission to GPU done, with no time in the GPU queue;
//   capacity = min(GPU, threads, budget).
// Expectations are over the scenario's actual partitions. Each term is an upper bound
// (no queueing, no pinned stalls), so a pacer's fraction of it is conservative.
#pragma once

#include "scenario.hpp"
#include "workload.hpp"

#include <string>
#include <vector>

namespace zkp::pacing_sim {

struct Capacity {
  double gpu_per_s = 0.0;
  double threads_per_s = 0.0;  // infinity when synthesis threads are unlimited
  double budget_per_s = 0.0;
  double per_s() const;
  std::string bottleneck() const;  // "GPU", "synthesis threads" or "memory budget (synthesis)"
};

// Slowdown factor of each device at time t: its slowdowns / its speed; infinity once lost.
std::vector<double> slowdowns_at(const Scenario& s, double t_s);

Capacity capacity(const Scenario& s, const Workload& w, const std::vector<double>& device_slowdown);
Capacity nominal_capacity(const Scenario& s, const Workload& w);

// capacity(t).per_s() for each whole second from 0 to `seconds`, for window integrals.
std::vector<double> capacity_per_second(const Scenario& s, const Workload& w, size_t seconds);

}  // namespace zkp::pacing_sim
