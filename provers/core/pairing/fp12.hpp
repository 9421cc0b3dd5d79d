// Fp12<Fq2> = Fp6[w]/(w² − v), the top of the pairing tower and home of GT (the order-r
// subgroup of Fq12*). w⁶ = ξ, so an element is Σ a_i·w^i with a_i ∈ Fq2, i = 0..5, stored as
//   c0 = a0 + a2·v + a4·v²   (even powers of w)
//   c1 = a1 + a3·v + a5·v²   (odd powers of w)
// — the arkworks/zkcrypto/ffjavascript layout; the sparse products below name coefficients by
// their position in (c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2) = (w⁰, w², w⁴, w¹, w³, w⁵).
//
// Costs in Fq2 multiplications M / squarings S (Fp6 costs in fp6.hpp):
//   operator*        3 Fp6 products = 18M            (Karatsuba)
//   square           2 Fp6 products = 12M            (complex squaring, Devegili et al.,
//                                                     ePrint 2006/471, "complex method")
//   cyclotomic_square 9S                             (Granger–Scott, below)
//   mul_by_034/014   13M                             (line functions, below)
//   inverse          1 Fp6 inverse + 2 Fp6 products + 2S
//   frobenius(k)     5M (one per coefficient but a0); conjugate: free
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/ff/bigint.hpp"
#include "core/pairing/fp6.hpp"
#include "core/pairing/frobenius_coeffs.hpp"

namespace zkp {

template <class Fq2>
class Fp12 {
 public:
  using Fq6 = Fp6<Fq2>;

  Fq6 c0{}, c1{};  // c0 + c1·w

  constexpr Fp12() = default;
  constexpr Fp12(const Fq6& a0, const Fq6& a1) : c0(a0), c1(a1) {}

  static constexpr Fp12 zero() { return {}; }
  static constexpr Fp12 one() { return {Fq6::one(), Fq6::zero()}; }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend constexpr bool operator==(const Fp12&, const Fp12&) = default;

