// Montgomery arithmetic on N-limb integers modulo a compile-time prime p.
//
// Elements are kept as a·R mod p with R = 2^(64N), always fully reduced to [0, p),
// so equality is limb equality and serialisation needs no extra step.
//
// Multiplication is product scanning with interleaved reduction, "FIPS" in Koç, Acar,
// Kaliski, "Analyzing and Comparing Montgomery Multiplication Algorithms" (IEEE Micro
// 1996): column k of a·b + m·p is summed into one three-word accumulator, the Montgomery
// digit m_k is chosen to clear its low word, and the accumulator shifts down one word.
// Each of the 2N² word products costs MUL + ADD/ADC/ADC, one flags chain, with the N
// digits m_k and three accumulator words the only live values: no spills at N = 4 or 6
// (objdump, GCC 12 -O3). The CIOS form this file used before needs two interleaved carry
// chains per row, which portable C++ cannot keep in the flags register; measured side by
// side it was 1.5–1.7× slower (bench_ff; docs/PERF-CPU.md, "Field arithmetic").
//
// The spare top bit (p < R/2, all four zkpipe moduli have 1–3 spare bits) plays the
// role of gnark-crypto's "no-carry" condition (Botrel, El Housni, TCHES 2023/3): the
// result before the final subtraction is (ab + mp)/R < 2p < R, so it fits in N words
// and the accumulator's top words are dropped at the end without a check.
//
// Squaring is the same product with both operands equal. A dedicated product-scanning
// square (each a_i·a_j, i < j, once and doubled) saves N(N−1)/2 MULs but not time here:
// the doubled terms cost as many additions as the MULs they replace, and the loop is
// bound by instruction throughput (measured: ±5% of mul(a, a) for N = 4 and 6).
//
// The modulus and −p^{−1} mod 2^64 are template arguments so that they become
// immediates in the generated code. Loops have constant trip counts and are fully
// unrolled by `#pragma GCC unroll` (honoured by GCC and Clang); the kernels are
// always_inline so that the scalarised limbs stay in registers across call sites.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/ff/bigint.hpp"

// ZKPIPE_X86_ADX (CMake option, default ON on x86-64) compiles in the MULX/ADX kernels
// beside the portable ones and picks one at run time (cpu_features.hpp); nvcc's host pass
// and other targets get the portable kernels only.
#if defined(ZKPIPE_X86_ADX) && defined(__x86_64__) && !defined(__CUDACC__)
#define ZKPIPE_MONT_ADX_DISPATCH 1
#include <type_traits>

#include "core/ff/cpu_features.hpp"
#include "core/ff/mont_x86_adx.hpp"
#endif

namespace zkp::mont {

constexpr std::uint64_t lo64(uint128_t v) { return static_cast<std::uint64_t>(v); }
constexpr std::uint64_t hi64(uint128_t v) { return static_cast<std::uint64_t>(v >> 64); }

// −p^{−1} mod 2^64 for odd p0 (Newton–Hensel: each step doubles the correct low bits, 1 → 64).
constexpr std::uint64_t neg_inv64(std::uint64_t p0) {
  std::uint64_t x = 1;
  for (int i = 0; i < 6; ++i) x *= 2 - p0 * x;
  return ~x + 1;
}

// True when p < R/2 with room to spare, the bound the kernels below rely on (header comment).
template <std::size_t N>
constexpr bool has_spare_bit(const BigInt<N>& p) {
  return p.limbs[N - 1] < (std::uint64_t{1} << 63) - 1;
}

// c ? x : y without a branch: CMOV from GCC's ternary; Clang turns a ternary over limb
// arrays into a select of addresses and a reload (a store-forwarding stall, 2× slower
// measured), so it gets the mask form, which it keeps in registers.
[[gnu::always_inline]] constexpr std::uint64_t select(std::uint64_t c, std::uint64_t x, std::uint64_t y) {
#if defined(__clang__)
  return y ^ ((x ^ y) & (0 - c));
#else
  return c != 0 ? x : y;
#endif
}

// The kernels below compute into local word arrays and write the result BigInt once at
// the end: a returned BigInt may be constructed in place in the caller's memory, and carry
// chains that wrote into it would have to respect whatever that memory may alias.

// t − p if t ≥ p, else t, into out. Requires t < 2p < 2^(64N). Branch-free select.
template <std::size_t N>
[[gnu::always_inline]] constexpr void reduce_once_into(const std::uint64_t (&t)[N], const BigInt<N>& p,
                                                       BigInt<N>& out) {
  std::uint64_t s[N];
  std::uint64_t borrow = 0;
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) s[i] = sub_borrow(t[i], p.limbs[i], borrow);
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) out.limbs[i] = select(borrow, t[i], s[i]);  // borrow: t < p
}

