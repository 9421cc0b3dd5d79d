#include "core/groth16/coefficient_rows.hpp"

#include <algorithm>
#include <atomic>

namespace zkp::groth16 {

CoefficientRows::CoefficientRows(const ZkeyCoefficients& coeffs, std::uint32_t domain_size, ThreadPool* pool)
    : row_start_(static_cast<std::size_t>(domain_size) + 1, 0) {
  const std::uint32_t count = coeffs.size();
  // Counts of row r go to row_start_[r + 1]; a chunk also says whether its rows never decrease,
  // comparing its first entry with the one before it, so the chunks cover every pair.
  const auto count_rows = [&](std::size_t begin, std::size_t end, bool atomic) {
    bool sorted = true;
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint32_t row = coeffs[static_cast<std::uint32_t>(i)].row;
      if (i > 0 && row < coeffs[static_cast<std::uint32_t>(i - 1)].row) sorted = false;
      std::uint32_t& slot = row_start_[static_cast<std::size_t>(row) + 1];
      if (atomic) std::atomic_ref<std::uint32_t>(slot).fetch_add(1, std::memory_order_relaxed);
      else ++slot;
    }
    return sorted;
  };
  bool sorted = true;
  constexpr std::size_t kGrain = std::size_t{1} << 16;
  if (pool != nullptr && count > kGrain) {
    std::atomic<bool> all_sorted{true};
    pool->parallel_for(count, kGrain, [&](std::size_t begin, std::size_t end) {
      if (!count_rows(begin, end, true)) all_sorted.store(false, std::memory_order_relaxed);
    });
    sorted = all_sorted.load();
  } else {
    sorted = count_rows(0, count, false);
  }
  for (std::size_t r = 1; r < row_start_.size(); ++r) row_start_[r] += row_start_[r - 1];
  if (sorted) return;
  // Each entry goes to the next free place of its row. On the pool the places are taken with
  // atomics, so the order of the entries within a row depends on the threads: harmless, since
  // evaluate_ab only sums a row's terms, and field addition is exact in any order. (A snarkjs
  // zkey lists matrix A's entries, then B's: never sorted as a whole, and one thread's scatter
  // of 2M entries was a serial stretch of 16 ms of a 2^20 key load.)
  order_.resize(count);
  std::vector<std::uint32_t> next(row_start_.begin(), row_start_.end() - 1);
  if (pool != nullptr && count > kGrain) {
    pool->parallel_for(count, kGrain, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        const std::uint32_t row = coeffs[static_cast<std::uint32_t>(i)].row;
        const std::uint32_t at = std::atomic_ref<std::uint32_t>(next[row]).fetch_add(1, std::memory_order_relaxed);
        order_[at] = static_cast<std::uint32_t>(i);
      }
    });
  } else {
    for (std::uint32_t i = 0; i < count; ++i) order_[next[coeffs[i].row]++] = i;
  }
}

std::vector<std::uint32_t> CoefficientRows::balanced_splits(std::size_t parts) const {
  const std::uint64_t total = row_start_.back();
  std::vector<std::uint32_t> cuts{0};
  for (std::size_t p = 1; p < parts; ++p) {
    const std::uint64_t target = total * p / parts;
    // The first row that starts at or after the target.
    const auto it = std::lower_bound(row_start_.begin(), row_start_.end() - 1, target);
    const auto row = static_cast<std::uint32_t>(it - row_start_.begin());
    cuts.push_back(std::max(row, cuts.back()));
  }
  cuts.push_back(domain_size());
  return cuts;
}

}  // namespace zkp::groth16
