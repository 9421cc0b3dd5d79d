// cuda::Xyzz<C>: the device twin of zkp::Xyzz<C> (provers/core/ec/xyzz.hpp), the bucket
// representation of the MSM: (X, Y, ZZ, ZZZ) for (X/ZZ, Y/ZZZ), ZZ³ = ZZZ², ZZ = 0 at
// infinity. Same layout as the host type (the device identity is all-zero bytes, which the
// host also reads as infinity since it tests ZZ alone), so bucket sums copy back as is.
//
// The formulas are written once, in core/ec/xyzz_formulas.hpp (__host__ __device__), for
// this type and the host's, so the two agree bit for bit (tests/cuda checks it).
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

  // The formulas are core/ec/xyzz_formulas.hpp's, the same lines the host's zkp::Xyzz runs.
  ZKP_HD Xyzz dbl() const { return xyzz::dbl(*this); }
  // Doubling the affine point (x, y): 4M + 3S.
  ZKP_HD static Xyzz dbl_xy(const Field& x, const Field& y) { return xyzz::dbl_affine<Xyzz>(x, y); }
  ZKP_HD Xyzz operator+(const Xyzz& q) const { return xyzz::add(*this, q); }
  // Adding the affine point (x, y), which must not be infinity: 8M + 2S (the bucket step).
  ZKP_HD Xyzz add_xy(const Field& x, const Field& y) const { return xyzz::add_affine(*this, x, y); }

  ZKP_HD Xyzz add_mixed(const Affine<C>& q) const { return q.infinity ? *this : add_xy(q.x, q.y); }
  ZKP_HD Xyzz add_mixed(const PointXY<C>& q) const { return q.is_infinity() ? *this : add_xy(q.x, q.y); }
};

template <CurveParams C>
inline constexpr bool kSameXyzzLayout = sizeof(Xyzz<C>) == sizeof(zkp::Xyzz<C>) &&
                                        alignof(Xyzz<C>) == alignof(zkp::Xyzz<C>) &&
                                        std::is_trivially_copyable_v<Xyzz<C>>;

}  // namespace zkp::cuda