// a + b mod p for a, b < p.
template <std::size_t N, BigInt<N> P>
[[gnu::always_inline]] constexpr BigInt<N> add(const BigInt<N>& a, const BigInt<N>& b) {
  std::uint64_t t[N];
  std::uint64_t c = 0;  // stays 0: a + b < 2p < 2^(64N) by the spare bit
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) t[i] = add_carry(a.limbs[i], b.limbs[i], c);
  BigInt<N> r;
  reduce_once_into(t, P, r);
  return r;
}

// a − b mod p for a, b < p. Computes a − b and a − b + p as two separate carry chains
// and selects: masking p by the borrow inside the second chain would put ANDs between
// its ADCs, which GCC then cannot keep in the flags (measured 3–4× slower).
template <std::size_t N, BigInt<N> P>
[[gnu::always_inline]] constexpr BigInt<N> sub(const BigInt<N>& a, const BigInt<N>& b) {
  std::uint64_t d[N], w[N];
  std::uint64_t borrow = 0, c = 0;
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) d[i] = sub_borrow(a.limbs[i], b.limbs[i], borrow);
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) w[i] = add_carry(d[i], P.limbs[i], c);
  BigInt<N> r;
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) r.limbs[i] = select(borrow, w[i], d[i]);  // borrow: a < b
  return r;
}

// (c2:c1:c0) += x·y. The caller keeps the sum below 2^192.
[[gnu::always_inline]] constexpr void mul_acc3(std::uint64_t x, std::uint64_t y, std::uint64_t& c0, std::uint64_t& c1,
                                               std::uint64_t& c2) {
  const uint128_t p = uint128_t{x} * y;
  std::uint64_t k = 0;
  c0 = add_carry(c0, lo64(p), k);
  c1 = add_carry(c1, hi64(p), k);
  c2 = add_carry(c2, 0, k);  // not c2 += k: GCC would SETB and MOVZX the carry instead of one ADC
}

#if defined(ZKPIPE_MONT_ADX_DISPATCH)
// p, −p^{−1} mod 2^64 and a zero word, in memory for the assembly kernels.
template <std::size_t N, BigInt<N> P, std::uint64_t Inv>
inline constexpr std::array<std::uint64_t, N + 2> kAdxConstants = [] {
  std::array<std::uint64_t, N + 2> m{};
  for (std::size_t i = 0; i < N; ++i) m[i] = P.limbs[i];
  m[N] = Inv;
  return m;
}();
template <std::size_t N>
inline constexpr bool kHasAdxKernel = N == 4 || N == 6;
#endif

