// The resident table: copy f (f < F) of the N bases holds 2^(c·f)·P_i, so that windows
// g·F + f of every scalar add into one bucket group g (msm/plan.hpp). Copy 0 is the upload
// itself; copy f is c doublings of copy f − 1 (dbl-2008-s-1), made affine. A one-off cost when
// the proving key is loaded.
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

// Copies made affine with one inversion (Montgomery's trick): a Fermat inversion costs ≈ 460
// Fq products at BLS12-381, against ≈ 200 for a copy's 22 doublings, so one inversion per copy
// made it 70% of the precomputation (6 s per 2^24 BLS12-381 section on the H200). A batch runs
// over one base's consecutive copies, all in its own thread: no communication, and the
// batch's scratch (two field elements per copy) stays in the thread's local memory.
inline constexpr std::uint32_t kPrecomputeBatch = 16;

// Base i's copies 1 .. copies − 1 into table[f·n + i], from copy 0 at table[i]. A copy in the
// batch is first written as (X·ZZZ, Y·ZZ) and later multiplied by its 1/(ZZ·ZZZ): the table
// holds it meanwhile, so only d = ZZ·ZZZ and the prefix products stay in the thread.
template <CurveParams C>
ZKP_HD void precompute_base(std::uint32_t i, PointXY<C>* table, std::uint32_t n, std::uint32_t c, std::uint32_t copies) {
  using F = typename Xyzz<C>::Field;
  const PointXY<C> p = table[i];
  Xyzz<C> acc = p.is_infinity() ? Xyzz<C>::identity() : Xyzz<C>::from_xy(p.x, p.y);
  F d[kPrecomputeBatch], before[kPrecomputeBatch];  // per copy: ZZ·ZZZ, the product of the earlier d
  for (std::uint32_t first = 1; first < copies; first += kPrecomputeBatch) {
    const std::uint32_t last = first + kPrecomputeBatch < copies ? first + kPrecomputeBatch : copies;
    F run = F::one();
    for (std::uint32_t f = first; f < last; ++f) {
      for (std::uint32_t k = 0; k < c; ++k) acc = acc.dbl();
      PointXY<C>& out = table[std::size_t{f} * n + i];
      // Infinity only from a base at infinity (or, with key checks off, of small order): it
      // keeps d = 1 in the chain and (0, 0) in the table, which the multiply below leaves.
      const bool infinity = acc.is_identity();
      out = infinity ? PointXY<C>{F::zero(), F::zero()} : PointXY<C>{acc.X * acc.ZZZ, acc.Y * acc.ZZ};
      d[f - first] = infinity ? F::one() : acc.ZZ * acc.ZZZ;
      before[f - first] = run;
      run = run * d[f - first];
    }
    F t = run.inverse();  // 1/(d_first · … · d_last−1)
    for (std::uint32_t f = last; f-- > first;) {
      const F inv = t * before[f - first];  // 1/d_f
      t = t * d[f - first];
      PointXY<C>& out = table[std::size_t{f} * n + i];
      out = {out.x * inv, out.y * inv};
    }
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
