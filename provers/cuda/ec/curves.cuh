// The device point types of both curves' G1 and G2, checked against the host layouts.
#pragma once

#include <cstring>

#include "cuda/ec/affine.cuh"
#include "cuda/ec/xyzz.cuh"
#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/curves_bn254.hpp"

namespace zkp::cuda {

static_assert(kSameAffineLayout<zkp::bn254::G1> && kSameAffineLayout<zkp::bn254::G2>);
static_assert(kSameAffineLayout<zkp::bls12_381::G1> && kSameAffineLayout<zkp::bls12_381::G2>);
static_assert(kSameXyzzLayout<zkp::bn254::G1> && kSameXyzzLayout<zkp::bn254::G2>);
static_assert(kSameXyzzLayout<zkp::bls12_381::G1> && kSameXyzzLayout<zkp::bls12_381::G2>);

// Host ↔ device conversions: the layouts are equal, so these are byte copies.
template <CurveParams C>
zkp::Xyzz<C> to_host(const Xyzz<C>& p) {
  zkp::Xyzz<C> h;
  std::memcpy(static_cast<void*>(&h), &p, sizeof(h));
  return h;
}
template <CurveParams C>
Xyzz<C> to_device(const zkp::Xyzz<C>& h) {
  Xyzz<C> p;
  std::memcpy(static_cast<void*>(&p), &h, sizeof(p));
  return p;
}
template <CurveParams C>
Affine<C> to_device(const zkp::Affine<C>& h) {
  Affine<C> p;
  std::memcpy(static_cast<void*>(&p), &h, sizeof(p));
  return p;
}

}  // namespace zkp::cuda
