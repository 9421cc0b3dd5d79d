#include "acceptance.hpp"

#include "report.hpp"

#include <cstdio>
#include <limits>
#include <sstream>

namespace zkp::pacing_sim {

namespace {

std::string ratio_text(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", (r - 1.0) * 100.0);
  return buf;
}

}  // namespace

double offered_rate(const Workload& w) {
  if (w.partitions.empty()) return 0.0;
  const uint64_t first = w.partitions.front().submit_ns;
  const double span_s = static_cast<double>(w.last_arrival_ns - first) / kNsPerS;
  return span_s > 0.0 ? static_cast<double>(w.partitions.size()) / span_s : std::numeric_limits<double>::infinity();
}

Acceptance judge(const Scenario& s, const Workload& w, const Figures& p, const Figures& g) {
  Acceptance a;
  a.scenario = s.name;
  a.pacer = p.pacer;
  a.bottleneck = p.nominal.bottleneck();
  a.offered_per_s = offered_rate(w);
  a.gpu_bound = a.bottleneck == "GPU" && a.offered_per_s >= p.nominal.gpu_per_s &&
                p.nominal.budget_per_s >= kSpareBudget * p.nominal.gpu_per_s;
  a.makespan_ratio = p.makespan_s / g.makespan_s;
  a.e2e_p99_ratio = p.e2e_p99_s / g.e2e_p99_s;
  a.collapses = p.collapses;
  a.peak_memory_ratio = p.peak_memory_gib / g.peak_memory_gib;
  a.latency_p99_ratio = p.latency_p99_s / g.latency_p99_s;
  // Written as "not (ratio <= bound)" so that a NaN (no completion at all) is a miss.
  if (!(a.makespan_ratio <= kMakespanTolerance)) a.missed.push_back("makespan " + ratio_text(a.makespan_ratio));
  if (!(a.e2e_p99_ratio <= kE2eP99Tolerance)) a.missed.push_back("p99 submission->proof " + ratio_text(a.e2e_p99_ratio));
  if (a.collapses != 0) a.missed.push_back(std::to_string(a.collapses) + " collapses");
  if (p.completed != p.submitted) a.missed.push_back("unfinished work");
  if (a.gpu_bound) {
    if (!(a.peak_memory_ratio <= kGpuBoundSaving)) a.missed.push_back("peak memory " + ratio_text(a.peak_memory_ratio));
    if (!(a.latency_p99_ratio <= kGpuBoundSaving)) {
      a.missed.push_back("p99 admission->proof " + ratio_text(a.latency_p99_ratio));
    }
  }
  return a;
}

std::string format_acceptance(const std::vector<Acceptance>& rows, bool markdown) {
  std::ostringstream out;
  const char* sep = markdown ? " | " : "  ";
  if (markdown) {
    out << "| scenario | bottleneck | pacer | makespan vs greedy | p99 submission->proof vs greedy | collapses "
           "| peak memory vs greedy | p99 admission->proof vs greedy | met? |\n"
        << "|---|---|---|---|---|---|---|---|---|\n";
  }
  for (const auto& a : rows) {
    std::string verdict = a.met() ? "yes" : "no: ";
    for (size_t i = 0; i < a.missed.size(); ++i) {
      if (i != 0) verdict += ", ";
      verdict += a.missed[i];
    }
    const std::string bound = a.gpu_bound ? a.bottleneck + " (GPU-bound)" : a.bottleneck;
    out << (markdown ? "| " : "") << a.scenario << sep << bound << sep << a.pacer << sep
        << ratio_text(a.makespan_ratio) << sep << ratio_text(a.e2e_p99_ratio) << sep << a.collapses << sep
        << ratio_text(a.peak_memory_ratio) << sep << ratio_text(a.latency_p99_ratio) << sep << verdict
        << (markdown ? " |" : "") << "\n";
  }
  return out.str();
}

}  // namespace zkp::pacing_sim
