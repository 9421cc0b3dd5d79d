#include "workload.hpp"

#include "random.hpp"

#include <cmath>

namespace zkp::pacing_sim {

namespace {

uint64_t to_ns(double seconds) { return static_cast<uint64_t>(std::llround(seconds * kNsPerS)); }

uint32_t draw_class(const Scenario& s, const ArrivalPhase& phase, Rng& rng) {
  if (!phase.class_name.empty()) {
    for (uint32_t i = 0; i < s.classes.size(); ++i) {
      if (s.classes[i].name == phase.class_name) return i;
    }
  }
  double total = 0.0;
  for (const auto& c : s.classes) total += c.weight;
  if (s.classes.size() == 1 || total <= 0.0) return 0;
  double pick = rng.unit() * total;
  for (uint32_t i = 0; i < s.classes.size(); ++i) {
    pick -= s.classes[i].weight;
    if (pick < 0.0) return i;
  }
  return static_cast<uint32_t>(s.classes.size() - 1);
}

}  // namespace

Workload make_workload(const Scenario& s) {
  Workload w;
  Rng rng(s.seed);
  double t = 0.0;
  auto add_job = [&](const ArrivalPhase& phase, double at) {
    const uint32_t cls = draw_class(s, phase, rng);
    const PartitionClass& c = s.classes[cls];
    for (uint32_t i = 0; i < phase.partitions; ++i) {
      WorkPartition p;
      p.job = w.jobs;
      p.index = i;
      p.class_index = cls;
      p.bytes = static_cast<uint64_t>(std::llround(c.gib * kBytesPerGiB));
      p.submit_ns = to_ns(at);
      p.synthesis_ns = to_ns(rng.uniform(c.synthesis_min_s, c.synthesis_max_s));
      w.partitions.push_back(p);
    }
    ++w.jobs;
    w.last_arrival_ns = to_ns(at);
  };
  for (const auto& phase : s.arrivals) {
    switch (phase.kind) {
      case ArrivalPhase::Kind::kBursts:
        for (uint32_t b = 0; b < phase.repeat; ++b) {
          for (uint32_t j = 0; j < phase.jobs; ++j) add_job(phase, t);
          t += phase.every_s;
        }
        break;
      case ArrivalPhase::Kind::kPause:
        t += phase.seconds;
        break;
      case ArrivalPhase::Kind::kPoisson:
        for (uint32_t j = 0; j < phase.jobs; ++j) {
          t += rng.exponential(phase.mean_gap_s);
          add_job(phase, t);
        }
        break;
    }
  }
  return w;
}

}  // namespace zkp::pacing_sim
