#include "capacity.hpp"

#include <algorithm>
#include <cmath>
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
  for (uint32_t i = 0; i < s.devices; ++i) {
    const DeviceSpec& d = s.device_specs.empty() ? DeviceSpec{} : s.device_specs[i];
    f[i] = t_s >= d.lost_at_s ? std::numeric_limits<double>::infinity() : 1.0 / d.speed;
  }
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
  double usable = 0.0;
  for (double f : device_slowdown) {
    if (std::isinf(f)) continue;  // a lost device
    cap.gpu_per_s += s.workers_per_device >= 2 ? s.workers_per_device / (busy * f) : 1.0 / (alone * f);
    mean_slowdown += f;
    usable += 1.0;
  }
  mean_slowdown = usable > 0.0 ? mean_slowdown / usable : 1.0;
  cap.threads_per_s = s.synthesis_threads == 0 ? std::numeric_limits<double>::infinity()
                                                : s.synthesis_threads / synth;
  const double budget_bytes = s.budget_gib * kBytesPerGiB;
  cap.budget_per_s = budget_bytes / ((bytes_synth + bytes_alone * mean_slowdown) / n);
  return cap;
}

namespace {

// The devices' speeds, at the start (no slowdown in force, no device lost yet).
std::vector<double> nominal_factors(const Scenario& s) {
  std::vector<double> f(s.devices, 1.0);
  for (uint32_t i = 0; i < s.devices && i < s.device_specs.size(); ++i) f[i] = 1.0 / s.device_specs[i].speed;
  return f;
}

}  // namespace

Capacity nominal_capacity(const Scenario& s, const Workload& w) { return capacity(s, w, nominal_factors(s)); }

std::vector<double> capacity_per_second(const Scenario& s, const Workload& w, size_t seconds) {
  std::vector<double> out(seconds + 1);
  const double nominal = nominal_capacity(s, w).per_s();
  for (size_t t = 0; t <= seconds; ++t) {
    const auto f = slowdowns_at(s, static_cast<double>(t));
    const bool slowed = f != nominal_factors(s);
    out[t] = slowed ? capacity(s, w, f).per_s() : nominal;
  }
  return out;
}

}  // namespace zkp::pacing_sim
