// Kernel 1 of the MSM: scalars → (bucket key, signed base reference) pairs, one pair per
// scalar and window, ready for the radix sort that groups them by bucket.
//
// Each thread takes one scalar (32 bytes, little-endian, standard form, any 256-bit value):
//   reduce mod r (at most ⌊2^256/r⌋ = 5 subtractions, BN254);
//   fold the sign: s > (r − 1)/2 becomes r − s with the base negated, so |s| < 2^(b−1);
//   recode in balanced base 2^c, digits d_w ∈ [−2^(c−1), 2^(c−1)], carrying upward;
//   window w = g·F + f: key = g·2^(c−1) + |d_w| − 1, reference = (f·N + i) | sign << 31,
//   where copy f of the bases holds 2^(c·f)·P_i (msm/precompute.cuh).
// A zero digit gets the sentinel key G·2^(c−1), which sorts after every bucket: the
// accumulation stops at the count of non-zero digits, so scalars 0 and 1 cost (almost)
// nothing beyond this kernel and the sort.
//
// The per-scalar work is a host-and-device function (the emulation tests run it on the
// CPU); the kernel adds the warp's non-zero counts into one atomic.
#pragma once

#include <cstdint>

#include "cuda/ff/fp.cuh"
#include "cuda/msm/plan.hpp"

