// Montgomery arithmetic on N-limb integers modulo a compile-time prime p.
//
// Elements are kept as a·R mod p with R = 2^(64N), always fully reduced to [0, p),
// so equality is limb equality and serialisation needs no extra step.
//
// Multiplication is CIOS (coarsely integrated operand scanning; Koç, Acar, Kaliski,
// "Analyzing and Comparing Montgomery Multiplication Algorithms", IEEE Micro 1996)
// with the "no-carry" shortcut of gnark-crypto (Botrel, El Housni, "Faster Montgomery
// multiplication and multi-scalar-multiplication for SNARKs", TCHES 2023 issue 3):
// when the top limb of p is below 2^63 − 1, the running sum fits in N words plus the
// two word carries, so textbook CIOS's extra (N+1)-th and (N+2)-th words and their
// additions disappear. All four zkpipe moduli qualify (spare top bits: 2, 2, 3, 1).
// Squaring uses separated operand scanning: N(N+1)/2 partial products instead of N²,
// then N reduction rounds (Koç et al. "SOS").
//
// The modulus and −p^{−1} mod 2^64 are template arguments so that they become
// immediates in the generated code. Loops have constant trip counts and are fully
// unrolled by `#pragma GCC unroll` (honoured by GCC and Clang).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"

#if defined(ZKPIPE_X86_ADX)
#include <type_traits>

#include "ff/mont_x86_adx.hpp"
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

// True when the no-carry CIOS of this file is valid for p (see the header comment).
template <std::size_t N>
constexpr bool has_spare_bit(const BigInt<N>& p) {
  return p.limbs[N - 1] < (std::uint64_t{1} << 63) - 1;
}

// t − p if t ≥ p, else t. Requires t < 2p < 2^(64N). Branch-free select.
template <std::size_t N>
constexpr void reduce_once(BigInt<N>& t, const BigInt<N>& p) {
  BigInt<N> s = t;
  const std::uint64_t keep = 0 - s.sub_in_place(p);  // all ones if t < p
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) t.limbs[i] = (t.limbs[i] & keep) | (s.limbs[i] & ~keep);
}

// a + b mod p for a, b < p.
template <std::size_t N, BigInt<N> P>
constexpr BigInt<N> add(const BigInt<N>& a, const BigInt<N>& b) {
  BigInt<N> t = a;
  t.add_in_place(b);  // no carry out: a + b < 2p < 2^(64N) by the spare bit
  reduce_once(t, P);
  return t;
}

// a − b mod p for a, b < p.
template <std::size_t N, BigInt<N> P>
constexpr BigInt<N> sub(const BigInt<N>& a, const BigInt<N>& b) {
  BigInt<N> t = a;
  const std::uint64_t mask = 0 - t.sub_in_place(b);  // all ones if a < b
  std::uint64_t c = 0;
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) t.limbs[i] = add_carry(t.limbs[i], P.limbs[i] & mask, c);
  return t;
}

#if defined(ZKPIPE_X86_ADX)
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

// a·b·R^{−1} mod p for a, b < p. N² + N² word products (multiply, reduce).
template <std::size_t N, BigInt<N> P, std::uint64_t Inv>
constexpr BigInt<N> mul(const BigInt<N>& a, const BigInt<N>& b) {
  static_assert(has_spare_bit(P), "no-carry CIOS needs the top limb of p below 2^63 - 1");
  BigInt<N> t;
#if defined(ZKPIPE_X86_ADX)
  if constexpr (kHasAdxKernel<N>) {
    if (!std::is_constant_evaluated()) {
      x86::mul_adx<N>(t.limbs.data(), a.limbs.data(), b.limbs.data(), kAdxConstants<N, P, Inv>.data());
      reduce_once(t, P);
      return t;
    }
  }
#endif
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) {
    // Column 0: t0 + a0·bi, then pick m so that adding m·p clears the low word.
    uint128_t acc = uint128_t{a.limbs[0]} * b.limbs[i] + t.limbs[0];
    std::uint64_t carry_mul = hi64(acc);
    const std::uint64_t m = lo64(acc) * Inv;
    uint128_t red = uint128_t{m} * P.limbs[0] + lo64(acc);
    std::uint64_t carry_red = hi64(red);
#pragma GCC unroll 8
    for (std::size_t j = 1; j < N; ++j) {
      acc = uint128_t{a.limbs[j]} * b.limbs[i] + t.limbs[j] + carry_mul;
      carry_mul = hi64(acc);
      red = uint128_t{m} * P.limbs[j] + lo64(acc) + carry_red;
      carry_red = hi64(red);
      t.limbs[j - 1] = lo64(red);  // the division by 2^64 is this shift by one word
    }
    t.limbs[N - 1] = carry_red + carry_mul;  // cannot overflow: the no-carry bound
  }
  reduce_once(t, P);
  return t;
}

// a²·R^{−1} mod p for a < p. N(N+1)/2 + N² word products.
template <std::size_t N, BigInt<N> P, std::uint64_t Inv>
constexpr BigInt<N> sqr(const BigInt<N>& a) {
#if defined(ZKPIPE_X86_ADX)
  // The ADX product beats this portable squaring (measured; see bench_ff).
  if constexpr (kHasAdxKernel<N>) {
    if (!std::is_constant_evaluated()) return mul<N, P, Inv>(a, a);
  }
#endif
  std::array<std::uint64_t, 2 * N> t{};
  // Off-diagonal products a_i·a_j (i < j), each once.
#pragma GCC unroll 8
  for (std::size_t i = 0; i + 1 < N; ++i) {
    std::uint64_t c = 0;
#pragma GCC unroll 8
    for (std::size_t j = i + 1; j < N; ++j) {
      const uint128_t v = uint128_t{a.limbs[i]} * a.limbs[j] + t[i + j] + c;
      t[i + j] = lo64(v);
      c = hi64(v);
    }
    t[i + N] = c;
  }
  // Double them, then add the squares a_i² on the diagonal.
  t[2 * N - 1] = t[2 * N - 2] >> 63;
#pragma GCC unroll 16
  for (std::size_t k = 2 * N - 2; k > 0; --k) t[k] = (t[k] << 1) | (t[k - 1] >> 63);
  std::uint64_t c = 0;
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) {
    const uint128_t sq = uint128_t{a.limbs[i]} * a.limbs[i];
    t[2 * i] = add_carry(t[2 * i], lo64(sq), c);
    t[2 * i + 1] = add_carry(t[2 * i + 1], hi64(sq), c);
  }
  // N rounds of word-by-word Montgomery reduction; `top` carries into the next round's high word.
  std::uint64_t top = 0;
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) {
    const std::uint64_t m = t[i] * Inv;
    std::uint64_t cr = 0;
#pragma GCC unroll 8
    for (std::size_t j = 0; j < N; ++j) {
      const uint128_t v = uint128_t{m} * P.limbs[j] + t[i + j] + cr;
      t[i + j] = lo64(v);
      cr = hi64(v);
    }
    std::uint64_t c2 = top;
    t[i + N] = add_carry(t[i + N], cr, c2);
    top = c2;
  }
  BigInt<N> r;
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) r.limbs[i] = t[N + i];  // < 2p, so `top` is 0 here
  reduce_once(r, P);
  return r;
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
