// Affine<C>: a point (x, y) with an explicit infinity flag.
//
// The exchange format: zkey bases, proof points, and the input of mixed additions.
// Coordinates are field elements (Montgomery form in memory); the point at infinity has
// infinity = true and x = y = 0, so that its byte encoding is all zeros as in snarkjs.
#pragma once

#include "core/ec/curve.hpp"

namespace zkp {

template <CurveParams C>
struct Affine {
  using Curve = C;
  using Field = typename C::Field;

  Field x{}, y{};
  bool infinity = true;

  static constexpr Affine identity() { return {}; }
  static constexpr Affine generator() { return {C::kGenX, C::kGenY, false}; }
  // (x, y) as given; check is_on_curve() before trusting outside input.
  static constexpr Affine from_xy(const Field& x, const Field& y) { return {x, y, false}; }

  constexpr bool is_identity() const { return infinity; }

  // y² = x³ + b; the identity counts as on the curve.
  constexpr bool is_on_curve() const { return infinity || y.square() == x.square() * x + C::kB; }

  constexpr Affine operator-() const { return infinity ? *this : Affine{x, -y, false}; }

  friend constexpr bool operator==(const Affine& a, const Affine& b) {
    if (a.infinity || b.infinity) return a.infinity == b.infinity;
    return a.x == b.x && a.y == b.y;
  }
};

}  // namespace zkp
