#include "core/groth16/coefficient_rows.hpp"

#include <algorithm>

namespace zkp::groth16 {

CoefficientRows::CoefficientRows(const ZkeyCoefficients& coeffs, std::uint32_t domain_size)
    : row_start_(static_cast<std::size_t>(domain_size) + 1, 0) {
  const std::uint32_t count = coeffs.size();
  bool sorted = true;
  std::uint32_t previous = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t row = coeffs[i].row;
    sorted = sorted && row >= previous;
    previous = row;
    ++row_start_[static_cast<std::size_t>(row) + 1];
  }
  for (std::size_t r = 1; r < row_start_.size(); ++r) row_start_[r] += row_start_[r - 1];
  if (sorted) return;
  order_.resize(count);
  std::vector<std::uint32_t> next(row_start_.begin(), row_start_.end() - 1);
  for (std::uint32_t i = 0; i < count; ++i) order_[next[coeffs[i].row]++] = i;
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
