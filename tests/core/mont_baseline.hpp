// The Montgomery kernels zkpipe used before the product-scanning rewrite of
// provers/core/ff/montgomery.hpp (no-carry CIOS multiply, SOS square, masked add/sub, all
// on 128-bit sums), kept verbatim for two jobs: bench_ff times them side by side with the
// current kernels in one binary (docs/PERF-CPU.md, "Field arithmetic"), and mont_test
// uses them as a second, independently written reference. Not for production use.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/ff/bigint.hpp"

namespace zkp::test::mont_baseline {

constexpr std::uint64_t lo64(uint128_t v) { return static_cast<std::uint64_t>(v); }
constexpr std::uint64_t hi64(uint128_t v) { return static_cast<std::uint64_t>(v >> 64); }

// The old carry helpers: plain 128-bit sums (what GCC 12 compiled to register pairs).
constexpr std::uint64_t add_carry(std::uint64_t a, std::uint64_t b, std::uint64_t& carry) {
  const uint128_t s = uint128_t{a} + b + carry;
  carry = static_cast<std::uint64_t>(s >> 64);
  return static_cast<std::uint64_t>(s);
}
constexpr std::uint64_t sub_borrow(std::uint64_t a, std::uint64_t b, std::uint64_t& borrow) {
  const uint128_t d = uint128_t{a} - b - borrow;
  borrow = static_cast<std::uint64_t>(d >> 127);
  return static_cast<std::uint64_t>(d);
}
template <std::size_t N>
constexpr std::uint64_t add_in_place(BigInt<N>& x, const BigInt<N>& b) {
  std::uint64_t c = 0;
  for (std::size_t i = 0; i < N; ++i) x.limbs[i] = add_carry(x.limbs[i], b.limbs[i], c);
  return c;
}
template <std::size_t N>
constexpr std::uint64_t sub_in_place(BigInt<N>& x, const BigInt<N>& b) {
  std::uint64_t br = 0;
  for (std::size_t i = 0; i < N; ++i) x.limbs[i] = sub_borrow(x.limbs[i], b.limbs[i], br);
  return br;
}

// t − p if t ≥ p, else t. Requires t < 2p < 2^(64N). Branch-free select.
template <std::size_t N>
constexpr void reduce_once(BigInt<N>& t, const BigInt<N>& p) {
  BigInt<N> s = t;
  const std::uint64_t keep = 0 - sub_in_place(s, p);  // all ones if t < p
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) t.limbs[i] = (t.limbs[i] & keep) | (s.limbs[i] & ~keep);
}

// a + b mod p for a, b < p.
template <std::size_t N, BigInt<N> P>
constexpr BigInt<N> add(const BigInt<N>& a, const BigInt<N>& b) {
  BigInt<N> t = a;
  add_in_place(t, b);  // no carry out: a + b < 2p < 2^(64N) by the spare bit
  reduce_once(t, P);
  return t;
}

// a − b mod p for a, b < p.
template <std::size_t N, BigInt<N> P>
constexpr BigInt<N> sub(const BigInt<N>& a, const BigInt<N>& b) {
  BigInt<N> t = a;
  const std::uint64_t mask = 0 - sub_in_place(t, b);  // all ones if a < b
  std::uint64_t c = 0;
#pragma GCC unroll 8
  for (std::size_t i = 0; i < N; ++i) t.limbs[i] = add_carry(t.limbs[i], P.limbs[i] & mask, c);
  return t;
}

// a·b·R^{−1} mod p for a, b < p. N² + N² word products (multiply, reduce).
template <std::size_t N, BigInt<N> P, std::uint64_t Inv>
constexpr BigInt<N> mul(const BigInt<N>& a, const BigInt<N>& b) {
  BigInt<N> t;
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

}  // namespace zkp::test::mont_baseline
