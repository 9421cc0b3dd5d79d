// Scalar multiplication of a single point: [k]P by width-5 wNAF (Solinas; Hankerson,
// Menezes, Vanstone, "Guide to Elliptic Curve Cryptography", Alg. 3.36): 8 precomputed
// odd multiples, ≈ n doublings + n/6 additions for an n-bit k.
//
// For one-off products (r·δ, subgroup checks, tests). Many points × many scalars is the
// MSM's job. Variable time: the sequence of operations depends on k.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/ec/affine.hpp"
#include "core/ec/jacobian.hpp"
#include "core/ff/bigint.hpp"

namespace zkp {

namespace detail {

inline constexpr int kWnafWidth = 5;

// Signed digits d_i ∈ {0, ±1, ±3, …, ±(2^(w−1) − 1)}, least significant first, with
// k = Σ d_i·2^i and at most one non-zero digit in any w consecutive ones.
template <std::size_t M>
std::vector<std::int8_t> wnaf_digits(const BigInt<M>& k_in) {
  constexpr std::int64_t kMod = std::int64_t{1} << kWnafWidth;
  BigInt<M + 1> k = k_in.template resize<M + 1>();  // headroom for the +|d| carries
  std::vector<std::int8_t> d;
  d.reserve(64 * M + 1);
  while (!k.is_zero()) {
    std::int64_t digit = 0;
    if (k.is_odd()) {
      digit = static_cast<std::int64_t>(k.limbs[0] & (kMod - 1));
      if (digit >= kMod / 2) digit -= kMod;
      // k −= digit, which clears the low w bits.
      if (digit > 0) k.sub_in_place(BigInt<M + 1>::from_u64(static_cast<std::uint64_t>(digit)));
      else k.add_in_place(BigInt<M + 1>::from_u64(static_cast<std::uint64_t>(-digit)));
    }
    d.push_back(static_cast<std::int8_t>(digit));
    k.shr1();
  }
  return d;
}

}  // namespace detail

// [k]P for any non-negative integer k (e.g. the group order r in a subgroup check).
template <CurveParams C, std::size_t M>
Jacobian<C> scalar_mul(const Jacobian<C>& p, const BigInt<M>& k) {
  constexpr std::size_t kTable = std::size_t{1} << (detail::kWnafWidth - 2);
  std::array<Jacobian<C>, kTable> odd;  // odd[i] = [2i + 1]P
  odd[0] = p;
  const Jacobian<C> p2 = p.dbl();
  for (std::size_t i = 1; i < kTable; ++i) odd[i] = odd[i - 1] + p2;

  const auto digits = detail::wnaf_digits(k);
  Jacobian<C> acc = Jacobian<C>::identity();
  for (std::size_t i = digits.size(); i-- > 0;) {
    acc = acc.dbl();
    const int d = digits[i];
    if (d > 0) acc += odd[static_cast<std::size_t>(d / 2)];
    else if (d < 0) acc -= odd[static_cast<std::size_t>(-d / 2)];
  }
  return acc;
}

// [k]P for k in the scalar field (its standard-form integer).
template <CurveParams C>
Jacobian<C> operator*(const Jacobian<C>& p, const typename C::Scalar& k) {
  return scalar_mul(p, k.to_bigint());
}
template <CurveParams C>
Jacobian<C> operator*(const Affine<C>& p, const typename C::Scalar& k) {
  return scalar_mul(Jacobian<C>::from_affine(p), k.to_bigint());
}

// [r]P = O: membership of the order-r subgroup by definition. The reference that the
// endomorphism-based checks of curves_*.hpp are tested against; ≈ 255 doublings.
template <CurveParams C>
bool is_in_subgroup_by_order(const Jacobian<C>& p) {
  return scalar_mul(p, C::Scalar::kModulus).is_identity();
}

}  // namespace zkp
