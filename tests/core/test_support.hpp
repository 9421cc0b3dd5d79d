// Helpers shared by the tests/core suites: turning the decimal strings of
// known_vectors.hpp into field elements and points, and the per-field / per-curve
// case lists for typed tests.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/ec/affine.hpp"
#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/curves_bn254.hpp"
#include "known_vectors.hpp"

namespace zkp::test {

template <class F>
F fe(std::string_view dec) {
  const auto v = F::from_decimal(dec);
  if (!v) throw std::invalid_argument("test vector is not a canonical field element: " + std::string(dec));
  return *v;
}

template <class Fq2>
Fq2 fe2(const std::array<std::string_view, 2>& c) {
  return {fe<typename Fq2::Base>(c[0]), fe<typename Fq2::Base>(c[1])};
}

// A field element from a G1 (decimal) or G2 ({c0, c1}) vector coordinate.
template <class F, class Coord>
F coord(const Coord& c) {
  if constexpr (std::is_same_v<Coord, test_vectors::G1Coord>) return fe<F>(c);
  else return fe2<F>(c);
}

template <class C, class Coord>
Affine<C> point(const test_vectors::PointVector<Coord>& v) {
  return Affine<C>::from_xy(coord<typename C::Field>(v.x), coord<typename C::Field>(v.y));
}

}  // namespace zkp::test
