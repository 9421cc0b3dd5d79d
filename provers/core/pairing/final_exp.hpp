// The final exponentiation f ↦ f^((q¹² − 1)/r), which turns a Miller-loop value into an element
// of GT. This computes exactly that power — the textbook reduced pairing, the value the Python
// reference (tests/core_pairing/reference/pairing_ref.py) computes with one plain power — not a
// multiple of it as some libraries do (zkcrypto/arkworks BLS12-381 give e³, ffjavascript BN254
// gives e^(2x(6x²+3x+1)); the tests check both relations).
//
// (q¹² − 1)/r = (q⁶ − 1)·(q² + 1)·(q⁴ − q² + 1)/r, Φ12(q) = q⁴ − q² + 1.
//   Easy part  f^((q⁶ − 1)(q² + 1)) = (f̄/f)^(q² + 1): 1 inversion, 2 products, 1 Frobenius.
//   It lands in the cyclotomic subgroup G_Φ6(q²), where inversion is conjugation and squaring
//   is Granger–Scott's (fp12.hpp), and where the hard part d = Φ12(q)/r is raised using the
//   q-adic expansion d = λ0 + λ1·q + λ2·q² + λ3·q³ (Frobenius powers are cheap) with each λ_i a
//   polynomial in the seed x, so only exponentiations by x are needed.
#pragma once

#include <cstddef>

#include "core/pairing/engine.hpp"

namespace zkp {

namespace detail {

// a^k for a in the cyclotomic subgroup and k given by its NAF (−1 digits multiply by ā = a⁻¹):
// (len − 1) cyclotomic squarings + (non-zero digits − 1) products.
template <class Fq12, class Digits>
constexpr Fq12 cyclotomic_pow_naf(const Fq12& a, const Digits& k) {
  const Fq12 a_inv = a.conjugate();
  Fq12 r = a;  // leading digit 1
  for (std::size_t i = 1; i < k.size; ++i) {
    r = r.cyclotomic_square();
    if (k.digit[i] == 1) r *= a;
    else if (k.digit[i] == -1) r *= a_inv;
  }
  return r;
}

// a^x for the signed seed x. BN254: 62 squarings + 23 products; BLS12-381: 64 squarings + 5.
template <PairingEngine E>
constexpr typename E::Fq12 exp_by_seed(const typename E::Fq12& a) {
  const auto r = cyclotomic_pow_naf(a, E::kSeedDigits);
  return E::kSeedNegative ? r.conjugate() : r;
}

// BN: λ3 = 1, λ2 = 6x² + 1, λ1 = −36x³ − 18x² − 12x + 1, λ0 = −36x³ − 30x² − 18x − 2
// (Devegili, Scott, Dahab, "Implementing cryptographic pairings over Barreto–Naehrig curves",
// Pairing 2007), evaluated with the vectorial addition chain of Scott, Benger, Charlemagne,
// Dominguez Perez, Kachisa, "On the final exponentiation for calculating pairings on ordinary
// elliptic curves", Pairing 2009:
//   y0 = f^q·f^q²·f^q³, y1 = f⁻¹, y2 = (f^x²)^q², y3 = ((f^x)^q)⁻¹, y4 = (f^x·(f^x²)^q)⁻¹,
//   y5 = (f^x²)⁻¹, y6 = (f^x³·(f^x³)^q)⁻¹, result = y0·y1²·y2⁶·y3¹²·y4¹⁸·y5³⁰·y6³⁶
// (collecting powers of q reproduces λ0..λ3). 3 exponentiations by x, 13 products, 4 cyclotomic
// squarings, 7 Frobenius maps.
template <PairingEngine E>
typename E::Fq12 hard_part_bn(const typename E::Fq12& f) {
  using Fq12 = typename E::Fq12;
  const Fq12 fx = exp_by_seed<E>(f);
  const Fq12 fx2 = exp_by_seed<E>(fx);
  const Fq12 fx3 = exp_by_seed<E>(fx2);

  const Fq12 y0 = f.frobenius(1) * f.frobenius(2) * f.frobenius(3);
  const Fq12 y1 = f.conjugate();
  const Fq12 y2 = fx2.frobenius(2);
  const Fq12 y3 = fx.frobenius(1).conjugate();
  const Fq12 y4 = (fx * fx2.frobenius(1)).conjugate();
  const Fq12 y5 = fx2.conjugate();
  const Fq12 y6 = (fx3 * fx3.frobenius(1)).conjugate();

  Fq12 t0 = y6.cyclotomic_square() * y4 * y5;  // y6² y4 y5
  Fq12 t1 = y3 * y5 * t0;                       // y3 y4 y5² y6²
  t0 *= y2;                                     // y2 y4 y5 y6²
  t1 = (t1.cyclotomic_square() * t0).cyclotomic_square();  // y2² y3⁴ y4⁶ y5¹⁰ y6¹²
  t0 = t1 * y1;
  t1 *= y0;
  return t0.cyclotomic_square() * t1;  // y0 y1² y2⁶ y3¹² y4¹⁸ y5³⁰ y6³⁶
}

// BLS12: 3·Φ12(q)/r = (x − 1)²·(x + q)·(x² + q² − 1) + 3 (Hayashida, Hayasaka, Teruya,
// "Efficient final exponentiation via cyclotomic structure for pairings over families of
// elliptic curves", ePrint 2020/875), so with λ3 = (x − 1)²/3 (exact, since x ≡ 1 mod 3):
//   λ3,  λ2 = λ3·x,  λ1 = λ2·x − λ3,  λ0 = λ1·x + 1.
// Libraries that skip the division by 3 compute e³ instead; here f^λ3 is one fixed 126-bit
// cyclotomic power (E::kLambda3Digits: 126 squarings, 43 products), then 3 exponentiations by x
// and 8 products: about 318 cyclotomic squarings and 66 products, against about 320 and 35 for
// the e³ chain of the paper's Alg. 1 — some 30 Fq12 products, a few per cent of a pairing.
template <PairingEngine E>
typename E::Fq12 hard_part_bls12(const typename E::Fq12& f) {
  using Fq12 = typename E::Fq12;
  const Fq12 a = cyclotomic_pow_naf(f, E::kLambda3Digits);  // f^λ3
  const Fq12 b = exp_by_seed<E>(a);                         // f^λ2
  const Fq12 c = exp_by_seed<E>(b) * a.conjugate();         // f^λ1
  const Fq12 d = exp_by_seed<E>(c) * f;                     // f^λ0
  return d * c.frobenius(1) * b.frobenius(2) * a.frobenius(3);
}

}  // namespace detail

template <PairingEngine E>
typename E::Fq12 final_exponentiation(const typename E::Fq12& f) {
  using Fq12 = typename E::Fq12;
  // Easy part. f ≠ 0: each line has a non-zero coefficient (−2YZ·yP or λ·yP; yP ≠ 0 on G1).
  Fq12 t = f.conjugate() * f.inverse();  // f^(q⁶ − 1)
  t = t.frobenius(2) * t;                // ·^(q² + 1)
  if constexpr (E::kFamily == CurveFamily::bn) return detail::hard_part_bn<E>(t);
  else return detail::hard_part_bls12<E>(t);
}

}  // namespace zkp
