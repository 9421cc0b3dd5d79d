// Fp2<Fq> = Fq[u]/(u² + 1), the quadratic extension both BN254 and BLS12-381 use for G2.
//
// u² = −1 is irreducible because q ≡ 3 (mod 4) for both curves (checked below). The
// tower above it (Fq6 = Fq2[v]/(v³ − ξ), Fq12 = Fq6[w]/(w² − v)) needs only ξ, which
// Fq's Params supply as ξ = kXiC0 + kXiC1·u.
//
// Same interface shape as Fp (zero/one, + − *, square, inverse, byte codecs with kBytes)
// so that curve code is generic over G1 (coordinates in Fq) and G2 (in Fq2).
// Memory layout: c0 then c1, each an Fq in Montgomery form — the snarkjs zkey layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "core/ff/fp.hpp"

namespace zkp {

template <class Fq>
class Fp2 {
 public:
  using Base = Fq;
  static constexpr std::size_t kBytes = 2 * Fq::kBytes;
  static_assert((Fq::kModulus.limbs[0] & 3) == 3, "u^2 + 1 is irreducible only when q = 3 mod 4");

  Fq c0{}, c1{};  // c0 + c1·u

  constexpr Fp2() = default;
  constexpr Fp2(const Fq& a0, const Fq& a1) : c0(a0), c1(a1) {}

  static constexpr Fp2 zero() { return {}; }
  static constexpr Fp2 one() { return {Fq::one(), Fq::zero()}; }
  // The tower non-residue ξ.
  static constexpr Fp2 xi() { return {Fq::from_u64(Fq::Params::kXiC0), Fq::from_u64(Fq::Params::kXiC1)}; }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend constexpr bool operator==(const Fp2&, const Fp2&) = default;

