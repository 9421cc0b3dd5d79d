#include "bench/stats.hpp"

#include <algorithm>
#include <cmath>

namespace zkp::cli::bench {

namespace {
constexpr double kNsPerS = 1e9;
constexpr double kPercent = 100.0;
}  // namespace

uint64_t nearest_rank(std::vector<uint64_t> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p / kPercent * static_cast<double>(values.size())));
  return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

double proofs_per_second(const PointResult& r) {
  if (r.wall_ns == 0) return 0.0;
  return static_cast<double>(r.latency_ns.size()) * kNsPerS / static_cast<double>(r.wall_ns);
}

double busy_fraction(const PointResult& r) {
  if (r.wall_ns == 0 || r.devices == 0) return 0.0;
  return static_cast<double>(r.busy_ns) / (static_cast<double>(r.wall_ns) * r.devices);
}

}  // namespace zkp::cli::bench
