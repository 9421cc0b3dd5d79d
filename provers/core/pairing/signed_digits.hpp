// Non-adjacent form (NAF) of the fixed loop lengths and exponents of the pairing, computed at
// compile time from the curve seed, so no bit string is copied by hand.
//
// The NAF k = Σ d_i·2^i, d_i ∈ {−1, 0, 1}, with no two adjacent non-zero digits, has the fewest
// non-zero digits of any signed binary form (Hankerson, Menezes, Vanstone, "Guide to Elliptic
// Curve Cryptography", Alg. 3.30). In a Miller loop each non-zero digit costs an addition step
// (−1 adds −Q, free to form); in a cyclotomic exponentiation, a multiplication by a or by
// ā = a⁻¹ (free to form). Example: 6x + 2 for BN254 has 37 one-bits but 22 non-zero NAF digits.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "core/ff/bigint.hpp"

namespace zkp {

template <std::size_t N>
struct SignedDigits {
  std::array<std::int8_t, N> digit{};  // most significant first; digit[0] = 1
  std::size_t size = 0;

  constexpr std::size_t nonzero_count() const {
    std::size_t n = 0;
    for (std::size_t i = 0; i < size; ++i) n += digit[i] != 0;
    return n;
  }
};

// NAF of k > 0, at most N digits (a NAF has at most one digit more than the binary form).
template <std::size_t N, std::size_t M>
constexpr SignedDigits<N> naf_digits(BigInt<M> k) {
  if (k.is_zero()) throw std::invalid_argument("naf_digits: k must be positive");
  BigInt<M + 1> v = k.template resize<M + 1>();  // headroom for the carry of a −1 digit
  std::array<std::int8_t, N> lsb_first{};
  std::size_t n = 0;
  while (!v.is_zero()) {
    if (n == N) throw std::invalid_argument("naf_digits: N too small");
    std::int8_t d = 0;
    if (v.is_odd()) {
      d = (v.limbs[0] & 3) == 1 ? 1 : -1;  // 2 − (v mod 4)
      if (d == 1) v.sub_in_place(BigInt<M + 1>::from_u64(1));
      else v.add_in_place(BigInt<M + 1>::from_u64(1));
    }
    lsb_first[n++] = d;
    v.shr1();
  }
  SignedDigits<N> out;
  out.size = n;
  for (std::size_t i = 0; i < n; ++i) out.digit[i] = lsb_first[n - 1 - i];
  return out;
}

}  // namespace zkp
