// The MSM's work split (split.hpp).
#include "core/msm/split.hpp"

#include <algorithm>
#include <cstdint>

#include "core/msm/msm.hpp"
#include "core/msm/scalars.hpp"

namespace zkp::msm {
namespace {

// A c other than the table's must be modelled this much faster to be taken.
constexpr double kPreferTable = 0.03;

double reduction_cost(unsigned c) { return 3.0 * static_cast<double>(std::size_t{1} << (c - 1)); }

// The most chunks worth trying: never below 2^c scalars a chunk (the reduction would
// dominate), and 2·threads chunks of every window already make ≥ 32 tasks a thread.
std::size_t max_chunks(std::size_t n, unsigned c, std::size_t threads) {
  return std::max<std::size_t>(1, std::min(n >> c, 2 * threads));
}

struct Choice {
  std::size_t chunks = 1;
  double makespan = 0;
};

// The best chunk count for one c (the fewest chunks among equal makespans: less work).
Choice best_chunks(std::size_t n, std::size_t max_bits, unsigned c, std::size_t units, std::size_t threads) {
  const std::size_t windows = window_count(max_bits, c);
  Choice best{1, modeled_makespan(n, windows, c, 1, units, threads)};
  for (std::size_t k = 2; k <= max_chunks(n, c, threads); ++k) {
    const double m = modeled_makespan(n, windows, c, k, units, threads);
    if (m < best.makespan) best = {k, m};
  }
  return best;
}

}  // namespace

double modeled_makespan(std::size_t n, std::size_t windows, unsigned c, std::size_t chunks, std::size_t units,
                        std::size_t threads) {
  const std::size_t p = std::max<std::size_t>(1, threads);
  const std::size_t k = std::max<std::size_t>(1, chunks);
  const double task = static_cast<double>((n + k - 1) / k) + reduction_cost(c);
  const std::size_t tasks = windows * k;
  const double rounds = static_cast<double>((tasks + p - 1) / p);
  const double spread = (static_cast<double>(tasks) * task + static_cast<double>(units)) / static_cast<double>(p);
  return std::max(rounds * task, spread);
}

WorkSplit split_work(std::size_t n, std::size_t max_bits, std::size_t units, std::size_t threads,
                     unsigned window_bits) {
  if (window_bits != 0) return {window_bits, best_chunks(n, max_bits, window_bits, units, threads).chunks};
  const unsigned table = window_bits_for(n);
  const Choice kept = best_chunks(n, max_bits, table, units, threads);
  WorkSplit best{table, kept.chunks};
  double best_makespan = kept.makespan * (1.0 - kPreferTable);
  const unsigned lo = std::max(kMinWindowBits, table >= 2 + kMinWindowBits ? table - 2 : kMinWindowBits);
  const unsigned hi = std::min(kMaxWindowBits, table + 1);
  for (unsigned c = lo; c <= hi; ++c) {
    if (c == table) continue;
    const Choice other = best_chunks(n, max_bits, c, units, threads);
    if (other.makespan < best_makespan) {
      best = {c, other.chunks};
      best_makespan = other.makespan;
    }
  }
  return best;
}

}  // namespace zkp::msm
