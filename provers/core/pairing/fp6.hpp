// Fp6<Fq2> = Fq2[v]/(v³ − ξ), the middle of the pairing tower; ξ is Fq2::xi() (BN254: 9 + u,
// BLS12-381: 1 + u), a non-cube in Fq2, so v³ − ξ is irreducible.
//
// Costs are in Fq2 multiplications (M), squarings (S) and additions (A); multiplying by ξ
// is a few additions (Fp2::mul_by_nonresidue). Formulas from Devegili, Ó hÉigeartaigh,
// Scott, Dahab, "Multiplication and Squaring on Pairing-Friendly Fields", ePrint 2006/471:
// Karatsuba multiplication (6M) and Chung–Hasan squaring "SQR2" (2M + 3S).
//
// Memory layout: c0, c1, c2 (coefficients of 1, v, v²), each an Fq2 — the layout of
// arkworks/zkcrypto/ffjavascript, so printed values compare directly.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/ff/bigint.hpp"
#include "core/pairing/frobenius_coeffs.hpp"

namespace zkp {

template <class Fq2>
class Fp6 {
 public:
  using Base = Fq2;
  using Fq = typename Fq2::Base;

  Fq2 c0{}, c1{}, c2{};  // c0 + c1·v + c2·v²

  constexpr Fp6() = default;
  constexpr Fp6(const Fq2& a0, const Fq2& a1, const Fq2& a2) : c0(a0), c1(a1), c2(a2) {}

  static constexpr Fp6 zero() { return {}; }
  static constexpr Fp6 one() { return {Fq2::one(), Fq2::zero(), Fq2::zero()}; }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  friend constexpr bool operator==(const Fp6&, const Fp6&) = default;

  friend constexpr Fp6 operator+(const Fp6& a, const Fp6& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
  friend constexpr Fp6 operator-(const Fp6& a, const Fp6& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
  constexpr Fp6 operator-() const { return {-c0, -c1, -c2}; }
  constexpr Fp6& operator+=(const Fp6& b) { return *this = *this + b; }
  constexpr Fp6& operator-=(const Fp6& b) { return *this = *this - b; }
  constexpr Fp6& operator*=(const Fp6& b) { return *this = *this * b; }
  constexpr Fp6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }

  // Karatsuba over three terms: 6M + 15A (+ 2 multiplications by ξ).
  friend constexpr Fp6 operator*(const Fp6& a, const Fp6& b) {
    const Fq2 v0 = a.c0 * b.c0;
    const Fq2 v1 = a.c1 * b.c1;
    const Fq2 v2 = a.c2 * b.c2;
    return {((a.c1 + a.c2) * (b.c1 + b.c2) - v1 - v2).mul_by_nonresidue() + v0,
            (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1 + v2.mul_by_nonresidue(),
            (a.c0 + a.c2) * (b.c0 + b.c2) - v0 - v2 + v1};
  }

  // Chung–Hasan SQR2: 2M + 3S. With s0 = c0², s1 = 2c0c1, s2 = (c0 − c1 + c2)², s3 = 2c1c2,
  // s4 = c2²: the square is (s0 + ξs3) + (s1 + ξs4)v + (s1 + s2 + s3 − s0 − s4)v².
  constexpr Fp6 square() const {
    const Fq2 s0 = c0.square();
    const Fq2 s1 = (c0 * c1).dbl();
    const Fq2 s2 = (c0 - c1 + c2).square();
    const Fq2 s3 = (c1 * c2).dbl();
    const Fq2 s4 = c2.square();
    return {s0 + s3.mul_by_nonresidue(), s1 + s4.mul_by_nonresidue(), s1 + s2 + s3 - s0 - s4};
  }

  // a·v = ξc2 + c0·v + c1·v²: the non-residue of the next level (Fq12 = Fp6[w]/(w² − v)).
  constexpr Fp6 mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }

  // a·k for k in Fq2: 3M.
  constexpr Fp6 mul_by_fq2(const Fq2& k) const { return {c0 * k, c1 * k, c2 * k}; }

  // a·(b0 + b1·v), the shape of line functions: 5M (Karatsuba on the c1 term) instead of 6M.
  // a·b = (c0b0 + ξc2b1) + (c0b1 + c1b0)·v + (c1b1 + c2b0)·v².
  constexpr Fp6 mul_by_01(const Fq2& b0, const Fq2& b1) const {
    const Fq2 v0 = c0 * b0;
    const Fq2 v1 = c1 * b1;
    return {(c2 * b1).mul_by_nonresidue() + v0, (c0 + c1) * (b0 + b1) - v0 - v1, c2 * b0 + v1};
  }

  // a·(b1·v) = ξc2b1 + c0b1·v + c1b1·v²: 3M.
  constexpr Fp6 mul_by_1(const Fq2& b1) const { return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1}; }

  // Inverse via the adjugate (Hankerson, Menezes, Scott, "Software Implementation of Pairings",
  // in Identity-Based Cryptography, 2009): with t0 = c0² − ξc1c2, t1 = ξc2² − c0c1,
  // t2 = c1² − c0c2 and norm N = c0t0 + ξ(c2t1 + c1t2) ∈ Fq2, a⁻¹ = (t0 + t1·v + t2·v²)/N.
  // 1 Fq2 inversion + 9M + 3S. Zero maps to zero.
  constexpr Fp6 inverse() const {
    const Fq2 t0 = c0.square() - (c1 * c2).mul_by_nonresidue();
    const Fq2 t1 = c2.square().mul_by_nonresidue() - c0 * c1;
    const Fq2 t2 = c1.square() - c0 * c2;
    const Fq2 n_inv = (c0 * t0 + (c2 * t1 + c1 * t2).mul_by_nonresidue()).inverse();
    return {t0 * n_inv, t1 * n_inv, t2 * n_inv};
  }

  // a^(q^k): φ^k on each coefficient, then v^j ↦ γ_k^(2j)·v^j (frobenius_coeffs.hpp). 2M.
  Fp6 frobenius(std::size_t k) const {
    const auto& g = TowerFrobenius<Fq2>::gamma()[k % TowerFrobenius<Fq2>::kPowers];
    return {c0.frobenius(k), c1.frobenius(k) * g[2], c2.frobenius(k) * g[4]};
  }

  template <class Rng>
  static Fp6 random(Rng& rng) {
    Fq2 a = Fq2::random(rng);  // sequenced: c0, c1, c2 draw in order
    Fq2 b = Fq2::random(rng);
    return {a, b, Fq2::random(rng)};
  }
};

}  // namespace zkp
