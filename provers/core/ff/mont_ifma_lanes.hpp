// The arithmetic of the AVX-512 IFMA kernels (mont_ifma.hpp), for any prime field that fits
// N 52-bit limbs: eight field elements per call, limb k of the eight lanes in one ZMM register.
// Internal to the kernel files (mont_ifma_bn254.cpp, mont_ifma_bls12_381.cpp), which compile it
// for avx512f + avx512ifma by function attribute; nothing else may include it.
//
// Shape S describes the field: kLimbs (N), kP (p in 52-bit limbs), kPInv52 (−p^(−1) mod 2^52)
// and kShift, the bits between the field's Montgomery radix R = 2^(64·words) and the kernels'
// R' = 2^(52·N). mont_mul takes a shifted left by kShift (a·2^kShift < 2^(52N)), so that
// (a·2^kShift·b)/R' ≡ a·b/R: the product comes out in the field's own Montgomery form,
// bit-identical to its scalar operator* once reduced below p. With a < p, b < p and
// 2^kShift·p < 2^(52N − 2) the unreduced result is below 1.25p, so one conditional
// subtraction reduces it (BN254: N = 5, kShift = 4; BLS12-381: N = 8, kShift = 32).
#pragma once

#include <immintrin.h>

#include <array>
#include <cstddef>
#include <cstdint>

#define ZKP_IFMA_FN [[gnu::target("avx512f,avx512ifma"), gnu::always_inline]] inline

namespace zkp::mont::ifma::lanes {

inline constexpr std::uint64_t kMask52 = (std::uint64_t{1} << 52) - 1;

// v (W 64-bit words) in N 52-bit limbs.
template <std::size_t N, std::size_t W>
constexpr std::array<std::uint64_t, N> to_limbs52(const std::array<std::uint64_t, W>& v) {
  std::array<std::uint64_t, N> r{};
  for (std::size_t k = 0; k < N; ++k) {
    const std::size_t bit = 52 * k, j = bit / 64, off = bit % 64;
    std::uint64_t x = j < W ? v[j] >> off : 0;
    if (off > 12 && j + 1 < W) x |= v[j + 1] << (64 - off);
    r[k] = x & kMask52;
  }
  return r;
}

// The shape of field F's lane arithmetic with N limbs, for Lanes<S>: F's modulus in limbs, its
// −p^(−1) mod 2^52, and the shift between R' = 2^(52N) and F's R = 2^(64·words).
template <class F, std::size_t N>
struct ShapeOf {
  static constexpr std::size_t kLimbs = N;
  static constexpr std::array<std::uint64_t, N> kP = to_limbs52<N, F::kLimbs>(F::kModulus.limbs);
  static constexpr std::uint64_t kPInv52 = F::kInv & kMask52;
  static constexpr unsigned kShift = 52 * N - 64 * F::kLimbs;
  static_assert(52 * N >= 64 * F::kLimbs && F::kModulus.num_bits() + kShift <= 52 * N - 2,
                "2^kShift·p < 2^(52N − 2) keeps the unreduced product below 1.25p");
};

// Immediate shifts in their zero-masked form: the unmasked intrinsics start from
// _mm512_undefined_epi32(), which GCC 12 reports as used uninitialized (-Wuninitialized)
// once inlined into a function with a target attribute. Same instructions.
ZKP_IFMA_FN __m512i shl(__m512i x, unsigned n) { return _mm512_maskz_slli_epi64(0xff, x, n); }
ZKP_IFMA_FN __m512i shr(__m512i x, unsigned n) { return _mm512_maskz_srli_epi64(0xff, x, n); }
ZKP_IFMA_FN __m512i sar(__m512i x, unsigned n) { return _mm512_maskz_srai_epi64(0xff, x, n); }

template <class S>
struct Lanes {
  static constexpr std::size_t N = S::kLimbs;
  struct Limbs {
    __m512i v[N];  // limb k of the eight lanes
  };

  ZKP_IFMA_FN static __m512i mask52() { return _mm512_set1_epi64(static_cast<long long>(kMask52)); }
  ZKP_IFMA_FN static __m512i p_limb(std::size_t j) { return _mm512_set1_epi64(static_cast<long long>(S::kP[j])); }

