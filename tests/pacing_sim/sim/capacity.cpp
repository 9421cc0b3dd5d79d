#include "capacity.hpp"

#include <algorithm>
#include <limits>

namespace zkp::pacing_sim {

double Capacity::per_s() const { return std::min({gpu_per_s, threads_per_s, budget_per_s}); }

std::string Capacity::bottleneck() const {
  const double c = per_s();
  if (c == gpu_per_s) return "GPU";
  if (c == threads_per_s) return "synthesis threads";
  return "memory budget (synthesis)";
}

std::vector<double> slowdowns_at(const Scenario& s, double t_s) {
  std::vector<double> f(s.devices, 1.0);
  for (const auto& d : s.slowdowns) {
    if (t_s < d.start_s || t_s >= d.end_s) continue;
    for (uint32_t i = 0; i < s.devices; ++i) {
      if (d.device < 0 || static_cast<uint32_t>(d.device) == i) f[i] *= d.factor;
    }
  }
  return f;
}

Capacity capacity(const Scenario& s, const Workload& w, const std::vector<double>& device_slowdown) {
  double alone = 0.0, busy = 0.0, synth = 0.0, bytes_synth = 0.0, bytes_alone = 0.0;
  for (const auto& p : w.partitions) {
    const PartitionClass& c = s.classes[p.class_index];
    const double synth_s = static_cast<double>(p.synthesis_ns) / kNsPerS;
    alone += c.gpu_alone_ms / kMsPerS;
    busy += c.gpu_busy_ms / kMsPerS;
    synth += synth_s;
    bytes_synth += static_cast<double>(p.bytes) * synth_s;
    bytes_alone += static_cast<double>(p.bytes) * c.gpu_alone_ms / kMsPerS;
  }
  const double n = std::max<double>(1.0, static_cast<double>(w.partitions.size()));
  alone /= n;
  busy /= n;
  synth /= n;
  double mean_slowdown = 0.0;
  Capacity cap;
  for (double f : device_slowdown) {
    cap.gpu_per_s += s.workers_per_device >= 2 ? s.workers_per_device / (busy * f) : 1.0 / (alone * f);
    mean_slowdown += f / static_cast<double>(device_slowdown.size());
  }
  cap.threads_per_s = s.synthesis_threads == 0 ? std::numeric_limits<double>::infinity()
                                                : s.synthesis_threads / synth;
  const double budget_bytes = s.budget_gib * kBytesPerGiB;
  cap.budget_per_s = budget_bytes / ((bytes_synth + bytes_alone * mean_slowdown) / n);
  return cap;
}

Capacity nominal_capacity(const Scenario& s, const Workload& w) {
  return capacity(s, w, std::vector<double>(s.devices, 1.0));
}

std::vector<double> capacity_per_second(const Scenario& s, const Workload& w, size_t seconds) {
  std::vector<double> out(seconds + 1);
  const double nominal = nominal_capacity(s, w).per_s();
  for (size_t t = 0; t <= seconds; ++t) {
    const auto f = slowdowns_at(s, static_cast<double>(t));
    const bool slowed = std::any_of(f.begin(), f.end(), [](double x) { return x != 1.0; });
    out[t] = slowed ? capacity(s, w, f).per_s() : nominal;
  }
  return out;
}

}  // namespace zkp::pacing_sim
