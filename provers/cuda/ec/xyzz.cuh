// cuda::Xyzz<C>: the device twin of zkp::Xyzz<C> (provers/core/ec/xyzz.hpp), the bucket
// representation of the MSM: (X, Y, ZZ, ZZZ) for (X/ZZ, Y/ZZZ), ZZ³ = ZZZ², ZZ = 0 at
// infinity. Same layout as the host type (the device identity is all-zero bytes, which the
// host also reads as infinity since it tests ZZ alone), so bucket sums copy back as is.
//
// Formulas: Explicit-Formulas Database, "XYZZ coordinates for short Weierstrass curves"
// (https://hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html), a = 0, line for line as the
// host's, so the two agree bit for bit (tests/cuda checks it):
//   add-2008-s    12M + 2S
//   madd-2008-s    8M + 2S   (second operand affine: the bucket accumulation step)
//   dbl-2008-s-1   6M + 3S   (the a·ZZ1² term vanishes)
//   mdbl-2008-s-1  4M + 3S   (operand affine)
// The EFD formulas are incomplete: additions detect P = Q (→ doubling) and P = −Q
// (→ infinity). Both happen in real buckets (a base repeated, or cancelling itself).
#pragma once

#include <type_traits>

#include "cuda/ec/affine.cuh"
#include "cuda/util/hd.cuh"
#include "core/ec/xyzz.hpp"

namespace zkp::cuda {

template <CurveParams C>
struct Xyzz {
  using Curve = C;
  using Field = DeviceField<typename C::Field>;
  Field X, Y, ZZ, ZZZ;

  ZKP_HD static Xyzz identity() { return {Field::zero(), Field::zero(), Field::zero(), Field::zero()}; }
  ZKP_HD static Xyzz from_xy(const Field& x, const Field& y) { return {x, y, Field::one(), Field::one()}; }
  ZKP_HD static Xyzz from_affine(const Affine<C>& p) { return p.infinity ? identity() : from_xy(p.x, p.y); }

  ZKP_HD bool is_identity() const { return ZZ.is_zero(); }
  ZKP_HD Xyzz operator-() const { return {X, -Y, ZZ, ZZZ}; }

  // dbl-2008-s-1, a = 0: 6M + 3S.
  ZKP_HD Xyzz dbl() const {
    if (is_identity()) return *this;
    const Field U = Y.dbl();
    const Field V = U.square();
    const Field W = U * V;
    const Field S = X * V;
    const Field X2 = X.square();
    const Field M = X2.dbl() + X2;
    const Field X3 = M.square() - S.dbl();
    return {X3, M * (S - X3) - W * Y, V * ZZ, W * ZZZ};
  }

  // mdbl-2008-s-1, a = 0: 4M + 3S, doubling the affine point (x, y).
  ZKP_HD static Xyzz dbl_xy(const Field& x, const Field& y) {
    const Field U = y.dbl();
    const Field V = U.square();
    const Field W = U * V;
    const Field S = x * V;
    const Field X2 = x.square();
    const Field M = X2.dbl() + X2;
    const Field X3 = M.square() - S.dbl();
    return {X3, M * (S - X3) - W * y, V, W};
  }

  // add-2008-s: 12M + 2S.
  ZKP_HD Xyzz operator+(const Xyzz& q) const {
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

  // madd-2008-s: 8M + 2S, adding the affine point (x, y), which must not be infinity.
  ZKP_HD Xyzz add_xy(const Field& x, const Field& y) const {
    if (is_identity()) return from_xy(x, y);
    const Field U2 = x * ZZ;
    const Field S2 = y * ZZZ;
    const Field P = U2 - X;
    const Field R = S2 - Y;
    if (P.is_zero()) return R.is_zero() ? dbl_xy(x, y) : identity();
    const Field PP = P.square();
    const Field PPP = P * PP;
    const Field Q = X * PP;
    const Field X3 = R.square() - PPP - Q.dbl();
    return {X3, R * (Q - X3) - Y * PPP, ZZ * PP, ZZZ * PPP};
  }

  ZKP_HD Xyzz add_mixed(const Affine<C>& q) const { return q.infinity ? *this : add_xy(q.x, q.y); }
  ZKP_HD Xyzz add_mixed(const PointXY<C>& q) const { return q.is_infinity() ? *this : add_xy(q.x, q.y); }
};

template <CurveParams C>
inline constexpr bool kSameXyzzLayout = sizeof(Xyzz<C>) == sizeof(zkp::Xyzz<C>) &&
                                        alignof(Xyzz<C>) == alignof(zkp::Xyzz<C>) &&
                                        std::is_trivially_copyable_v<Xyzz<C>>;

}  // namespace zkp::cuda