  ZKP_IFMA_FN static Limbs zeros() {
    Limbs r;
    for (std::size_t j = 0; j < N; ++j) r.v[j] = _mm512_setzero_si512();
    return r;
  }

  // t − p where that is not negative, else t, for t < 2p in N 52-bit limbs (limbs below the
  // top one under 2^52): the borrow runs as an arithmetic shift.
  ZKP_IFMA_FN static Limbs reduce_once(const __m512i* t) {
    const __m512i zero = _mm512_setzero_si512();
    Limbs d;
    __m512i borrow = zero;
#pragma GCC unroll 8
    for (std::size_t j = 0; j < N; ++j) {
      const __m512i s = _mm512_add_epi64(_mm512_sub_epi64(t[j], p_limb(j)), borrow);
      borrow = sar(s, 52);
      d.v[j] = j + 1 < N ? _mm512_and_si512(s, mask52()) : s;
    }
    const __mmask8 ge = _mm512_cmpge_epi64_mask(d.v[N - 1], zero);
    Limbs r;
#pragma GCC unroll 8
    for (std::size_t j = 0; j < N; ++j) r.v[j] = _mm512_mask_blend_epi64(ge, t[j], d.v[j]);
    return r;
  }

  // a + b mod p and a − b mod p for a, b < p: what the field's + and − compute.
  ZKP_IFMA_FN static Limbs add_mod(const Limbs& a, const Limbs& b) {
    __m512i t[N];
#pragma GCC unroll 8
    for (std::size_t j = 0; j < N; ++j) t[j] = _mm512_add_epi64(a.v[j], b.v[j]);
#pragma GCC unroll 8
    for (std::size_t j = 0; j + 1 < N; ++j) {
      t[j + 1] = _mm512_add_epi64(t[j + 1], shr(t[j], 52));
      t[j] = _mm512_and_si512(t[j], mask52());
    }
    return reduce_once(t);  // a + b < 2p
  }
  ZKP_IFMA_FN static Limbs sub_mod(const Limbs& a, const Limbs& b) {
    const __m512i zero = _mm512_setzero_si512();
    Limbs d, e;
    __m512i borrow = zero, carry = zero;
#pragma GCC unroll 8
    for (std::size_t j = 0; j < N; ++j) {  // d = a − b, its top limb negative when a < b
      const __m512i s = _mm512_add_epi64(_mm512_sub_epi64(a.v[j], b.v[j]), borrow);
      borrow = sar(s, 52);
      d.v[j] = j + 1 < N ? _mm512_and_si512(s, mask52()) : s;
    }
#pragma GCC unroll 8
    for (std::size_t j = 0; j < N; ++j) {  // e = d + p
      const __m512i s = _mm512_add_epi64(_mm512_add_epi64(d.v[j], p_limb(j)), carry);
      carry = shr(s, 52);
      e.v[j] = j + 1 < N ? _mm512_and_si512(s, mask52()) : s;
    }
    const __mmask8 neg = _mm512_cmplt_epi64_mask(d.v[N - 1], zero);
    Limbs r;
#pragma GCC unroll 8
    for (std::size_t j = 0; j < N; ++j) r.v[j] = _mm512_mask_blend_epi64(neg, d.v[j], e.v[j]);
    return r;
  }

  // v·2^kShift for v < p: the shifted operand mont_mul takes as a.
  ZKP_IFMA_FN static Limbs shifted(const Limbs& v) {
    Limbs r;
    r.v[0] = _mm512_and_si512(shl(v.v[0], S::kShift), mask52());
#pragma GCC unroll 8
    for (std::size_t j = 1; j < N; ++j) {
      const __m512i up = shl(v.v[j], S::kShift);
      r.v[j] = _mm512_or_si512(j + 1 < N ? _mm512_and_si512(up, mask52()) : up, shr(v.v[j - 1], 52 - S::kShift));
    }
    return r;
  }

