// Xyzz<C>: extended Jacobian (X, Y, ZZ, ZZZ) representing (X/ZZ, Y/ZZZ) with ZZ³ = ZZZ²;
// ZZ = ZZZ = 0 is the point at infinity. The representation for Pippenger buckets: a
// mixed addition costs 8M + 2S against 7M + 4S in Jacobian, and an affine + affine
// addition (a bucket's first point) only 4M + 2S.
//
// Formulas from the Explicit-Formulas Database, "XYZZ coordinates for short Weierstrass
// curves" (https://hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html), with a = 0:
//   add-2008-s    12M + 2S
//   madd-2008-s   8M + 2S   (second operand affine)
//   mmadd-2008-s  4M + 2S   (both operands affine)
//   dbl-2008-s-1  6M + 3S   (EFD: 6M + 4S + 1·a; the a·ZZ1² term vanishes)
//   mdbl-2008-s-1 4M + 3S   (operand affine)
// Additions detect P = Q (→ doubling) and P = −Q (→ infinity), which a bucket meets
// whenever the same base is added twice or cancels out.
#pragma once

#include "core/ec/affine.hpp"
#include "core/ec/curve.hpp"
#include "core/ec/jacobian.hpp"

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

  // dbl-2008-s-1 with a = 0, 6M + 3S.
  constexpr Xyzz dbl() const {
    if (is_identity()) return *this;
    const Field U = Y.dbl();
    const Field V = U.square();
    const Field W = U * V;
    const Field S = X * V;
    const Field M = X.square().template mul_small<3>();
    const Field X3 = M.square() - S.dbl();
    return {X3, M * (S - X3) - W * Y, V * ZZ, W * ZZZ};
  }

  // mdbl-2008-s-1 with a = 0, 4M + 3S: doubling an affine point.
  static constexpr Xyzz dbl_affine(const Affine<C>& p) {
    if (p.infinity) return identity();
    const Field U = p.y.dbl();
    const Field V = U.square();
    const Field W = U * V;
    const Field S = p.x * V;
    const Field M = p.x.square().template mul_small<3>();
    const Field X3 = M.square() - S.dbl();
    return {X3, M * (S - X3) - W * p.y, V, W};
  }

  // add-2008-s, 12M + 2S.
  constexpr Xyzz operator+(const Xyzz& q) const {
    if (is_identity()) return q;
    if (q.is_identity()) return *this;
    const Field U1 = X * q.ZZ;
    const Field U2 = q.X * ZZ;
    const Field S1 = Y * q.ZZZ;
    const Field S2 = q.Y * ZZZ;
    const Field P = U2 - U1;
    const Field R = S2 - S1;
    if (P.is_zero()) return R.is_zero() ? dbl() : identity();
    const Field PP = P.square();
    const Field PPP = P * PP;
    const Field Q = U1 * PP;
    const Field X3 = R.square() - PPP - Q.dbl();
    return {X3, R * (Q - X3) - S1 * PPP, ZZ * q.ZZ * PP, ZZZ * q.ZZZ * PPP};
  }

  // madd-2008-s, 8M + 2S.
  constexpr Xyzz add_mixed(const Affine<C>& q) const {
    if (q.infinity) return *this;
    if (is_identity()) return from_affine(q);
    const Field U2 = q.x * ZZ;
    const Field S2 = q.y * ZZZ;
    const Field P = U2 - X;
    const Field R = S2 - Y;
    if (P.is_zero()) return R.is_zero() ? dbl_affine(q) : identity();
    const Field PP = P.square();
    const Field PPP = P * PP;
    const Field Q = X * PP;
    const Field X3 = R.square() - PPP - Q.dbl();
    return {X3, R * (Q - X3) - Y * PPP, ZZ * PP, ZZZ * PPP};
  }

  // mmadd-2008-s, 4M + 2S: the sum of two affine points.
  static constexpr Xyzz add_affine(const Affine<C>& p, const Affine<C>& q) {
    if (p.infinity) return from_affine(q);
    if (q.infinity) return from_affine(p);
    const Field P = q.x - p.x;
    const Field R = q.y - p.y;
    if (P.is_zero()) return R.is_zero() ? dbl_affine(p) : identity();
    const Field PP = P.square();
    const Field PPP = P * PP;
    const Field Q = p.x * PP;
    const Field X3 = R.square() - PPP - Q.dbl();
    return {X3, R * (Q - X3) - p.y * PPP, PP, PPP};
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
