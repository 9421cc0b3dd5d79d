// [k]G for many scalars k and one fixed point G, as `zkpipe bench --synthetic` needs for its key:
// a table of d·2^(w·i)·G for every w-bit window i of the scalar and every digit d < 2^w, in
// affine form, so each product is one mixed addition per window (⌈bits/w⌉ = 32 of
// madd-2007-bl, 7M + 4S, at w = 8) instead of wNAF's ≈ 255 doublings (2M + 5S) and ≈ 43
// additions (core/ec/scalar_mul.hpp): about 6x fewer field multiplications. The table is
// 32 · 256 points, made with one addition each and one batch inversion.
#pragma once

#include <cstddef>
#include <vector>

#include "core/ec/affine.hpp"
#include "core/ec/batch_normalize.hpp"
#include "core/ec/jacobian.hpp"

namespace zkp::cli::bench {

template <CurveParams C>
class FixedBaseTable {
 public:
  using Scalar = typename C::Scalar;
  static constexpr std::size_t kWindow = 8;  // bits per window; divides 64, so no digit spans two limbs
  static constexpr std::size_t kDigits = std::size_t{1} << kWindow;
  static constexpr std::size_t kWindows = (Scalar::kBits + kWindow - 1) / kWindow;
  static_assert(64 % kWindow == 0);

  explicit FixedBaseTable(const Affine<C>& base) {
    std::vector<Jacobian<C>> entries(kWindows * kDigits);
    Jacobian<C> window_base = Jacobian<C>::from_affine(base);  // 2^(w·i)·G
    for (std::size_t i = 0; i < kWindows; ++i) {
      Jacobian<C>* row = &entries[i * kDigits];
      row[0] = Jacobian<C>::identity();
      for (std::size_t d = 1; d < kDigits; ++d) row[d] = row[d - 1] + window_base;
      window_base = row[kDigits - 1] + window_base;
    }
    table_.resize(entries.size());
    batch_to_affine<C>(entries, table_);
  }

  // [k]G; thread-safe (reads the table only).
  Jacobian<C> mul(const Scalar& k) const {
    const auto bits = k.to_bigint();
    Jacobian<C> acc = Jacobian<C>::identity();
    for (std::size_t i = 0; i < kWindows; ++i) {
      const std::size_t bit = i * kWindow;
      const std::size_t digit = (bits.limbs[bit / 64] >> (bit % 64)) & (kDigits - 1);
      acc = acc.add_mixed(table_[i * kDigits + digit]);
    }
    return acc;
  }

 private:
  std::vector<Affine<C>> table_;  // window i, digit d at i · kDigits + d; digit 0 is infinity
};

}  // namespace zkp::cli::bench
