// Fixed-base scalar multiplication [k]G for one generator G and many scalars k: the windowed
// table of Brickell, Gordon, McCurley and Wilson ("Fast exponentiation with precomputation",
// EUROCRYPT '92; the "fixed-base windowing" of Hankerson–Menezes–Vanstone, Guide to ECC,
// §3.3.2, without the comb). With w-bit windows, k = Σ_i k_i·2^(w·i), k_i ∈ [0, 2^w), and
//   table[i][d − 1] = [d·2^(w·i)]G,   [k]G = Σ_i table[i][k_i − 1]   (k_i ≠ 0)
// so a product costs at most ⌈255/w⌉ mixed additions (madd-2007-bl, 7M + 4S) and no doublings,
// against ≈ 255 doublings + 43 additions for the wNAF-5 scalar_mul. bellperson's generator does
// the same job with group's Wnaf::base (generator.rs, "Compute G1 window table").
//
// The table is built once (⌈255/w⌉ · (2^w − 1) additions and one batch normalisation) and then
// only read, so one table serves every thread.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/ec/affine.hpp"
#include "core/ec/batch_normalize.hpp"
#include "core/ec/jacobian.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::bellperson_setup {

// The window width that minimises the total work for `products` multiplications:
// windows · (products + 2 · 2^w), counting a table entry (a full addition plus its share of the
// normalisation) as about two mixed additions. Capped at 12 bits so that the G2 table stays
// under ~20 MB (22 windows × 4095 affine points of ~200 bytes).
inline unsigned best_window_bits(std::size_t products, std::size_t scalar_bits) {
  constexpr unsigned kMaxBits = 12;
  unsigned best = 1;
  double best_cost = 0;
  for (unsigned w = 1; w <= kMaxBits; ++w) {
    const double windows = static_cast<double>((scalar_bits + w - 1) / w);
    const double cost = windows * (static_cast<double>(products) + 2.0 * static_cast<double>(1u << w));
    if (w == 1 || cost < best_cost) {
      best = w;
      best_cost = cost;
    }
  }
  return best;
}

template <CurveParams C>
class FixedBaseTable {
 public:
  using Scalar = typename C::Scalar;
  static constexpr std::size_t kScalarBits = Scalar::kBits;

  static constexpr unsigned kMaxWindowBits = 16;  // 2^16 − 1 points per window is already ~200 MB of G2

  // The table of `base` for w-bit windows, built on `pool`. Throws std::invalid_argument unless
  // 1 ≤ w ≤ kMaxWindowBits.
  FixedBaseTable(const Affine<C>& base, unsigned window_bits, ThreadPool& pool)
      : bits_(checked_bits(window_bits)),
        windows_((kScalarBits + window_bits - 1) / window_bits),
        per_window_((std::size_t{1} << window_bits) - 1),
        table_(windows_ * per_window_) {
    // Row starts [2^(w·i)]G by doubling, then each row's multiples in parallel.
    std::vector<Jacobian<C>> row_base(windows_);
    Jacobian<C> b = Jacobian<C>::from_affine(base);
    for (std::size_t i = 0; i < windows_; ++i) {
      row_base[i] = b;
      for (unsigned j = 0; j < bits_; ++j) b = b.dbl();
    }
    pool.run(windows_, [&](std::size_t i) {
      std::vector<Jacobian<C>> row(per_window_);
      row[0] = row_base[i];
      for (std::size_t d = 1; d < per_window_; ++d) row[d] = row[d - 1] + row_base[i];
      batch_to_affine(std::span<const Jacobian<C>>(row), std::span<Affine<C>>(table_).subspan(i * per_window_, per_window_));
    });
  }

  unsigned window_bits() const { return bits_; }

  // [k]G, Jacobian (callers normalise many at once with batch_to_affine).
  Jacobian<C> mul(const Scalar& k) const {
    const auto n = k.to_bigint();
    Jacobian<C> acc = Jacobian<C>::identity();
    for (std::size_t i = 0; i < windows_; ++i) {
      const std::size_t d = digit(n.limbs, i * bits_);
      if (d != 0) acc = acc.add_mixed(table_[i * per_window_ + d - 1]);
    }
    return acc;
  }

 private:
  static unsigned checked_bits(unsigned w) {
    if (w == 0 || w > kMaxWindowBits) throw std::invalid_argument("FixedBaseTable: window bits must be 1..16");
    return w;
  }
  // Bits [pos, pos + w) of the little-endian limbs, a window that may straddle two limbs.
  template <std::size_t N>
  std::size_t digit(const std::array<std::uint64_t, N>& limbs, std::size_t pos) const {
    const std::size_t limb = pos / 64, shift = pos % 64;
    std::uint64_t v = limbs[limb] >> shift;
    if (shift + bits_ > 64 && limb + 1 < N) v |= limbs[limb + 1] << (64 - shift);
    return static_cast<std::size_t>(v & ((std::uint64_t{1} << bits_) - 1));
  }

  unsigned bits_;
  std::size_t windows_;
  std::size_t per_window_;
  std::vector<Affine<C>> table_;  // windows_ rows of per_window_ points
};

}  // namespace zkp::bellperson_setup
