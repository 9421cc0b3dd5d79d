// The XYZZ point formulas, written once for the host (zkp::Xyzz, core/ec/xyzz.hpp) and the
// device (zkp::cuda::Xyzz, cuda/ec/xyzz.cuh): under nvcc they are __host__ __device__, so the
// CPU MSM and the GPU buckets run the same lines, as sppark's point types do.
//
// Each formula is generic over the point type P: an aggregate {X, Y, ZZ, ZZZ} of a field
// type with one(), dbl(), square(), is_zero(), +, - and *, plus P::identity() and
// p.is_identity(). The two types differ only in their identity's X and Y (the host's is
// (1, 1, 0, 0), the device's all zero bytes); both test ZZ alone.
//
// Explicit-Formulas Database, "XYZZ coordinates for short Weierstrass curves"
// (https://hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html), with a = 0:
//   add-2008-s    12M + 2S
//   madd-2008-s    8M + 2S   (second operand affine)
//   mmadd-2008-s   4M + 2S   (both operands affine)
//   dbl-2008-s-1   6M + 3S   (EFD: 6M + 4S + 1·a; the a·ZZ1² term vanishes)
//   mdbl-2008-s-1  4M + 3S   (operand affine)
// The EFD additions are incomplete: each detects P = Q (→ doubling) and P = −Q (→ infinity),
// which a bucket meets whenever the same base is added twice or cancels out.
#pragma once

#if defined(__CUDACC__)
#define ZKP_XYZZ_FORMULA __host__ __device__ __forceinline__ constexpr
#else
#define ZKP_XYZZ_FORMULA constexpr
#endif

namespace zkp::xyzz {

// dbl-2008-s-1, a = 0: 6M + 3S.
template <class P>
ZKP_XYZZ_FORMULA P dbl(const P& p) {
  if (p.is_identity()) return p;
  const auto U = p.Y.dbl();
  const auto V = U.square();
  const auto W = U * V;
  const auto S = p.X * V;
  const auto X2 = p.X.square();
  const auto M = X2.dbl() + X2;
  const auto X3 = M.square() - S.dbl();
  return P{X3, M * (S - X3) - W * p.Y, V * p.ZZ, W * p.ZZZ};
}

// mdbl-2008-s-1, a = 0: 4M + 3S, doubling the affine point (x, y), which is not infinity.
template <class P, class F>
ZKP_XYZZ_FORMULA P dbl_affine(const F& x, const F& y) {
  const F U = y.dbl();
  const F V = U.square();
  const F W = U * V;
  const F S = x * V;
  const F X2 = x.square();
  const F M = X2.dbl() + X2;
  const F X3 = M.square() - S.dbl();
  return P{X3, M * (S - X3) - W * y, V, W};
}

// add-2008-s: 12M + 2S.
template <class P>
ZKP_XYZZ_FORMULA P add(const P& p, const P& q) {
  if (p.is_identity()) return q;
  if (q.is_identity()) return p;
  const auto U1 = p.X * q.ZZ;
  const auto U2 = q.X * p.ZZ;
  const auto S1 = p.Y * q.ZZZ;
  const auto S2 = q.Y * p.ZZZ;
  const auto D = U2 - U1;
  const auto R = S2 - S1;
  if (D.is_zero()) return R.is_zero() ? dbl(p) : P::identity();
  const auto DD = D.square();
  const auto DDD = D * DD;
  const auto Q = U1 * DD;
  const auto X3 = R.square() - DDD - Q.dbl();
  return P{X3, R * (Q - X3) - S1 * DDD, p.ZZ * q.ZZ * DD, p.ZZZ * q.ZZZ * DDD};
}

// madd-2008-s: 8M + 2S, adding the affine point (x, y), which is not infinity.
template <class P, class F>
ZKP_XYZZ_FORMULA P add_affine(const P& p, const F& x, const F& y) {
  if (p.is_identity()) return P{x, y, F::one(), F::one()};
  const F U2 = x * p.ZZ;
  const F S2 = y * p.ZZZ;
  const F D = U2 - p.X;
  const F R = S2 - p.Y;
  if (D.is_zero()) return R.is_zero() ? dbl_affine<P>(x, y) : P::identity();
  const F DD = D.square();
  const F DDD = D * DD;
  const F Q = p.X * DD;
  const F X3 = R.square() - DDD - Q.dbl();
  return P{X3, R * (Q - X3) - p.Y * DDD, p.ZZ * DD, p.ZZZ * DDD};
}

// mmadd-2008-s: 4M + 2S, the sum of the affine points (x1, y1) and (x2, y2), neither infinity.
template <class P, class F>
ZKP_XYZZ_FORMULA P add_two_affine(const F& x1, const F& y1, const F& x2, const F& y2) {
  const F D = x2 - x1;
  const F R = y2 - y1;
  if (D.is_zero()) return R.is_zero() ? dbl_affine<P>(x1, y1) : P::identity();
  const F DD = D.square();
  const F DDD = D * DD;
  const F Q = x1 * DD;
  const F X3 = R.square() - DDD - Q.dbl();
  return P{X3, R * (Q - X3) - y1 * DDD, DD, DDD};
}

}  // namespace zkp::xyzz
