// Synthesis: a = A·w and b = B·w on the domain, from the zkey's coefficient section.
//
// A zkey stores each coefficient x as x·R² mod r (snarkjs zkey_utils.js, writeFr2), so one
// Montgomery product with the standard-form witness value w gives x·w·R: x·w in Montgomery
// form, with no conversion of w. c = a∘b is never stored: snarkjs's prover uses it instead of
// C·w (a zkey has no C matrix), and the H step forms it on the fly (h_polynomial.hpp).
//
// Rows are split across threads (CoefficientRows), each thread owning its rows' accumulators.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/formats/zkey.hpp"
#include "core/groth16/coefficient_rows.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::groth16 {

// Tasks per thread: the balanced split is by entry count, but rows cost differently (cache
// misses on the witness), so a few tasks per thread even out the tail.
inline constexpr std::size_t kSynthesisTasksPerThread = 4;

// Writes a[row] = Σ A[row][wire]·w[wire] and b likewise for every row < domain size.
// `witness` holds the key's nVars values, each < r (load_assignment).
template <class Fr>
void evaluate_ab(const ZkeyCoefficients& coeffs, const CoefficientRows& rows,
                 std::span<const typename Fr::Int> witness, std::span<Fr> a, std::span<Fr> b, ThreadPool& pool) {
  using Int = typename Fr::Int;
  if (a.size() != rows.domain_size() || b.size() != rows.domain_size()) {
    throw std::invalid_argument("evaluate_ab: output length differs from the domain size");
  }
  if (coeffs.entry_bytes() != ZkeyCoefficients::kFixedBytes + Fr::kBytes) {
    throw std::invalid_argument("evaluate_ab: coefficient size differs from the scalar field's");
  }
  const std::byte* base = coeffs.raw().data();
  const std::size_t stride = coeffs.entry_bytes();
  const auto cuts = rows.balanced_splits(pool.size() * kSynthesisTasksPerThread);
  pool.run(cuts.size() - 1, [&](std::size_t part) {
    const std::uint32_t r0 = cuts[part], r1 = cuts[part + 1];
    for (std::uint32_t r = r0; r < r1; ++r) a[r] = b[r] = Fr::zero();
    for (std::uint32_t p = rows.row_begin(r0); p < rows.row_begin(r1); ++p) {
      const std::byte* e = base + static_cast<std::size_t>(rows.entry(p)) * stride;
      const std::uint32_t matrix = load_u32le(e), row = load_u32le(e + 4), wire = load_u32le(e + 8);
      Int value;
      std::memcpy(value.limbs.data(), e + ZkeyCoefficients::kFixedBytes, Fr::kBytes);
      const Fr term = Fr::from_mont_unchecked(value) * Fr::from_mont_unchecked(witness[wire]);
      (matrix == 0 ? a : b)[row] += term;
    }
  });
}

}  // namespace zkp::groth16
