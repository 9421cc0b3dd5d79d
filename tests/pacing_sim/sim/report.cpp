#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace zkp::pacing_sim {

namespace {

constexpr double kPercent = 100.0;

std::string fmt(const char* f, double a) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

using Row = std::pair<std::string, std::vector<std::string>>;

std::string pair_of(double a, double b, int decimals) {
  return format_value(a, decimals) + " / " + format_value(b, decimals);
}

}  // namespace

std::string format_value(double v, int decimals) {
  if (std::isnan(v)) return "n/a";
  if (std::isinf(v)) return "never";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string format_report(const Scenario& s, const std::vector<Figures>& figures, bool markdown) {
  std::ostringstream out;
  if (figures.empty()) return {};
  const Capacity& c = figures.front().nominal;
  out << (markdown ? "### " : "== ") << s.name << (markdown ? "\n\n" : "\n");
  if (!s.description.empty()) out << s.description << (markdown ? "\n\n" : "\n");
  out << "capacity " << fmt("%.3f", c.per_s()) << " partitions/s, bottleneck: " << c.bottleneck() << " (GPU "
      << fmt("%.3f", c.gpu_per_s) << "/s, synthesis threads "
      << (std::isinf(c.threads_per_s) ? std::string("unlimited") : fmt("%.3f", c.threads_per_s) + "/s")
      << ", memory budget " << fmt("%.3f", c.budget_per_s) << "/s)" << (markdown ? "\n\n" : "\n");

  std::vector<Row> rows;
  auto add = [&](const std::string& name, auto cell) {
    Row r{name, {}};
    for (const auto& f : figures) r.second.push_back(cell(f));
    rows.push_back(std::move(r));
  };
  add("completed / submitted", [](const Figures& f) {
    return std::to_string(f.completed) + " / " + std::to_string(f.submitted);
  });
  add("steady throughput, % of capacity", [](const Figures& f) {
    return format_value(f.steady_fraction * kPercent, 1) + " (" + format_value(f.steady_s, 0) + " s)";
  });
  add("  by busy period, %", [](const Figures& f) {
    std::string cell;
    for (double x : f.steady_fraction_by_period) cell += (cell.empty() ? "" : ", ") + format_value(x * kPercent, 1);
    return cell.empty() ? std::string("n/a") : cell;
  });
  add("latency p50 / p99, admission->proof (s)", [](const Figures& f) {
    return pair_of(f.latency_p50_s, f.latency_p99_s, 1);
  });
  add("latency p50 / p99, submission->proof (s)", [](const Figures& f) {
    return pair_of(f.e2e_p50_s, f.e2e_p99_s, 1);
  });
  add("GPU queue depth, steady mean / max", [](const Figures& f) { return pair_of(f.queue_mean, f.queue_max, 1); });
  add("peak memory / budget (GiB)", [](const Figures& f) { return pair_of(f.peak_memory_gib, f.budget_gib, 0); });
  add("GPU busy, steady mean %", [](const Figures& f) { return format_value(f.gpu_busy_mean * kPercent, 1); });
  add("GPU-busy jitter, 10 s windows (pp)", [](const Figures& f) { return format_value(f.jitter_pp, 1); });
  add("time to steady state (s)", [](const Figures& f) { return format_value(f.time_to_steady_s, 0); });
  add("recovery after each drain (s)", [](const Figures& f) {
    if (f.recover_s.empty()) return std::string("n/a");
    std::string cell;
    for (double r : f.recover_s) cell += (cell.empty() ? "" : ", ") + format_value(r, 0);
    return cell;
  });
  add("collapses (total s)", [](const Figures& f) {
    return std::to_string(f.collapses) + " (" + format_value(f.collapse_s, 0) + ")";
  });
  add("longest GPU starvation (s)", [](const Figures& f) { return format_value(f.longest_starved_s, 1); });
  add("pinned allocations / x-stalled", [](const Figures& f) {
    return std::to_string(f.pinned_allocations) + " / " + std::to_string(f.pinned_stalls);
  });
  add("makespan (s)", [](const Figures& f) { return format_value(f.makespan_s, 0); });

  if (markdown) {
    out << "| figure |";
    for (const auto& f : figures) out << " " << f.pacer << " |";
    out << "\n|---|";
    for (size_t i = 0; i < figures.size(); ++i) out << "---|";
    out << "\n";
    for (const auto& [name, cells] : rows) {
      out << "| " << name << " |";
      for (const auto& cell : cells) out << " " << cell << " |";
      out << "\n";
    }
    return out.str();
  }
  size_t name_w = 0;
  std::vector<size_t> col_w(figures.size(), 0);
  for (size_t i = 0; i < figures.size(); ++i) col_w[i] = figures[i].pacer.size();
  for (const auto& [name, cells] : rows) {
    name_w = std::max(name_w, name.size());
    for (size_t i = 0; i < cells.size(); ++i) col_w[i] = std::max(col_w[i], cells[i].size());
  }
  auto pad = [](const std::string& t, size_t w) { return t + std::string(w > t.size() ? w - t.size() : 0, ' '); };
  out << pad("", name_w);
  for (size_t i = 0; i < figures.size(); ++i) out << "  " << pad(figures[i].pacer, col_w[i]);
  out << "\n";
  for (const auto& [name, cells] : rows) {
    out << pad(name, name_w);
    for (size_t i = 0; i < cells.size(); ++i) out << "  " << pad(cells[i], col_w[i]);
    out << "\n";
  }
  return out.str();
}

}  // namespace zkp::pacing_sim
