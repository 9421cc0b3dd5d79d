// cuda::FpF64<Params>: Montgomery multiplication on the FP64 pipe, an experiment for
// issue 18 item 1 ("MSM beyond the integer-multiply floor").
//
// Why: on sm_90 the field product of cuda::Fp (fp.cuh) is bound by IMAD, 64 per clock per
// SM, while the FP64 FMA pipe (also 64 per clock per SM on an H200) sits idle. A product
// whose limb products are exact DFMAs runs on that other pipe, so an MSM that mixes the
// two kinds of product could raise the chip's multiply rate (Emmart, Zheng and Weems,
// ARITH 2018, did this with 52-bit limbs on the V100). This file is the FP64 product and
// its measurement (tests/cuda/throughput.cu); it is not used by any MSM yet.
//
// Representation: 384 bits as eight signed 48-bit limbs held exactly in doubles,
// value = Σ l[i]·2^(48i), in Montgomery form with R = 2^384 — the same R as the 12 × 32-bit
// limbs of cuda::Fp for BLS12-381 Fq, so converting between the two is only re-slicing the
// bits (from_limbs32, to_limbs32). Values are kept lazily in (−p, p); limbs are in
// [−2^47, 2^47] after a product and in [0, 2^48) after from_limbs32.
//
// Every step is exact IEEE-754 double arithmetic in round-to-nearest, so the host compiler
// runs the very same algorithm (tests/cuda/ff_emulation_test.cpp) and a GPU must agree bit
// for bit. The tools:
//  - split(a, b): a·b (|a·b| ≤ 2^96) = hs + lo with hs = round(a·b / 2^48)·2^48 and
//    |lo| ≤ 2^47: hi = fma(a, b, C) with C = 1.5·2^100 lands in [2^100, 2^101), whose ulp
//    is 2^48, so hs = hi − C is exact; lo = fma(a, b, −hs) is an integer below 2^47 and
//    therefore exact. Three FP64 operations.
//  - Columns: a product's lo goes to column i+j (L) and its hs to column i+j+1 (H, still
//    scaled by 2^48). Both sums stay exact: |L| ≤ 16·2^47 = 2^51; H is a multiple of 2^48
//    below 16·2^96, 52 significant bits. A column's value is L + H·2^−48 (one exact FMA).
//  - Montgomery (separated, row by row): for column c, m = −v·p^−1 mod 2^48 (signed, in
//    [−2^47, 2^47)) is computed on the integer pipe from v's low 48 bits (rounded off
//    with the same 1.5·2^100 trick, then turned into an int64 with the 1.5·2^52 trick);
//    m·p is added to columns c..c+8, which makes column c a multiple of 2^48; it carries
//    into c+1. After eight rows, columns 8..15 are the result, normalized to signed
//    48-bit limbs by rounding off each limb.
//  - Bounds: with |a|, |b| < p, |a·b + M·p| < p² + p·R/2, so the result is below
//    p²/R + p/2 < p in magnitude (p < 2^381 = R/8): the representation is closed.
//
// Cost per product: 128 limb products × 5 FP64 operations (3 for the split, 2 to
// accumulate) + about 100 more, and about 64 integer operations: ≈ 740 FP64 operations
// against the 588 IMADs of cuda::Fp's product. Alone it is slower; issued beside IMAD
// products it runs on a pipe those leave free.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "cuda/util/hd.cuh"
#include "core/ff/fp.hpp"

namespace zkp::cuda {

namespace f64 {

ZKP_HD std::int64_t bits_of(double d) {
#if defined(__CUDA_ARCH__)
  return __double_as_longlong(d);
#else
  std::int64_t r;
  std::memcpy(&r, &d, sizeof r);
  return r;
#endif
}
ZKP_HD double from_bits(std::int64_t b) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(b);
#else
  double r;
  std::memcpy(&r, &b, sizeof r);
  return r;
#endif
}
ZKP_HD double fma_rn(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
// a + b and a − b in round-to-nearest, never contracted with a neighbouring product.
ZKP_HD double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  volatile double r = a + b;  // volatile: keep the host compiler from fusing or reassociating
  return r;
#endif
}
ZKP_HD double sub_rn(double a, double b) { return add_rn(a, -b); }
ZKP_HD double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  volatile double r = a * b;
  return r;
#endif
}

