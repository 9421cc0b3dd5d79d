// Issue 11's acceptance criteria: a pacer against greedy on one scenario. A shipped pacer
// (every one but the open-loop `fixed`) must, in every committed scenario:
//  - finish the work within 1% of greedy's makespan;
//  - keep p99 submission->proof latency no more than 5% above greedy's;
//  - never collapse (figures.hpp);
// and where the scenario is GPU-bound, hold at least 25% less peak memory and p99
// admission->proof latency than greedy (the point of pacing: greedy fills the budget).
//
// GPU-bound: the nominal bottleneck is the GPU, the work is offered at least as fast as
// the GPU can take it (partitions / the span of arrivals), so a queue must build, and the
// budget has memory to spare: it could sustain kSpareBudget x the GPU's rate (Little's
// law, capacity.hpp). Where it could not, every pacer at full throughput fills most of
// the budget (two_devices: 1.2x, mixed: 1.1x), and 25% less memory would cost throughput.
#pragma once

#include "figures.hpp"
#include "scenario.hpp"
#include "workload.hpp"

#include <string>
#include <vector>

namespace zkp::pacing_sim {

inline constexpr double kMakespanTolerance = 1.01;
inline constexpr double kE2eP99Tolerance = 1.05;
inline constexpr double kGpuBoundSaving = 0.75;  // at most this x greedy's
inline constexpr double kSpareBudget = 1.5;

struct Acceptance {
  std::string scenario;
  std::string pacer;
  std::string bottleneck;
  bool gpu_bound = false;
  double offered_per_s = 0.0;
  double makespan_ratio = 0.0;       // pacer / greedy
  double e2e_p99_ratio = 0.0;
  uint32_t collapses = 0;
  double peak_memory_ratio = 0.0;
  double latency_p99_ratio = 0.0;    // admission->proof
  std::vector<std::string> missed;   // one line per criterion not met; empty: accepted
  bool met() const { return missed.empty(); }
};

// Partitions per second over the span of arrivals (all at once: infinity).
double offered_rate(const Workload& w);

Acceptance judge(const Scenario& s, const Workload& w, const Figures& pacer, const Figures& greedy);

// One row per judged pacer and scenario, as a text or Markdown table.
std::string format_acceptance(const std::vector<Acceptance>& rows, bool markdown);

}  // namespace zkp::pacing_sim