namespace zkp::cuda::msm {

inline constexpr std::uint32_t kNegBit = 0x80000000u;
inline constexpr std::size_t kScalarLimbs = 8;  // 256-bit scalars, 32-bit limbs
using ScalarLimbs = std::uint32_t[kScalarLimbs];

struct DigitShape {
  std::uint32_t n;         // scalars in this call
  std::uint32_t stride;    // N: resident bases, the distance between copies of the table
  std::uint32_t c;
  std::uint32_t windows;   // W
  std::uint32_t copies;    // F
  std::uint32_t half;      // 2^(c−1)
  std::uint32_t sentinel;  // G·2^(c−1)
};

inline DigitShape digit_shape(const Plan& plan, std::size_t n) {
  return {static_cast<std::uint32_t>(n), static_cast<std::uint32_t>(plan.bases), plan.c, plan.windows, plan.copies,
          plan.half, plan.sentinel_key()};
}

namespace detail {

// s −= r when s ≥ r; returns whether it subtracted.
template <class Fr>
ZKP_HD bool sub_modulus_if_not_below(ScalarLimbs& s) {
  static_assert(Fr::kLimbs == kScalarLimbs);
  std::uint32_t t[kScalarLimbs];
  t[0] = ptx::sub_cc(s[0], Fr::modulus_limb(0));
  ZKP_UNROLL
  for (std::size_t i = 1; i < kScalarLimbs; ++i) t[i] = ptx::subc_cc(s[i], Fr::modulus_limb(i));
  const bool below = ptx::subc(0, 0) != 0;
  ZKP_UNROLL
  for (std::size_t i = 0; i < kScalarLimbs; ++i) s[i] = below ? s[i] : t[i];
  return !below;
}

// (r − 1)/2, limb i (r is odd, so this is r >> 1).
template <class Fr>
ZKP_HD_CONSTEXPR std::uint32_t half_modulus_limb(std::size_t i) {
  const std::uint32_t lo = Fr::modulus_limb(i) >> 1;
  const std::uint32_t hi = i + 1 < kScalarLimbs ? Fr::modulus_limb(i + 1) << 31 : 0;
  return lo | hi;
}

// s > (r − 1)/2 becomes r − s; returns whether it did (the base is then negated).
template <class Fr>
ZKP_HD bool fold_sign(ScalarLimbs& s) {
  std::uint32_t d[kScalarLimbs];  // (r − 1)/2 − s: borrows exactly when s is above half
  d[0] = ptx::sub_cc(half_modulus_limb<Fr>(0), s[0]);
  ZKP_UNROLL
  for (std::size_t k = 1; k < kScalarLimbs; ++k) d[k] = ptx::subc_cc(half_modulus_limb<Fr>(k), s[k]);
  const bool above = ptx::subc(0, 0) != 0;
  d[0] = ptx::sub_cc(Fr::modulus_limb(0), s[0]);
  ZKP_UNROLL
  for (std::size_t k = 1; k < kScalarLimbs; ++k) d[k] = ptx::subc_cc(Fr::modulus_limb(k), s[k]);
  ZKP_UNROLL
  for (std::size_t k = 0; k < kScalarLimbs; ++k) s[k] = above ? d[k] : s[k];
  return above;
}

// c bits of s starting at bit `pos` (0 past the top); c ≤ 31. The limb selection is
// unrolled so the scalar stays in registers.
ZKP_HD std::uint32_t window_bits(const ScalarLimbs& s, std::uint32_t pos, std::uint32_t c) {
  const std::uint32_t idx = pos / 32, sh = pos % 32;
  std::uint32_t lo = 0, hi = 0;
  ZKP_UNROLL
  for (std::uint32_t k = 0; k < kScalarLimbs; ++k) {
    lo = k == idx ? s[k] : lo;
    hi = k == idx + 1 ? s[k] : hi;
  }
  const std::uint64_t pair = (std::uint64_t{hi} << 32) | lo;
  return static_cast<std::uint32_t>(pair >> sh) & ((1u << c) - 1);
}

}  // namespace detail

// The scalar of base i (its 8 limbs in `raw`) → W (key, reference) pairs at
// keys/refs[w·n + slot]: slot = i on the plain path, the scalar's rank among the selected
// ones on the compacted path (msm/trivial.cuh). Returns the number of non-zero digits.
template <class Fr>
ZKP_HD std::uint32_t signed_digits(std::uint32_t slot_index, std::uint32_t i, const ScalarLimbs& raw,
                                   const DigitShape& shape, std::uint32_t* keys, std::uint32_t* refs) {
  ScalarLimbs s;
  ZKP_UNROLL
  for (std::size_t k = 0; k < kScalarLimbs; ++k) s[k] = raw[k];
  while (detail::sub_modulus_if_not_below<Fr>(s)) {
  }
  const bool neg = detail::fold_sign<Fr>(s);
  std::uint32_t carry = 0, count = 0;
  for (std::uint32_t w = 0; w < shape.windows; ++w) {
    // Balanced digit: raw ∈ [0, 2^c]; above 2^(c−1) it becomes raw − 2^c and carries one.
    const std::uint32_t v = detail::window_bits(s, w * shape.c, shape.c) + carry;
    carry = v > shape.half ? 1 : 0;
    const std::uint32_t mag = carry != 0 ? 2 * shape.half - v : v;
    const std::uint32_t group = w / shape.copies, copy = w % shape.copies;
    const std::size_t slot = std::size_t{w} * shape.n + slot_index;
    keys[slot] = mag == 0 ? shape.sentinel : group * shape.half + mag - 1;
    refs[slot] = (copy * shape.stride + i) | ((carry != 0) != neg ? kNegBit : 0u);
    count += mag != 0 ? 1 : 0;
  }
  return count;
}

#if defined(__CUDACC__)

inline constexpr unsigned kDigitThreads = 256;

template <class Fr>
__global__ void __launch_bounds__(kDigitThreads)
    signed_digits_kernel(const uint4* __restrict__ scalars, DigitShape shape, std::uint32_t* __restrict__ keys,
                         std::uint32_t* __restrict__ refs, std::uint32_t* __restrict__ nonzero) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  std::uint32_t count = 0;
  if (i < shape.n) {
    const uint4 lo = scalars[2 * i], hi = scalars[2 * i + 1];
    const ScalarLimbs raw = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
    count = signed_digits<Fr>(i, i, raw, shape, keys, refs);
  }
  // One atomic per warp (every lane reaches this: no early return above).
  for (int off = 16; off > 0; off /= 2) count += __shfl_down_sync(0xffffffffu, count, off);
  if ((threadIdx.x & 31) == 0 && count != 0) atomicAdd(nonzero, count);
}

#endif

}  // namespace zkp::cuda::msm