  friend constexpr Fp2 operator+(const Fp2& a, const Fp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend constexpr Fp2 operator-(const Fp2& a, const Fp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  constexpr Fp2 operator-() const { return {-c0, -c1}; }
  constexpr Fp2& operator+=(const Fp2& b) { return *this = *this + b; }
  constexpr Fp2& operator-=(const Fp2& b) { return *this = *this - b; }
  constexpr Fp2& operator*=(const Fp2& b) { return *this = *this * b; }

  // Karatsuba: 3 Fq multiplications + 5 additions (Devegili, Ó hÉigeartaigh, Scott, Dahab,
  // "Multiplication and Squaring on Pairing-Friendly Fields", ePrint 2006/471, §3).
  friend constexpr Fp2 operator*(const Fp2& a, const Fp2& b) {
    const Fq v0 = a.c0 * b.c0;
    const Fq v1 = a.c1 * b.c1;
    return {v0 - v1, (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1};
  }

  // Complex squaring, 2 Fq multiplications (same paper, §3): (a0+a1)(a0−a1), 2·a0·a1.
  constexpr Fp2 square() const { return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()}; }

  constexpr Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  template <std::uint64_t K>
  constexpr Fp2 mul_small() const { return {c0.template mul_small<K>(), c1.template mul_small<K>()}; }
  constexpr Fp2 mul_by_fp(const Fq& k) const { return {c0 * k, c1 * k}; }

  // a0 − a1·u: the image under Frobenius (u^q = −u since q ≡ 3 mod 4).
  constexpr Fp2 conjugate() const { return {c0, -c1}; }
  // a^(q^power): identity for even powers, conjugation for odd ones.
  constexpr Fp2 frobenius(std::size_t power) const { return power % 2 == 0 ? *this : conjugate(); }

  // a·ξ with ξ = x0 + x1·u small: (x0·a0 − x1·a1) + (x0·a1 + x1·a0)·u, additions only.
  constexpr Fp2 mul_by_nonresidue() const {
    constexpr std::uint64_t x0 = Fq::Params::kXiC0, x1 = Fq::Params::kXiC1;
    return {c0.template mul_small<x0>() - c1.template mul_small<x1>(),
            c1.template mul_small<x0>() + c0.template mul_small<x1>()};
  }

  // Norm a0² + a1² in Fq, then (a0 − a1·u)/norm: 1 Fq inversion + 2 S + 2 M. Zero maps to zero.
  constexpr Fp2 inverse() const {
    const Fq t = (c0.square() + c1.square()).inverse();
    return {c0 * t, -(c1 * t)};
  }

  template <std::size_t M>
  constexpr Fp2 pow(const BigInt<M>& e) const {
    Fp2 r = one();
    for (std::size_t i = e.num_bits(); i-- > 0;) {
      r = r.square();
      if (e.bit(i)) r *= *this;
    }
    return r;
  }

  // A square root of a, or nullopt when a is not a square in Fq2. Algorithm 9 of Adj and
  // Rodríguez-Henríquez, "Square root computation over even extension fields" (ePrint 2012/685),
  // for q ≡ 3 (mod 4): with a1 = a^((q−3)/4), x0 = a1·a = a^((q+1)/4) and α = a1·x0 = a^((q−1)/2):
  //   α = −1: x0² = α·a = −a, so u·x0 is a root (u² = −1); this is the case of a ∈ Fq that is
  //           not a square in Fq;
  //   else:   (1 + α)^((q−1)/2)·x0 is a root when a is a square at all,
  // checked by squaring at the end. Costs two exponentiations of ~381 bits. Which root comes
  // back is unspecified. Variable time.
  constexpr std::optional<Fp2> sqrt() const {
    if (is_zero()) return zero();
    const Fp2 a1 = pow(exponent_q_minus_3_over_4());
    const Fp2 x0 = a1 * *this;
    const Fp2 alpha = a1 * x0;
    const Fp2 r = alpha == -one() ? Fp2{-x0.c1, x0.c0} : (one() + alpha).pow(exponent_q_minus_1_over_2()) * x0;
    if (r.square() != *this) return std::nullopt;
    return r;
  }

  template <class Rng>
  static Fp2 random(Rng& rng) {
    Fq a = Fq::random(rng);  // sequenced: c0 draws first
    return {a, Fq::random(rng)};
  }

  // Byte codecs, c0 then c1, each as Fq's (standard or Montgomery form, little-endian).
  static constexpr std::optional<Fp2> from_bytes(std::span<const std::uint8_t, kBytes> b) {
    return combine(Fq::from_bytes(b.template first<Fq::kBytes>()), Fq::from_bytes(b.template last<Fq::kBytes>()));
  }
  static constexpr std::optional<Fp2> from_mont_bytes(std::span<const std::uint8_t, kBytes> b) {
    return combine(Fq::from_mont_bytes(b.template first<Fq::kBytes>()),
                   Fq::from_mont_bytes(b.template last<Fq::kBytes>()));
  }
  constexpr void to_bytes(std::span<std::uint8_t, kBytes> out) const {
    c0.to_bytes(out.template first<Fq::kBytes>());
    c1.to_bytes(out.template last<Fq::kBytes>());
  }
  constexpr void to_mont_bytes(std::span<std::uint8_t, kBytes> out) const {
    c0.to_mont_bytes(out.template first<Fq::kBytes>());
    c1.to_mont_bytes(out.template last<Fq::kBytes>());
  }

 private:
  using QInt = typename Fq::Int;
  static constexpr QInt exponent_q_minus_3_over_4() {
    QInt e = Fq::sqrt_exponent();  // (q + 1)/4
    e.sub_in_place(QInt::from_u64(1));
    return e;
  }
  static constexpr QInt exponent_q_minus_1_over_2() {
    QInt e = Fq::kModulus;
    e.shr1();  // q odd: ⌊q/2⌋ = (q − 1)/2
    return e;
  }

  static constexpr std::optional<Fp2> combine(const std::optional<Fq>& a, const std::optional<Fq>& b) {
    if (!a || !b) return std::nullopt;
    return Fp2{*a, *b};
  }
};

}  // namespace zkp
