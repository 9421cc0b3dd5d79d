// Device twins of the host's affine point types, byte for byte:
//   cuda::Affine<C>  ↔ zkp::Affine<C>   (x, y, bool infinity; test and exchange type)
//   cuda::PointXY<C> ↔ zkp::msm::Base<C> (x, y; (0, 0) is infinity: the zkey layout the
//                                         MSM bases are uploaded in)
// C is the host curve descriptor (zkp::bn254::G1, ...); the coordinate field is its
// device twin. Plain aggregates (no constructors), so device arrays of them need no
// initialisation and a memcpy from the host types is the whole conversion.
#pragma once

#include <cstddef>
#include <type_traits>

#include "cuda/ff/fields.cuh"
#include "cuda/util/hd.cuh"
#include "core/ec/affine.hpp"
#include "core/msm/bucket_sum.hpp"

namespace zkp::cuda {

template <CurveParams C>
struct Affine {
  using Curve = C;
  using Field = DeviceField<typename C::Field>;
  Field x, y;
  bool infinity;

  ZKP_HD static Affine identity() { return {Field::zero(), Field::zero(), true}; }
  ZKP_HD Affine operator-() const { return {x, infinity ? y : -y, infinity}; }
};

template <CurveParams C>
struct PointXY {
  using Curve = C;
  using Field = DeviceField<typename C::Field>;
  Field x, y;

  ZKP_HD bool is_infinity() const { return x.is_zero() && y.is_zero(); }
};

template <CurveParams C>
inline constexpr bool kSameAffineLayout =
    sizeof(Affine<C>) == sizeof(zkp::Affine<C>) && alignof(Affine<C>) == alignof(zkp::Affine<C>) &&
    offsetof(Affine<C>, infinity) == offsetof(zkp::Affine<C>, infinity) &&
    sizeof(PointXY<C>) == sizeof(zkp::msm::PointXY<typename C::Field>) && std::is_trivially_copyable_v<Affine<C>> &&
    std::is_trivially_copyable_v<PointXY<C>>;

}  // namespace zkp::cuda
