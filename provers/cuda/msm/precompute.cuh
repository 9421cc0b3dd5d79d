// The resident table: copy f (f < F) of the N bases holds 2^(c·f)·P_i, so that windows
// g·F + f of every scalar add into one bucket group g (msm/plan.hpp). Copy 0 is the upload
// itself; copy f is c doublings of copy f − 1 (dbl-2008-s-1), made affine with one Fermat
// inversion of ZZ·ZZZ per point. A one-off cost when the proving key is loaded.
#pragma once

#include <cstdint>

#include "cuda/ec/xyzz.cuh"

namespace zkp::cuda::msm {

template <CurveParams C>
ZKP_HD PointXY<C> to_xy(const Xyzz<C>& p) {
  using F = typename Xyzz<C>::Field;
  if (p.is_identity()) return {F::zero(), F::zero()};  // the zkey encoding of infinity
  const F t = (p.ZZ * p.ZZZ).inverse();                 // 1/ZZ = ZZZ·t, 1/ZZZ = ZZ·t
  return {p.X * p.ZZZ * t, p.Y * p.ZZ * t};
}

// Base i's copies 1 .. copies − 1 into table[f·n + i], from copy 0 at table[i].
template <CurveParams C>
ZKP_HD void precompute_base(std::uint32_t i, PointXY<C>* table, std::uint32_t n, std::uint32_t c, std::uint32_t copies) {
  const PointXY<C> p = table[i];
  Xyzz<C> acc = p.is_infinity() ? Xyzz<C>::identity() : Xyzz<C>::from_xy(p.x, p.y);
  for (std::uint32_t f = 1; f < copies; ++f) {
    for (std::uint32_t k = 0; k < c; ++k) acc = acc.dbl();
    table[std::size_t{f} * n + i] = to_xy(acc);
  }
}

#if defined(__CUDACC__)

inline constexpr unsigned kPrecomputeThreads = 128;

template <CurveParams C>
__global__ void __launch_bounds__(kPrecomputeThreads)
    precompute_kernel(PointXY<C>* table, std::uint32_t n, std::uint32_t c, std::uint32_t copies) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) precompute_base(i, table, n, c, copies);
}

#endif

}  // namespace zkp::cuda::msm
