// Miller-loop steps: update T ∈ E'(Fq2) (the G2 point on the sextic twist y² = x³ + b') in
// homogeneous projective coordinates (X : Y : Z) ↦ (X/Z, Y/Z), and return the line through
// the points involved, evaluated at P ∈ G1 after the untwisting map.
//
// Formulas: Costello, Lange, Naehrig, "Faster pairing computations on curves with high-degree
// twists", PKC 2010; in the form of Aranha, Karabina, Longa, Gebotys, López, "Faster
// explicit formulas for computing pairings over ordinary curves", Eurocrypt 2011, section 4
// (doubling and mixed addition in homogeneous coordinates).
//
// Where the three non-zero coefficients of a line land in Fq12 = Σ Fq2·w^i (w⁶ = ξ):
//   D-type twist, b' = b/ξ, untwist (x, y) ↦ (x·w², y·w³) (BN254). The tangent at T has slope
//   λ'·w with λ' = 3x²/(2y), so ℓ(P) = yP − λ'xP·w + (λ'x − y)·w³. Scaled by −2YZ ∈ Fq2 and
//   using Y²Z = X³ + b'Z³:  ℓ = −2YZ·yP + 3X²·xP·w + (3b'Z² − Y²)·w³.
//   M-type twist, b' = b·ξ, untwist (x, y) ↦ (x/w², y/w³) (BLS12-381). The slope is λ'·w⁻¹;
//   scaling ℓ by w³ moves the terms to ℓ = (3b'Z² − Y²) + 3X²·xP·w² − 2YZ·yP·w³.
// Both scalings (by Fq2 elements and by w³, which lies in the subfield Fq4 = Fq2(w³)) are
// erased by the final exponentiation, whose exponent is a multiple of q⁴ − 1 and of q² − 1.
// The addition line through T and Q is alike with (θ, λ) = (Y − yQ·Z, X − xQ·Z):
//   ℓ = λ·yP − θ·xP·w + (θ·xQ − λ·yQ)·w³ (D-type), (θ·xQ − λ·yQ) − θ·xP·w² + λ·yP·w³ (M-type).
// So every line is LineCoeffs {a, b, c} meaning a + b·xP + c·yP placed at (w³, w, 1) for D-type
// and (1, w², w³) for M-type; mul_by_line does the placing.
#pragma once

#include "core/ec/affine.hpp"
#include "core/ec/twist_frobenius.hpp"
#include "core/pairing/fp12.hpp"

namespace zkp {

template <class Fq2>
struct LineCoeffs {
  Fq2 a;  // constant term
  Fq2 b;  // multiplied by xP
  Fq2 c;  // multiplied by yP
};

// f·ℓ(P), with P given as (xP, yP) ∈ Fq: 4 Fq-by-Fq2 products then a 13M sparse product.
template <TwistType kTwist, class Fq2>
constexpr Fp12<Fq2> mul_by_line(const Fp12<Fq2>& f, const LineCoeffs<Fq2>& l, const typename Fq2::Base& xP,
                                const typename Fq2::Base& yP) {
  if constexpr (kTwist == TwistType::d_type) {
    return f.mul_by_034(l.c.mul_by_fp(yP), l.b.mul_by_fp(xP), l.a);
  } else {
    return f.mul_by_014(l.a, l.b.mul_by_fp(xP), l.c.mul_by_fp(yP));
  }
}

// T on the twist of curve descriptor G2 (y² = x³ + G2::kB), homogeneous projective.
template <class G2>
struct G2Homogeneous {
  using Fq2 = typename G2::Field;
  using Fq = typename Fq2::Base;

  Fq2 X, Y, Z;

  static constexpr G2Homogeneous from_affine(const Affine<G2>& q) { return {q.x, q.y, Fq2::one()}; }

  // (X/Z, Y/Z); Z = 0 (never reached for points of order r, see the Miller loop) gives infinity.
  constexpr Affine<G2> to_affine() const {
    if (Z.is_zero()) return Affine<G2>::identity();
    const Fq2 zi = Z.inverse();
    return Affine<G2>::from_xy(X * zi, Y * zi);
  }

  // T ← 2T, returning the tangent at T (Aranha et al.):
  //   X3 = XY/2·(Y² − 9b'Z²),  Y3 = ((Y² + 9b'Z²)/2)² − 27b'²Z⁴,  Z3 = 2Y³Z.
  // 4M + 6S + 4 Fq products (the halvings and ·3b'), plus additions.
  constexpr LineCoeffs<Fq2> double_step() {
    const Fq2 A = (X * Y).mul_by_fp(kHalf);
    const Fq2 B = Y.square();
    const Fq2 C = Z.square();
    const Fq2 E = C * kThreeB;                        // 3b'Z²
    const Fq2 F = E.template mul_small<3>();          // 9b'Z²
    const Fq2 G = (B + F).mul_by_fp(kHalf);
    const Fq2 H = (Y + Z).square() - B - C;           // 2YZ
    const Fq2 J = X.square();
    const Fq2 E2 = E.square();
    X = A * (B - F);
    Y = G.square() - E2.template mul_small<3>();
    Z = B * H;
    return {E - B, J.template mul_small<3>(), -H};
  }

  // T ← T + Q for affine Q ≠ ±T, returning the line through T and Q (Aranha et al.):
  //   θ = Y − yQ·Z, λ = X − xQ·Z, C = θ², D = λ², E = λ³, F = Z·C, G = X·D, H = E + F − 2G,
  //   X3 = λH, Y3 = θ(G − H) − E·Y, Z3 = Z·E.   11M + 2S.
  constexpr LineCoeffs<Fq2> add_step(const Affine<G2>& q) {
    const Fq2 theta = Y - q.y * Z;
    const Fq2 lambda = X - q.x * Z;
    const Fq2 C = theta.square();
    const Fq2 D = lambda.square();
    const Fq2 E = lambda * D;
    const Fq2 F = Z * C;
    const Fq2 G = X * D;
    const Fq2 H = E + F - G.dbl();
    X = lambda * H;
    Y = theta * (G - H) - E * Y;
    Z = Z * E;
    return {theta * q.x - lambda * q.y, -theta, lambda};
  }

 private:
  static constexpr Fq kHalf = Fq::from_u64(2).inverse();
  static constexpr Fq2 kThreeB = G2::kB.template mul_small<3>();
};

}  // namespace zkp