  friend constexpr Fp12 operator+(const Fp12& a, const Fp12& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend constexpr Fp12 operator-(const Fp12& a, const Fp12& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  constexpr Fp12 operator-() const { return {-c0, -c1}; }
  constexpr Fp12& operator+=(const Fp12& b) { return *this = *this + b; }
  constexpr Fp12& operator-=(const Fp12& b) { return *this = *this - b; }
  constexpr Fp12& operator*=(const Fp12& b) { return *this = *this * b; }

  // Karatsuba: (a0 + a1w)(b0 + b1w) = (a0b0 + v·a1b1) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)w.
  friend constexpr Fp12 operator*(const Fp12& a, const Fp12& b) {
    const Fq6 t0 = a.c0 * b.c0;
    const Fq6 t1 = a.c1 * b.c1;
    return {t0 + t1.mul_by_nonresidue(), (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }

  // Complex squaring: with t = c0c1, (c0 + c1w)² = ((c0 + c1)(c0 + v·c1) − t − v·t) + 2t·w.
  constexpr Fp12 square() const {
    const Fq6 t = c0 * c1;
    return {(c0 + c1) * (c0 + c1.mul_by_nonresidue()) - t - t.mul_by_nonresidue(), t.dbl()};
  }

  // c0 − c1·w = a^(q⁶) (w^(q⁶) = −w). On the cyclotomic subgroup (which contains GT and
  // everything after the easy part of the final exponentiation) this is the inverse.
  constexpr Fp12 conjugate() const { return {c0, -c1}; }

  // (c0 − c1w)/(c0² − v·c1²). Zero maps to zero.
  constexpr Fp12 inverse() const {
    const Fq6 t = (c0.square() - c1.square().mul_by_nonresidue()).inverse();
    return {c0 * t, -(c1 * t)};
  }

  // a^(q^k): the even part as in Fp6; odd coefficients a_(2j+1) also pick up γ_k^(2j+1).
  Fp12 frobenius(std::size_t k) const {
    const auto& g = TowerFrobenius<Fq2>::gamma()[k % TowerFrobenius<Fq2>::kPowers];
    return {c0.frobenius(k),
            {c1.c0.frobenius(k) * g[1], c1.c1.frobenius(k) * g[3], c1.c2.frobenius(k) * g[5]}};
  }

  // --- line functions -----------------------------------------------------------------------
  //
  // A Miller-loop line evaluated at P ∈ G1 has three non-zero Fq2 coefficients out of six, at
  // w-powers fixed by the twist (line_functions.hpp derives them). Multiplying by it costs
  // 13M instead of 18M (Aranha, Karabina, Longa, Gebotys, López, "Faster explicit formulas
  // for computing pairings over ordinary curves", Eurocrypt 2011, "sparse multiplication").

  // a·(l0 + l1·w + l3·w³): the D-type twist (BN254). In Fp6 halves the line is
  // L0 + L1·w with L0 = l0, L1 = l1 + l3·v; 3M + 5M + 5M.
  constexpr Fp12 mul_by_034(const Fq2& l0, const Fq2& l1, const Fq2& l3) const {
    const Fq6 a = c0.mul_by_fq2(l0);
    const Fq6 b = c1.mul_by_01(l1, l3);
    const Fq6 e = (c0 + c1).mul_by_01(l0 + l1, l3);
    return {a + b.mul_by_nonresidue(), e - a - b};
  }

  // a·(l0 + l2·w² + l3·w³): the M-type twist (BLS12-381). L0 = l0 + l2·v, L1 = l3·v; 5M + 3M + 5M.
  constexpr Fp12 mul_by_014(const Fq2& l0, const Fq2& l2, const Fq2& l3) const {
    const Fq6 a = c0.mul_by_01(l0, l2);
    const Fq6 b = c1.mul_by_1(l3);
    const Fq6 e = (c0 + c1).mul_by_01(l0, l2 + l3);
    return {a + b.mul_by_nonresidue(), e - a - b};
  }

  // --- the cyclotomic subgroup ----------------------------------------------------------------

  // a² for a in the cyclotomic subgroup G_Φ6(q²) = {a : a^(q⁴ − q² + 1) = 1}, which every
  // value reaches after the easy part of the final exponentiation. Wrong for other elements.
  //
  // Granger, Scott, "Faster squaring in the cyclotomic subgroup of sixth degree extensions",
  // PKC 2010: view Fq12 as Fq4[w]/(w³ − s), Fq4 = Fq2[s]/(s² − ξ), s = w³, and write
  // a = A + B·w + C·w² with A = a0 + a3·s, B = a1 + a4·s, C = a2 + a5·s. Then
  //   a² = (3A² − 2Ā) + (3s·C² + 2B̄)·w + (3B² − 2C̄)·w²      (bar: s ↦ −s in Fq4)
  // Each Fq4 square (x + ys)² = (x² + ξy²) + ((x + y)² − x² − y²)s costs 3S: 9S in all,
  // against 12M for square().
  constexpr Fp12 cyclotomic_square() const {
    const auto fq4_square = [](const Fq2& x, const Fq2& y, Fq2& re, Fq2& im) {
      const Fq2 x2 = x.square();
      const Fq2 y2 = y.square();
      re = x2 + y2.mul_by_nonresidue();
      im = (x + y).square() - x2 - y2;
    };
    // (a0, a3) = (c0.c0, c1.c1); (a1, a4) = (c1.c0, c0.c2); (a2, a5) = (c0.c1, c1.c2).
    Fq2 A0, A1, B0, B1, C0, C1;
    fq4_square(c0.c0, c1.c1, A0, A1);  // A²
    fq4_square(c1.c0, c0.c2, B0, B1);  // B²
    fq4_square(c0.c1, c1.c2, C0, C1);  // C²
    const auto three_minus_two = [](const Fq2& t, const Fq2& z) { return (t - z).dbl() + t; };  // 3t − 2z
    const auto three_plus_two = [](const Fq2& t, const Fq2& z) { return (t + z).dbl() + t; };   // 3t + 2z
    const Fq2 sC_re = C1.mul_by_nonresidue();  // s·C² = ξ·C1 + C0·s
    Fp12 r;
    r.c0.c0 = three_minus_two(A0, c0.c0);  // a0'
    r.c1.c1 = three_plus_two(A1, c1.c1);   // a3'
    r.c1.c0 = three_plus_two(sC_re, c1.c0);  // a1'
    r.c0.c2 = three_minus_two(C0, c0.c2);    // a4'
    r.c0.c1 = three_minus_two(B0, c0.c1);    // a2'
    r.c1.c2 = three_plus_two(B1, c1.c2);     // a5'
    return r;
  }

  // a^e by left-to-right square-and-multiply with cyclotomic squarings: same caveat as above.
  template <std::size_t M>
  constexpr Fp12 cyclotomic_pow(const BigInt<M>& e) const {
    Fp12 r = one();
    for (std::size_t i = e.num_bits(); i-- > 0;) {
      r = r.cyclotomic_square();
      if (e.bit(i)) r *= *this;
    }
    return r;
  }

  // a^e for any a (general squarings).
  template <std::size_t M>
  constexpr Fp12 pow(const BigInt<M>& e) const {
    Fp12 r = one();
    for (std::size_t i = e.num_bits(); i-- > 0;) {
      r = r.square();
      if (e.bit(i)) r *= *this;
    }
    return r;
  }

  template <class Rng>
  static Fp12 random(Rng& rng) {
    Fq6 a = Fq6::random(rng);  // sequenced: c0 draws first
    return {a, Fq6::random(rng)};
  }
};

}  // namespace zkp