inline constexpr double kTwo48 = 281474976710656.0;                         // 2^48
inline constexpr double kTwoM48 = 1.0 / 281474976710656.0;                  // 2^−48
inline constexpr double kRound48 = 1.5 * 1267650600228229401496703205376.0;  // 1.5·2^100
inline constexpr double kToInt = 6755399441055744.0;                        // 1.5·2^52
inline constexpr std::int64_t kToIntBits = 0x4338000000000000LL;            // its bits
inline constexpr std::uint64_t kMask48 = (std::uint64_t{1} << 48) - 1;

// round(v / 2^48)·2^48 for |v| < 2^99: v lands in a binade whose ulp is 2^48.
ZKP_HD double round48(double v) { return sub_rn(add_rn(v, kRound48), kRound48); }
// An integer-valued double below 2^51 in magnitude as an int64, and back.
ZKP_HD std::int64_t to_int(double v) { return bits_of(add_rn(v, kToInt)) - kToIntBits; }
ZKP_HD double to_double(std::int64_t i) { return sub_rn(from_bits(i + kToIntBits), kToInt); }

}  // namespace f64

template <class P>
class FpF64 {
 public:
  using Host = zkp::Fp<P>;
  static constexpr std::size_t kLimbs = 8;  // 48-bit limbs
  static_assert(Host::kLimbs == 6, "FpF64 is laid out for 384-bit fields (BLS12-381 Fq): R = 2^384 = 2^(8·48)");
  static_assert(Host::kBits <= 381, "the lazy bound needs p < R/8");

  double l[kLimbs];

  // From the 32-bit limbs of cuda::Fp / the 64-bit limbs of zkp::Fp (Montgomery form, < p).
  ZKP_HD static FpF64 from_limbs64(const std::uint64_t (&w)[6]) {
    FpF64 r;
ZKP_UNROLL
    for (std::size_t i = 0; i < kLimbs; ++i) {
      const std::size_t bit = 48 * i, word = bit / 64, shift = bit % 64;
      std::uint64_t v = w[word] >> shift;
      if (shift > 16 && word + 1 < 6) v |= w[word + 1] << (64 - shift);
      r.l[i] = f64::to_double(static_cast<std::int64_t>(v & f64::kMask48));
    }
    return r;
  }
  ZKP_HD static FpF64 from_limbs32(const std::uint32_t (&w)[12]) {
    std::uint64_t v[6];
ZKP_UNROLL
    for (std::size_t i = 0; i < 6; ++i) v[i] = w[2 * i] | (std::uint64_t{w[2 * i + 1]} << 32);
    return from_limbs64(v);
  }
  static FpF64 from_host(const Host& h) {
    std::uint64_t v[6];
    std::memcpy(v, &h, sizeof v);
    return from_limbs64(v);
  }

  // The value in [0, p) as 64-bit limbs (Montgomery form): signed limbs summed with
  // borrows, then p added or subtracted once.
  ZKP_HD void to_limbs64(std::uint64_t (&w)[6]) const {
    std::uint64_t acc[7] = {0, 0, 0, 0, 0, 0, 0};  // two's complement, 448 bits
ZKP_UNROLL
    for (std::size_t i = 0; i < kLimbs; ++i) {
      const std::int64_t li = f64::to_int(l[i]);
      const std::size_t bit = 48 * i, word = bit / 64, shift = bit % 64;
      // Add li·2^bit: its sign extension fills every word above.
      std::uint64_t add[7] = {0, 0, 0, 0, 0, 0, 0};
      const std::uint64_t ext = li < 0 ? ~std::uint64_t{0} : 0;
      add[word] = static_cast<std::uint64_t>(li) << shift;
      for (std::size_t k = word + 1; k < 7; ++k) add[k] = ext;
      if (shift != 0 && word + 1 < 7) add[word + 1] = (static_cast<std::uint64_t>(li) >> (64 - shift)) | (ext << shift);
      std::uint64_t carry = 0;
      for (std::size_t k = 0; k < 7; ++k) {
        const std::uint64_t s = acc[k] + add[k];
        const std::uint64_t c1 = s < acc[k];
        acc[k] = s + carry;
        carry = c1 | (acc[k] < s);
      }
    }
    // acc in (−p, p): add p when negative.
    if (static_cast<std::int64_t>(acc[6]) < 0) add_p(acc);
    std::uint64_t t[7];
    std::uint64_t borrow = 0;
    for (std::size_t k = 0; k < 7; ++k) {
      const std::uint64_t pk = k < 6 ? modulus_word(k) : 0;
      const std::uint64_t d = acc[k] - pk;
      const std::uint64_t b1 = acc[k] < pk;
      t[k] = d - borrow;
      borrow = b1 | (d < borrow);
    }
    const bool below_p = borrow != 0;
    for (std::size_t k = 0; k < 6; ++k) w[k] = below_p ? acc[k] : t[k];
  }
  Host to_host() const {
    std::uint64_t w[6];
    to_limbs64(w);
    Host h;
    std::memcpy(static_cast<void*>(&h), w, sizeof w);
    return h;
  }

