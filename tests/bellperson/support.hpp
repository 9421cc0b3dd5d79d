// Helpers of the tests/bellperson suites: hex text, multiples of the generators, and points of
// E(Fq) / E'(Fq2) outside the prime-order subgroup.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/ec/curves_bls12_381.hpp"

namespace zkp::bellperson::test {

using bls12_381::Fq;
using bls12_381::Fq2;
using bls12_381::G1;
using bls12_381::G2;

inline std::vector<std::uint8_t> from_hex(std::string_view s) {
  if (s.size() % 2 != 0) throw std::invalid_argument("odd hex length");
  const auto nibble = [](char c) -> std::uint8_t {
    if (c >= '0' && c <= '9') return static_cast<std::uint8_t>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<std::uint8_t>(c - 'a' + 10);
    throw std::invalid_argument("not a lower-case hex digit");
  };
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < s.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(nibble(s[i]) << 4 | nibble(s[i + 1])));
  return out;
}

inline std::string to_hex(const std::uint8_t* p, std::size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(kDigits[p[i] >> 4]);
    out.push_back(kDigits[p[i] & 15]);
  }
  return out;
}

// [first]G, [first + 1]G, ..., n points.
template <class C>
std::vector<Affine<C>> multiples(std::size_t n, std::uint64_t first = 1) {
  std::vector<Affine<C>> out;
  Jacobian<C> p = scalar_mul(Jacobian<C>::generator(), BigInt<1>::from_u64(first));
  for (std::size_t i = 0; i < n; ++i, p += Affine<C>::generator()) out.push_back(p.to_affine());
  return out;
}

// The first x = k (G1) or k + u (G2), k = 1, 2, ..., with a point on the curve outside the
// subgroup: almost every one, since the cofactors are large.
template <class C>
Affine<C> off_subgroup_point() {
  for (std::uint64_t k = 1;; ++k) {
    typename C::Field x;
    if constexpr (std::is_same_v<C, G1>)
      x = Fq::from_u64(k);
    else
      x = Fq2{Fq::from_u64(k), Fq::one()};
    const auto y = (x.square() * x + C::kB).sqrt();
    if (!y) continue;
    const Affine<C> p = Affine<C>::from_xy(x, *y);
    if (!bls12_381::in_prime_subgroup(p)) return p;
  }
}

// An x whose x³ + b has no square root: on no point of the curve.
template <class C>
typename C::Field x_off_curve() {
  for (std::uint64_t k = 1;; ++k) {
    typename C::Field x;
    if constexpr (std::is_same_v<C, G1>)
      x = Fq::from_u64(k);
    else
      x = Fq2{Fq::from_u64(k), Fq::one()};
    if (!(x.square() * x + C::kB).sqrt()) return x;
  }
}

}  // namespace zkp::bellperson::test
