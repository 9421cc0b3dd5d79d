// Jacobian<C>: (X, Y, Z) representing (X/Z², Y/Z³); Z = 0 is the point at infinity.
//
// Formulas from the Explicit-Formulas Database, "Jacobian coordinates with a4 = 0 for short
// Weierstrass curves" (https://hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html);
// M = multiplication, S = squaring in the coordinate field, small constants done by additions.
//   dbl-2009-l   2M + 5S
//   add-2007-bl  11M + 5S
//   madd-2007-bl 7M + 4S  (second operand affine)
// The EFD formulas are not complete: add/madd detect P = Q (→ dbl) and P = −Q (→ infinity).
#pragma once

#include "core/ec/affine.hpp"
#include "core/ec/curve.hpp"

namespace zkp {

template <CurveParams C>
struct Jacobian {
  using Curve = C;
  using Field = typename C::Field;

  Field X = Field::one(), Y = Field::one(), Z{};

  static constexpr Jacobian identity() { return {}; }
  static constexpr Jacobian generator() { return from_affine(Affine<C>::generator()); }
  static constexpr Jacobian from_affine(const Affine<C>& p) {
    if (p.infinity) return identity();
    return {p.x, p.y, Field::one()};
  }

  constexpr bool is_identity() const { return Z.is_zero(); }

  // Y² = X³ + b·Z⁶.
  constexpr bool is_on_curve() const {
    if (is_identity()) return true;
    const Field z2 = Z.square();
    return Y.square() == X.square() * X + C::kB * (z2.square() * z2);
  }

  // One inversion; prefer batch_to_affine for many points.
  constexpr Affine<C> to_affine() const {
    if (is_identity()) return Affine<C>::identity();
    const Field zi = Z.inverse();
    const Field zi2 = zi.square();
    return Affine<C>::from_xy(X * zi2, Y * zi2 * zi);
  }

  constexpr Jacobian operator-() const { return {X, -Y, Z}; }

  // dbl-2009-l, 2M + 5S. Stays at infinity when Z = 0 (Z3 = 2·Y1·Z1).
  constexpr Jacobian dbl() const {
    const Field A = X.square();
    const Field B = Y.square();
    const Field Cc = B.square();
    const Field D = ((X + B).square() - A - Cc).dbl();
    const Field E = A.template mul_small<3>();
    const Field F = E.square();
    const Field X3 = F - D.dbl();
    return {X3, E * (D - X3) - Cc.template mul_small<8>(), (Y * Z).dbl()};
  }

  // add-2007-bl, 11M + 5S.
  constexpr Jacobian operator+(const Jacobian& q) const {
    if (is_identity()) return q;
    if (q.is_identity()) return *this;
    const Field Z1Z1 = Z.square();
    const Field Z2Z2 = q.Z.square();
    const Field U1 = X * Z2Z2;
    const Field U2 = q.X * Z1Z1;
    const Field S1 = Y * q.Z * Z2Z2;
    const Field S2 = q.Y * Z * Z1Z1;
    const Field H = U2 - U1;
    const Field r = (S2 - S1).dbl();
    if (H.is_zero()) return r.is_zero() ? dbl() : identity();  // same x: P = Q or P = −Q
    const Field I = H.dbl().square();
    const Field J = H * I;
    const Field V = U1 * I;
    const Field X3 = r.square() - J - V.dbl();
    return {X3, r * (V - X3) - (S1 * J).dbl(), ((Z + q.Z).square() - Z1Z1 - Z2Z2) * H};
  }

  // madd-2007-bl, 7M + 4S: the accumulate step of an MSM over affine bases.
  constexpr Jacobian add_mixed(const Affine<C>& q) const {
    if (q.infinity) return *this;
    if (is_identity()) return from_affine(q);
    const Field Z1Z1 = Z.square();
    const Field U2 = q.x * Z1Z1;
    const Field S2 = q.y * Z * Z1Z1;
    const Field H = U2 - X;
    const Field r = (S2 - Y).dbl();
    if (H.is_zero()) return r.is_zero() ? dbl() : identity();
    const Field HH = H.square();
    const Field I = HH.dbl().dbl();
    const Field J = H * I;
    const Field V = X * I;
    const Field X3 = r.square() - J - V.dbl();
    return {X3, r * (V - X3) - (Y * J).dbl(), (Z + H).square() - Z1Z1 - HH};
  }

  constexpr Jacobian operator-(const Jacobian& q) const { return *this + (-q); }
  constexpr Jacobian& operator+=(const Jacobian& q) { return *this = *this + q; }
  constexpr Jacobian& operator-=(const Jacobian& q) { return *this = *this - q; }
  constexpr Jacobian& operator+=(const Affine<C>& q) { return *this = add_mixed(q); }

  // Same point: X1·Z2² = X2·Z1² and Y1·Z2³ = Y2·Z1³ (4M + 2S), or both at infinity.
  friend constexpr bool operator==(const Jacobian& a, const Jacobian& b) {
    if (a.is_identity() || b.is_identity()) return a.is_identity() == b.is_identity();
    const Field za2 = a.Z.square(), zb2 = b.Z.square();
    return a.X * zb2 == b.X * za2 && a.Y * zb2 * b.Z == b.Y * za2 * a.Z;
  }
};

}  // namespace zkp