// a·b·R^{−1} mod p for a, b < p, by the portable kernel. N² + N² word products (multiply,
// reduce). mul() below is this or the MULX/ADX kernel; tests call both by name.
template <std::size_t N, BigInt<N> P, std::uint64_t Inv>
[[gnu::always_inline]] constexpr BigInt<N> mul_portable(const BigInt<N>& a, const BigInt<N>& b) {
  static_assert(has_spare_bit(P), "the N-word result bound needs the top limb of p below 2^63 - 1");
  BigInt<N> t;
  std::uint64_t r[N];  // result words (see reduce_once_into)
  std::uint64_t m[N];  // Montgomery digits, one per low column
  std::uint64_t c0 = 0, c1 = 0, c2 = 0;
  // Columns 0..N−1: add a_j·b_{k−j} and m_j·p_{k−j}, then pick m_k to clear the low word.
#pragma GCC unroll 8
  for (std::size_t k = 0; k < N; ++k) {
#pragma GCC unroll 8
    for (std::size_t j = 0; j < k; ++j) {
      mul_acc3(a.limbs[j], b.limbs[k - j], c0, c1, c2);
      mul_acc3(m[j], P.limbs[k - j], c0, c1, c2);
    }
    mul_acc3(a.limbs[k], b.limbs[0], c0, c1, c2);
    m[k] = c0 * Inv;
    mul_acc3(m[k], P.limbs[0], c0, c1, c2);  // c0 becomes 0
    c0 = c1;
    c1 = c2;
    c2 = 0;
  }
  // Columns N..2N−2 give the result words; the last column's carry is the top word.
#pragma GCC unroll 8
  for (std::size_t k = N; k + 1 < 2 * N; ++k) {
#pragma GCC unroll 8
    for (std::size_t j = k - N + 1; j < N; ++j) {
      mul_acc3(a.limbs[j], b.limbs[k - j], c0, c1, c2);
      mul_acc3(m[j], P.limbs[k - j], c0, c1, c2);
    }
    r[k - N] = c0;
    c0 = c1;
    c1 = c2;
    c2 = 0;
  }
  r[N - 1] = c0;  // c1 = 0: the result is below 2p < 2^(64N) (spare bit)
  reduce_once_into(r, P, t);
  return t;
}

#if defined(ZKPIPE_MONT_ADX_DISPATCH)
// The same product by the MULX/ADX assembly (N = 4 or 6; run time only). Needs BMI2 + ADX.
template <std::size_t N, BigInt<N> P, std::uint64_t Inv>
  requires kHasAdxKernel<N>
[[gnu::always_inline]] inline BigInt<N> mul_adx(const BigInt<N>& a, const BigInt<N>& b) {
  BigInt<N> t;
  std::uint64_t r[N];
  x86::mul_adx<N>(r, a.limbs.data(), b.limbs.data(), kAdxConstants<N, P, Inv>.data());
  reduce_once_into(r, P, t);
  return t;
}
#endif

// a·b·R^{−1} mod p for a, b < p. With ZKPIPE_MONT_ADX_DISPATCH the MULX/ADX kernel when the
// CPU has it: the test is use_adx_kernels(), one load and a predicted branch inlined into
// each product (cpu_features.hpp), no call and no indirect jump.
template <std::size_t N, BigInt<N> P, std::uint64_t Inv>
[[gnu::always_inline]] constexpr BigInt<N> mul(const BigInt<N>& a, const BigInt<N>& b) {
#if defined(ZKPIPE_MONT_ADX_DISPATCH)
  if constexpr (kHasAdxKernel<N>) {
    if (!std::is_constant_evaluated() && use_adx_kernels()) return mul_adx<N, P, Inv>(a, b);
  }
#endif
  return mul_portable<N, P, Inv>(a, b);
}

// a²·R^{−1} mod p for a < p (see the header comment for why it is the product).
template <std::size_t N, BigInt<N> P, std::uint64_t Inv>
[[gnu::always_inline]] constexpr BigInt<N> sqr(const BigInt<N>& a) {
  return mul<N, P, Inv>(a, a);
}

// 2^k mod p by repeated modular doubling; compile-time use only (k up to a few hundred).
template <std::size_t N>
constexpr BigInt<N> pow2_mod(const BigInt<N>& p, std::size_t k) {
  BigInt<N> x = BigInt<N>::from_u64(1);
  for (std::size_t i = 0; i < k; ++i) {
    const std::uint64_t carry = x.add_in_place(x);
    if (carry != 0 || x >= p) x.sub_in_place(p);
  }
  return x;
}

}  // namespace zkp::mont
