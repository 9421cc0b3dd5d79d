// CoefficientRows: zkey section 4 (the A and B matrix entries) grouped by row, so that
// synthesis can hand each thread a disjoint range of rows and accumulate without locks.
//
// snarkjs writes the entries constraint by constraint (zkey_new.js: A terms, then B terms of
// constraint c, then the public-input rows), i.e. already sorted by row; then the index is
// just where each row starts (4 bytes per row). Keys in any other order get a counting-sort
// permutation on top (4 more bytes per entry). Either way the entries themselves are read
// from the mapped zkey, never copied.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/formats/zkey.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::groth16 {

class CoefficientRows {
 public:
  // `coeffs` must have passed read_zkey's checks (row < domain_size for every entry). With a
  // pool the entries are counted per row on it (2^25 entries at a 2^24 key); the permutation of
  // a file not in row order is still written on one thread, so that it is the same every time.
  CoefficientRows(const ZkeyCoefficients& coeffs, std::uint32_t domain_size, ThreadPool* pool = nullptr);

  std::uint32_t domain_size() const { return static_cast<std::uint32_t>(row_start_.size() - 1); }

  // The entries of rows [r0, r1) are entry(p) for p in [row_begin(r0), row_begin(r1)).
  std::uint32_t row_begin(std::uint32_t row) const { return row_start_[row]; }
  std::uint32_t entry(std::uint32_t position) const { return order_.empty() ? position : order_[position]; }

  // parts + 1 row boundaries, 0 first and domain_size last, cutting the entries into `parts`
  // runs of about equal length (rows are never split).
  std::vector<std::uint32_t> balanced_splits(std::size_t parts) const;

  // True when the file's own order is by row (no permutation stored).
  bool in_file_order() const { return order_.empty(); }
  std::size_t memory_bytes() const {
    return (row_start_.capacity() + order_.capacity()) * sizeof(std::uint32_t);
  }

 private:
  std::vector<std::uint32_t> row_start_;  // domain_size + 1 entries
  std::vector<std::uint32_t> order_;      // empty, or entry indices grouped by row (any order within one)
};

}  // namespace zkp::groth16
