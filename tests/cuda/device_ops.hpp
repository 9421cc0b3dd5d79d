// Launchers for the element-wise device kernels the field and curve tests compare with
// the host (device_ops_*.cu). Plain C++ interface: host types in, host types out, always
// spelled zkp::Xyzz / zkp::Affine (inside zkp::cuda the short names are the device twins).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "core/ec/affine.hpp"
#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/curves_bn254.hpp"
#include "core/ec/xyzz.hpp"

namespace zkp::cuda::test {

// Field results for inputs a[i], b[i] (host field type F: Fp or Fp2).
template <class F>
struct FieldResults {
  std::vector<F> mul, sqr, add, sub, neg, dbl, inv;
};
template <class F>
FieldResults<F> device_field_ops(int gpu, std::span<const F> a, std::span<const F> b);

// Curve results for XYZZ inputs p[i], q[i] and affine a[i].
template <CurveParams C>
struct CurveResults {
  std::vector<zkp::Xyzz<C>> add, dbl, madd;
};
template <CurveParams C>
CurveResults<C> device_curve_ops(int gpu, std::span<const zkp::Xyzz<C>> p, std::span<const zkp::Xyzz<C>> q,
                                 std::span<const zkp::Affine<C>> a);

// BLS12-381 Fq products on the FP64 pipe (cuda/ff/fp_f64.cuh): a[i]·b[i]^chain.
std::vector<zkp::bls12_381::Fq> device_f64_products(int gpu, std::span<const zkp::bls12_381::Fq> a,
                                                    std::span<const zkp::bls12_381::Fq> b, unsigned chain);

}  // namespace zkp::cuda::test