  ZKP_HD friend FpF64 operator*(const FpF64& x, const FpF64& y) {
    double L[2 * kLimbs], H[2 * kLimbs];
ZKP_UNROLL
    for (std::size_t c = 0; c < 2 * kLimbs; ++c) L[c] = H[c] = 0;
ZKP_UNROLL
    for (std::size_t i = 0; i < kLimbs; ++i) {
ZKP_UNROLL
      for (std::size_t j = 0; j < kLimbs; ++j) accumulate(L, H, i + j, x.l[i], y.l[j]);
    }
    double carry = 0;
ZKP_UNROLL
    for (std::size_t c = 0; c < kLimbs; ++c) {
      double v = f64::add_rn(f64::fma_rn(H[c], f64::kTwoM48, L[c]), carry);
      const double low = f64::sub_rn(v, f64::round48(v));  // v mod 2^48, in [−2^47, 2^47]
      const std::uint64_t mu = (static_cast<std::uint64_t>(f64::to_int(low)) * kInv48) & f64::kMask48;
      const std::int64_t ms = static_cast<std::int64_t>(mu) - (mu >> 47 ? static_cast<std::int64_t>(1) << 48 : 0);
      const double m = f64::to_double(ms);
      // Column c gets m·p0's low part and becomes a multiple of 2^48; its high part and
      // the rest of m·p go to the columns above.
      double hs0, lo0;
      split(m, modulus_limb(0), hs0, lo0);
      v = f64::add_rn(v, lo0);
      H[c + 1] = f64::add_rn(H[c + 1], hs0);
ZKP_UNROLL
      for (std::size_t j = 1; j < kLimbs; ++j) accumulate(L, H, c + j, m, modulus_limb(j));
      carry = f64::mul_rn(v, f64::kTwoM48);
    }
    FpF64 r;
ZKP_UNROLL
    for (std::size_t i = 0; i < kLimbs; ++i) {
      const std::size_t c = kLimbs + i;
      const double v = f64::add_rn(f64::fma_rn(H[c], f64::kTwoM48, L[c]), carry);
      if (i + 1 < kLimbs) {
        const double q = f64::round48(v);
        r.l[i] = f64::sub_rn(v, q);
        carry = f64::mul_rn(q, f64::kTwoM48);
      } else {
        r.l[i] = v;
      }
    }
    return r;
  }

 private:
  static constexpr std::uint64_t kInv48 = Host::kInv & f64::kMask48;  // −p^−1 mod 2^48

  // p's 64-bit words through a local constexpr copy: the host's static member is not
  // addressable from device code.
  ZKP_HD_CONSTEXPR static std::uint64_t modulus_word(std::size_t k) {
    constexpr auto m = Host::kModulus;
    return m.limbs[k];
  }

  ZKP_HD_CONSTEXPR static double modulus_limb(std::size_t i) {
    const std::size_t bit = 48 * i, word = bit / 64, shift = bit % 64;
    std::uint64_t v = modulus_word(word) >> shift;
    if (shift > 16 && word + 1 < 6) v |= modulus_word(word + 1) << (64 - shift);
    return static_cast<double>(v & f64::kMask48);  // a constant: folded at compile time
  }

  ZKP_HD static void split(double a, double b, double& hs, double& lo) {
    const double hi = f64::fma_rn(a, b, f64::kRound48);
    hs = f64::sub_rn(hi, f64::kRound48);
    lo = f64::fma_rn(a, b, -hs);
  }
  ZKP_HD static void accumulate(double (&L)[2 * kLimbs], double (&H)[2 * kLimbs], std::size_t c, double a, double b) {
    double hs, lo;
    split(a, b, hs, lo);
    L[c] = f64::add_rn(L[c], lo);
    H[c + 1] = f64::add_rn(H[c + 1], hs);
  }

  ZKP_HD static void add_p(std::uint64_t (&acc)[7]) {
    std::uint64_t carry = 0;
    for (std::size_t k = 0; k < 7; ++k) {
      const std::uint64_t pk = k < 6 ? modulus_word(k) : 0;
      const std::uint64_t s = acc[k] + pk;
      const std::uint64_t c1 = s < acc[k];
      acc[k] = s + carry;
      carry = c1 | (acc[k] < s);
    }
  }
};

}  // namespace zkp::cuda
