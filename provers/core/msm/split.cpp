// The MSM's work split (split.hpp).
#include "core/msm/split.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "core/msm/msm.hpp"
#include "core/msm/scalars.hpp"

namespace zkp::msm {
namespace {

// A c other than the table's must be modelled this much faster to be taken.
constexpr double kPreferTable = 0.03;

// The workers' scratch may always reach this much, whatever the fixed rule used.
constexpr std::size_t kScratchFloor = std::size_t{32} << 20;

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

// The fastest chunk count for one c within `budget` bytes of scratch (the fewest chunks among
// equal makespans: less work), or none.
std::optional<Choice> best_chunks(std::size_t n, std::size_t max_bits, unsigned c, std::size_t units,
                                  std::size_t threads, std::size_t point_bytes, std::size_t budget) {
  const std::size_t windows = window_count(max_bits, c);
  std::optional<Choice> best;
  for (std::size_t k = 1; k <= max_chunks(n, c, threads); ++k) {
    if (modeled_scratch_bytes(n, windows, c, k, threads, point_bytes) > budget) continue;
    const double m = modeled_makespan(n, windows, c, k, units, threads);
    if (!best || m < best->makespan) best = Choice{k, m};
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

std::size_t modeled_scratch_bytes(std::size_t n, std::size_t windows, unsigned c, std::size_t chunks,
                                  std::size_t threads, std::size_t point_bytes) {
  const std::size_t k = std::max<std::size_t>(1, chunks);
  const std::size_t workers = std::max<std::size_t>(1, std::min(threads, windows * k));
  const std::size_t sort = 2 * sizeof(std::uint32_t) * ((n + k - 1) / k);  // digits and entries
  const std::size_t buckets = (std::size_t{1} << (c - 1)) * point_bytes;
  return workers * (sort + buckets);
}

WorkSplit fixed_rule_split(std::size_t n, std::size_t max_bits, std::size_t threads, unsigned window_bits) {
  const unsigned c = window_bits != 0 ? window_bits : window_bits_for(n);
  const std::size_t windows = window_count(max_bits, c);
  if (windows == 0) return {c, 1};
  const std::size_t want = (3 * std::max<std::size_t>(1, threads) + windows - 1) / windows;
  return {c, std::clamp<std::size_t>(want, 1, std::max<std::size_t>(1, n >> c))};
}

WorkSplit split_work(std::size_t n, std::size_t max_bits, std::size_t units, std::size_t threads,
                     std::size_t point_bytes, unsigned window_bits) {
  const WorkSplit fixed = fixed_rule_split(n, max_bits, threads, window_bits);
  const std::size_t budget = std::max(
      kScratchFloor, modeled_scratch_bytes(n, window_count(max_bits, fixed.c), fixed.c, fixed.chunks, threads, point_bytes));
  // The table's c (or the caller's) always has a choice within the budget: the fixed rule's.
  const Choice kept = best_chunks(n, max_bits, fixed.c, units, threads, point_bytes, budget).value_or(Choice{fixed.chunks, 0});
  if (window_bits != 0) return {window_bits, kept.chunks};
  WorkSplit best{fixed.c, kept.chunks};
  double best_makespan = kept.makespan * (1.0 - kPreferTable);
  const unsigned table = fixed.c;
  const unsigned lo = std::max(kMinWindowBits, table >= 2 + kMinWindowBits ? table - 2 : kMinWindowBits);
  const unsigned hi = std::min(kMaxWindowBits, table + 1);
  for (unsigned c = lo; c <= hi; ++c) {
    if (c == table) continue;
    const auto other = best_chunks(n, max_bits, c, units, threads, point_bytes, budget);
    if (other && other->makespan < best_makespan) {
      best = {c, other->chunks};
      best_makespan = other->makespan;
    }
  }
  return best;
}

}  // namespace zkp::msm
