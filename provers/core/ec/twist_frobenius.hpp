// ψ = untwist ∘ Frobenius ∘ twist on a sextic twist E'(Fq2) of E(Fq): the endomorphism of
// G2 that acts as multiplication by q (mod r), used by fast subgroup checks.
//
// For E': y² = x³ + b' with Fq2 = Fq[u]/(u² + 1) and tower non-residue ξ:
//   ψ(x, y) = (conj(x)·cx, conj(y)·cy)
// with cx = ξ^((q−1)/3), cy = ξ^((q−1)/2) for a D-type twist (b' = b/ξ, BN254) and their
// inverses for an M-type twist (b' = b·ξ, BLS12-381) (El Housni, Guillevic, Piellard,
// ePrint 2022/352, §2.2 and §4). Frobenius commutes with the projective scaling, so in
// Jacobian coordinates Z is conjugated too. Cost: 2M (+3 negations).
//
// The curve files paste cx, cy as literals: deriving them with constexpr pow costs several
// seconds of compile time in every translation unit. psi_coefficients() derives them at
// run time, and tests/core checks that the literals agree.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <utility>

#include "core/ec/affine.hpp"
#include "core/ec/jacobian.hpp"

namespace zkp {

enum class TwistType { d_type, m_type };

// (cx, cy) from their definition: ξ^((q−1)/3), ξ^((q−1)/2), inverted for an M-type twist.
template <class Fq2>
std::pair<Fq2, Fq2> psi_coefficients(TwistType type) {
  using Fq = typename Fq2::Base;
  const auto q_minus_one_over = [](std::uint64_t d) {
    typename Fq::Int e = Fq::kModulus;
    e.limbs[0] -= 1;  // q odd: no borrow
    if (e.div_small(d) != 0) throw std::logic_error("psi_coefficients: q - 1 not divisible");
    return e;
  };
  Fq2 cx = Fq2::xi().pow(q_minus_one_over(3));
  Fq2 cy = Fq2::xi().pow(q_minus_one_over(2));
  if (type == TwistType::m_type) {
    cx = cx.inverse();
    cy = cy.inverse();
  }
  return {cx, cy};
}

// ψ on a G2 curve C whose descriptor provides kPsiCx, kPsiCy.
template <CurveParams C>
constexpr Affine<C> psi(const Affine<C>& p) {
  if (p.infinity) return p;
  return Affine<C>::from_xy(p.x.conjugate() * C::kPsiCx, p.y.conjugate() * C::kPsiCy);
}
template <CurveParams C>
constexpr Jacobian<C> psi(const Jacobian<C>& p) {
  return {p.X.conjugate() * C::kPsiCx, p.Y.conjugate() * C::kPsiCy, p.Z.conjugate()};
}

}  // namespace zkp
