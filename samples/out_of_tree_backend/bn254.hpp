// BN254 (snarkjs "bn128"): the base field Fq, the scalar field Fr, Fq2 = Fq[u]/(u^2 + 1),
// and the curve y^2 = x^3 + b over Fq (G1) and Fq2 (G2) in Jacobian coordinates, with the
// one multi-scalar multiplication this backend needs, written as plainly as it can be.
#pragma once

#include "field.hpp"

#include <span>
#include <vector>

namespace ref {

struct FqParams {  // 21888242871839275222246405745257275088696311157297823662689037894645226208583
  static constexpr Limbs modulus = {0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d, 0x30644e72e131a029};
};
struct FrParams {  // 21888242871839275222246405745257275088548364400416034343698204186575808495617
  static constexpr Limbs modulus = {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d, 0x30644e72e131a029};
};
using Fq = Field<FqParams>;
using Fr = Field<FrParams>;

struct Fq2 {
  Fq c0, c1;  // c0 + c1 u, u^2 = -1
  static Fq2 zero() { return {}; }
  static Fq2 one() { return {Fq::one(), Fq::zero()}; }
  bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  bool operator==(const Fq2& o) const { return c0 == o.c0 && c1 == o.c1; }
  Fq2 operator+(const Fq2& o) const { return {c0 + o.c0, c1 + o.c1}; }
  Fq2 operator-(const Fq2& o) const { return {c0 - o.c0, c1 - o.c1}; }
  Fq2 operator-() const { return {-c0, -c1}; }
  Fq2 operator*(const Fq2& o) const { return {c0 * o.c0 - c1 * o.c1, c0 * o.c1 + c1 * o.c0}; }
  // 1/(a + bu) = (a - bu)/(a^2 + b^2).
  Fq2 inverse() const {
    const Fq d = (c0 * c0 + c1 * c1).inverse();
    return {c0 * d, -(c1 * d)};
  }
};

inline Fq inverse(const Fq& x) { return x.inverse(); }
inline Fq2 inverse(const Fq2& x) { return x.inverse(); }

// An affine point; `infinity` stands for the point at infinity (x, y unused).
template <class F>
struct Affine {
  F x, y;
  bool infinity = true;
};

// A Jacobian point (X/Z^2, Y/Z^3) on y^2 = x^3 + b; Z = 0 is the point at infinity.
// Formulas for a = 0 from the Explicit-Formulas Database (hyperelliptic.org/EFD, g1p/shortw/jacobian-0).
template <class F>
struct Point {
  F x = F::one(), y = F::one(), z = F::zero();

  static Point from(const Affine<F>& a) { return a.infinity ? Point{} : Point{a.x, a.y, F::one()}; }
  bool is_infinity() const { return z.is_zero(); }

  // dbl-2009-l: 2M + 5S.
  Point doubled() const {
    if (is_infinity()) return *this;
    const F a = x * x, b = y * y, c = b * b;
    const F t = x + b;
    F d = t * t - a - c;
    d = d + d;
    const F e = a + a + a, f = e * e;
    Point r;
    r.x = f - (d + d);
    const F c8 = c + c, c4x2 = c8 + c8;
    r.y = e * (d - r.x) - (c4x2 + c4x2);
    const F yz = y * z;
    r.z = yz + yz;
    return r;
  }

  // add-2007-bl: 11M + 5S; the equal-points and opposite-points cases handled explicitly.
  Point operator+(const Point& q) const {
    if (is_infinity()) return q;
    if (q.is_infinity()) return *this;
    const F z1z1 = z * z, z2z2 = q.z * q.z;
    const F u1 = x * z2z2, u2 = q.x * z1z1;
    const F s1 = y * q.z * z2z2, s2 = q.y * z * z1z1;
    const F h = u2 - u1, rr = s2 - s1;
    if (h.is_zero()) return rr.is_zero() ? doubled() : Point{};
    const F h2 = h + h, i = h2 * h2, j = h * i;
    const F r = rr + rr, v = u1 * i;
    Point out;
    out.x = r * r - j - (v + v);
    const F s1j = s1 * j;
    out.y = r * (v - out.x) - (s1j + s1j);
    const F zz = z + q.z;
    out.z = (zz * zz - z1z1 - z2z2) * h;
    return out;
  }

  Affine<F> to_affine() const {
    if (is_infinity()) return {};
    const F zi = inverse(z), zi2 = zi * zi;
    return {x * zi2, y * zi2 * zi, false};
  }
};

using G1 = Point<Fq>;
using G2 = Point<Fq2>;

// k * p for a standard-form scalar k: double and add from the top bit.
template <class F>
Point<F> mul(const Point<F>& p, const Limbs& k) {
  Point<F> r;
  for (int i = 255; i >= 0; --i) {
    r = r.doubled();
    if (bit(k, i)) r = r + p;
  }
  return r;
}

// Σ k_i * P_i, bit-serial: one shared chain of 256 doublings, and for each bit the points whose
// scalar has it set. Quadratic in nothing, linear in the points; slow next to Pippenger
// (zkpipe's cpu prover), but short enough to check by reading.
template <class F>
Point<F> msm(std::span<const Affine<F>> points, std::span<const Limbs> scalars) {
  Point<F> acc;
  for (int i = 255; i >= 0; --i) {
    acc = acc.doubled();
    for (size_t j = 0; j < points.size(); ++j) {
      if (bit(scalars[j], i) && !points[j].infinity) acc = acc + Point<F>::from(points[j]);
    }
  }
  return acc;
}

}  // namespace ref
