// The figures a pacer is judged by (PACING.md, "Figures a pacer is judged by"), computed
// from one run's trace. Definitions, in the terms of engine.hpp:
//
//  busy period   a maximal time during which something is pending or in flight; it
//                starts "after a drain" when work arrives at an empty pipeline.
//  steady state  the times inside a busy period, at least steady_warmup_s after it
//                started, when a partition is pending (the pipeline is backlogged, so
//                the bottleneck could be saturated).
//  throughput    GPU completions during steady state / the integral of capacity(t) over
//                it (capacity.hpp; slowdowns lower capacity while they last).
//  latency       admission -> GPU done (the pipeline latency the pacer controls), and
//                submission -> GPU done (what a caller sees, backlog included).
//  queue depth   GPU queue length (`waiting`), time-weighted over steady state; max over
//                the run.
//  jitter        standard deviation of the GPU-busy fraction (busy worker-time / (workers x
//                10 s)) over the 10 s windows wholly inside steady state, in percentage
//                points.
//  time to steady state / to recover after a drain
//                from the start of the first / of each later busy period to the start of
//                the first recovery_window_s window whose completions reach
//                recovery_fraction of the capacity integral over it.
//  collapse      a device with no busy worker while admissible work exists (pending, the
//                budget grants it, a synthesis thread is free), lasting longer than
//                collapse_gpu_intervals x E[gpu_alone]; time in the first
//                longest-synthesis seconds of admissibility is excused (pipeline fill).
#pragma once

#include "capacity.hpp"
#include "engine.hpp"
#include "scenario.hpp"
#include "workload.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace zkp::pacing_sim {

struct Figures {
  std::string pacer;
  uint64_t submitted = 0;
  uint64_t admitted = 0;
  uint64_t completed = 0;
  double makespan_s = 0.0;

  Capacity nominal;
  double steady_s = 0.0;            // length of steady state
  double steady_completions = 0.0;
  double steady_fraction = 0.0;     // NaN when there is no steady state
  std::vector<double> steady_fraction_by_period;  // the same, per busy period (NaN: none)

  double latency_p50_s = 0.0;       // admission -> GPU done
  double latency_p99_s = 0.0;
  double e2e_p50_s = 0.0;           // submission -> GPU done
  double e2e_p99_s = 0.0;

  double queue_mean = 0.0;          // steady state; NaN without one
  double queue_max = 0.0;

  double peak_memory_gib = 0.0;
  double budget_gib = 0.0;

  double gpu_busy_mean = 0.0;       // steady state, fraction
  double jitter_pp = 0.0;           // NaN with fewer than two windows

  double time_to_steady_s = 0.0;    // NaN: never
  std::vector<double> recover_s;    // one per busy period after a drain; NaN: never

  uint32_t collapses = 0;
  double collapse_s = 0.0;
  double longest_starved_s = 0.0;   // longest device-idle-while-admissible stretch (excused fill excluded)

  uint64_t pinned_allocations = 0;
  uint64_t pinned_stalls = 0;
  uint64_t asks = 0;
  bool timed_out = false;
};

Figures compute_figures(const Scenario& s, const Workload& w, const RunTrace& trace);

// The GPU-busy jitter (as in Figures) over the 10 s windows of [from_s, to_s).
double gpu_busy_jitter_pp(const Scenario& s, const RunTrace& trace, double from_s, double to_s);

// The invariants every run must keep; each violated one is a line of the result.
std::vector<std::string> check_invariants(const Scenario& s, const Figures& f);

// Nearest-rank percentile (p in [0, 1]) of unsorted values; NaN when empty.
double percentile(std::vector<double> values, double p);

}  // namespace zkp::pacing_sim
