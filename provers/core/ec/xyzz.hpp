// Xyzz<C>: extended Jacobian (X, Y, ZZ, ZZZ) representing (X/ZZ, Y/ZZZ) with ZZ³ = ZZZ²;
// ZZ = ZZZ = 0 is the point at infinity. The representation for Pippenger buckets: a
// mixed addition costs 8M + 2S against 7M + 4S in Jacobian, and an affine + affine
// addition (a bucket's first point) only 4M + 2S.
//
// The point formulas (EFD's XYZZ formulas with a = 0, and where each comes from) are in
// xyzz_formulas.hpp, shared with the device's bucket type.
#pragma once

#include "core/ec/affine.hpp"
#include "core/ec/curve.hpp"
#include "core/ec/jacobian.hpp"
#include "core/ec/xyzz_formulas.hpp"

namespace zkp {

template <CurveParams C>
struct Xyzz {
  using Curve = C;
  using Field = typename C::Field;

  Field X = Field::one(), Y = Field::one(), ZZ{}, ZZZ{};

  static constexpr Xyzz identity() { return {}; }
  static constexpr Xyzz from_affine(const Affine<C>& p) {
    if (p.infinity) return identity();
    return {p.x, p.y, Field::one(), Field::one()};
  }
  // (X, Y, Z) → (X, Y, Z², Z³): 1M + 1S.
  static constexpr Xyzz from_jacobian(const Jacobian<C>& p) {
    if (p.is_identity()) return identity();
    const Field z2 = p.Z.square();
    return {p.X, p.Y, z2, z2 * p.Z};
  }

  constexpr bool is_identity() const { return ZZ.is_zero(); }

  // (X·ZZ², Y·ZZZ², ZZZ) is the same point in Jacobian coordinates (Z = ZZZ/ZZ scaled by ZZ²
  // so no inversion is needed): 2M + 2S.
  constexpr Jacobian<C> to_jacobian() const {
    if (is_identity()) return Jacobian<C>::identity();
    return {X * ZZ.square(), Y * ZZZ.square(), ZZZ};
  }

  // One inversion of ZZ·ZZZ serves both: 1/ZZ = ZZZ/(ZZ·ZZZ), 1/ZZZ = ZZ/(ZZ·ZZZ).
  constexpr Affine<C> to_affine() const {
    if (is_identity()) return Affine<C>::identity();
    const Field t = (ZZ * ZZZ).inverse();
    return Affine<C>::from_xy(X * ZZZ * t, Y * ZZ * t);
  }

  constexpr Xyzz operator-() const { return {X, -Y, ZZ, ZZZ}; }

  // The formulas are core/ec/xyzz_formulas.hpp's, which the device's cuda::Xyzz runs too.
  constexpr Xyzz dbl() const { return xyzz::dbl(*this); }
  // Doubling an affine point: 4M + 3S.
  static constexpr Xyzz dbl_affine(const Affine<C>& p) {
    return p.infinity ? identity() : xyzz::dbl_affine<Xyzz>(p.x, p.y);
  }
  constexpr Xyzz operator+(const Xyzz& q) const { return xyzz::add(*this, q); }
  // Adding an affine point: 8M + 2S.
  constexpr Xyzz add_mixed(const Affine<C>& q) const {
    return q.infinity ? *this : xyzz::add_affine(*this, q.x, q.y);
  }
  // The sum of two affine points: 4M + 2S.
  static constexpr Xyzz add_affine(const Affine<C>& p, const Affine<C>& q) {
    if (p.infinity) return from_affine(q);
    if (q.infinity) return from_affine(p);
    return xyzz::add_two_affine<Xyzz>(p.x, p.y, q.x, q.y);
  }

  constexpr Xyzz operator-(const Xyzz& q) const { return *this + (-q); }
  constexpr Xyzz& operator+=(const Xyzz& q) { return *this = *this + q; }
  constexpr Xyzz& operator+=(const Affine<C>& q) { return *this = add_mixed(q); }
  // Subtracting an affine base, as signed-digit bucket methods do: madd with −q.
  constexpr Xyzz& operator-=(const Affine<C>& q) { return *this = add_mixed(-q); }

  // Same point: X1·ZZ2 = X2·ZZ1 and Y1·ZZZ2 = Y2·ZZZ1 (4M), or both at infinity.
  friend constexpr bool operator==(const Xyzz& a, const Xyzz& b) {
    if (a.is_identity() || b.is_identity()) return a.is_identity() == b.is_identity();
    return a.X * b.ZZ == b.X * a.ZZ && a.Y * b.ZZZ == b.Y * a.ZZZ;
  }
};

}  // namespace zkp