  // (a·b + m·p)/2^(52N) for a shifted operand a < 2^kShift·p and b < p: below 1.25p,
  // reduced below p at the end. Each step adds a·b_i and m·p (m clears the low
  // limb) into 64-bit accumulators without carrying: a step adds under 4·2^52 to a word and a
  // word sees at most N steps, so the words stay below 2^(54 + log2 N) until the carries are
  // propagated once at the end.
  ZKP_IFMA_FN static Limbs mont_mul(const Limbs& a, const Limbs& b) {
    const __m512i zero = _mm512_setzero_si512();
    const __m512i pinv = _mm512_set1_epi64(static_cast<long long>(S::kPInv52));
    __m512i t[N + 1];
    for (std::size_t j = 0; j <= N; ++j) t[j] = zero;
#pragma GCC unroll 8
    for (std::size_t i = 0; i < N; ++i) {
#pragma GCC unroll 8
      for (std::size_t j = 0; j < N; ++j) {
        t[j] = _mm512_madd52lo_epu64(t[j], a.v[j], b.v[i]);
        t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a.v[j], b.v[i]);
      }
      const __m512i m = _mm512_madd52lo_epu64(zero, t[0], pinv);
#pragma GCC unroll 8
      for (std::size_t j = 0; j < N; ++j) {
        t[j] = _mm512_madd52lo_epu64(t[j], m, p_limb(j));
        t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, p_limb(j));
      }
      // The low 52 bits of t[0] are now zero; its high bits carry into the next word.
      t[1] = _mm512_add_epi64(t[1], shr(t[0], 52));
#pragma GCC unroll 8
      for (std::size_t j = 0; j < N; ++j) t[j] = t[j + 1];
      t[N] = zero;
    }
#pragma GCC unroll 8
    for (std::size_t j = 0; j + 1 < N; ++j) {
      t[j + 1] = _mm512_add_epi64(t[j + 1], shr(t[j], 52));
      t[j] = _mm512_and_si512(t[j], mask52());
    }
    return reduce_once(t);
  }

  ZKP_IFMA_FN static Limbs blend(__mmask8 take_b, const Limbs& a, const Limbs& b) {
    Limbs r;
#pragma GCC unroll 8
    for (std::size_t j = 0; j < N; ++j) r.v[j] = _mm512_mask_blend_epi64(take_b, a.v[j], b.v[j]);
    return r;
  }

  // Eight Fq2 elements (Fq[u]/(u² + 1) for both curves) as the limbs of their two components.
  struct Limbs2 {
    Limbs c0, c1;
  };
  ZKP_IFMA_FN static Limbs2 add_mod2(const Limbs2& a, const Limbs2& b) {
    return {add_mod(a.c0, b.c0), add_mod(a.c1, b.c1)};
  }
  ZKP_IFMA_FN static Limbs2 sub_mod2(const Limbs2& a, const Limbs2& b) {
    return {sub_mod(a.c0, b.c0), sub_mod(a.c1, b.c1)};
  }
  // Karatsuba (Fp2's operator*): a0·b0, a1·b1, (a0 + a1)(b0 + b1); c0 = v0 − v1,
  // c1 = v2 − v0 − v1. Every sum is reduced, so mont_mul's operands stay below p.
  ZKP_IFMA_FN static Limbs2 mont_mul2(const Limbs2& a, const Limbs2& b) {
    const Limbs v0 = mont_mul(shifted(a.c0), b.c0), v1 = mont_mul(shifted(a.c1), b.c1);
    const Limbs v2 = mont_mul(shifted(add_mod(a.c0, a.c1)), add_mod(b.c0, b.c1));
    return {sub_mod(v0, v1), sub_mod(sub_mod(v2, v0), v1)};
  }
  // Complex squaring (Fp2::square): c0 = (a0 + a1)(a0 − a1), c1 = 2·a0·a1.
  ZKP_IFMA_FN static Limbs2 mont_square2(const Limbs2& a) {
    const Limbs s = mont_mul(shifted(add_mod(a.c0, a.c1)), sub_mod(a.c0, a.c1));
    const Limbs t = mont_mul(shifted(a.c0), a.c1);
    return {s, add_mod(t, t)};
  }
};

}  // namespace zkp::mont::ifma::lanes
