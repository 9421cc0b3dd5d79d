// A run over time, in fixed-width bins: CSV for tools, and a self-contained SVG chart
// (GPU queue depth, admission interval, GPU busy, host memory) for people.
#pragma once

#include "engine.hpp"
#include "scenario.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace zkp::pacing_sim {

struct Timeline {
  std::string pacer;
  double bin_s = 1.0;
  std::vector<double> t_s;              // bin start
  std::vector<double> pending;          // time-averaged over the bin
  std::vector<double> synthesizing;
  std::vector<double> waiting;
  std::vector<double> proving;
  std::vector<double> memory_gib;
  std::vector<double> admissions;       // in the bin
  std::vector<double> gpu_busy_10s;     // busy fraction over the 10 s ending at the bin's end
  std::vector<double> interval_10s;     // 10 s / admissions in the 10 s ending there; NaN: none
};

Timeline make_timeline(const Scenario& s, const RunTrace& trace, double bin_s, double end_s);

// A bin width giving about `points` bins over end_s, at least 1 s.
double bin_width(double end_s, double points);

void write_csv(std::ostream& out, const std::vector<Timeline>& timelines);

// `pi_target`: a reference line on the queue panel (NaN: none).
void write_svg(std::ostream& out, const Scenario& s, const std::vector<Timeline>& timelines, double pi_target);

}  // namespace zkp::pacing_sim
