// The resident table: copy f (f < F) of the N bases holds 2^(c·f)·P_i, so that windows
// g·F + f of every scalar add into one bucket group g (msm/plan.hpp). Copy 0 is the upload
// itself; copy f is c doublings of copy f − 1, made affine. A one-off cost when
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
// Fq products at BLS12-381, against ≈ 150–200 for a copy's 22 doublings, so one inversion per
// copy made it 70% of the precomputation (6 s per 2^24 BLS12-381 section on the H200). A batch
// runs over one base's consecutive copies, all in its own thread: no communication, and the
// batch's scratch (two field elements per copy) stays in the thread's local memory.
inline constexpr std::uint32_t kPrecomputeBatch = 16;

// The doubling chain in Jacobian coordinates (X/Z², Y/Z³), a = 0 (dbl-2009-l): 2M + 5S, against
// XYZZ's 6M + 3S; on the device a square is a product, so 7 products instead of 9 (16 Fq
// products instead of 24 over Fq2, where a square is 2 and a product 3). Z = 0 is infinity and
// stays so; so does a point of order 2 (Y = 0), which the bases' groups do not have.
template <class F>
struct JacobianChain {
  F X, Y, Z;
  ZKP_HD void dbl() {
    const F a = X.square(), b = Y.square(), c = b.square();
    const F d = ((X + b).square() - a - c).dbl();
    const F e = a.dbl() + a;
    const F x3 = e.square() - d.dbl();
    const F c8 = c.dbl().dbl().dbl();
    Z = (Y * Z).dbl();
    Y = e * (d - x3) - c8;
    X = x3;
  }
};

// Base i's copies 1 .. copies − 1 into table[f·n + i], from copy 0 at table[i]. A copy in the
// batch is first written as (X, Y) and later multiplied by its 1/Z² and 1/Z³: the table holds
// it meanwhile, so only Z and the prefix products stay in the thread.
template <CurveParams C>
ZKP_HD void precompute_base(std::uint32_t i, PointXY<C>* table, std::uint32_t n, std::uint32_t c, std::uint32_t copies) {
  using F = typename Xyzz<C>::Field;
  const PointXY<C> p = table[i];
  JacobianChain<F> acc = p.is_infinity() ? JacobianChain<F>{F::one(), F::one(), F::zero()}
                                         : JacobianChain<F>{p.x, p.y, F::one()};
  F z[kPrecomputeBatch], before[kPrecomputeBatch];  // per copy: Z (1 at infinity), the product of the earlier ones
  for (std::uint32_t first = 1; first < copies; first += kPrecomputeBatch) {
    const std::uint32_t last = first + kPrecomputeBatch < copies ? first + kPrecomputeBatch : copies;
    F run = F::one();
    for (std::uint32_t f = first; f < last; ++f) {
      for (std::uint32_t k = 0; k < c; ++k) acc.dbl();
      PointXY<C>& out = table[std::size_t{f} * n + i];
      // Infinity only from a base at infinity (or, with key checks off, of small order): it
      // keeps 1 in the chain and (0, 0) in the table, which the multiplies below leave.
      const bool infinity = acc.Z.is_zero();
      out = infinity ? PointXY<C>{F::zero(), F::zero()} : PointXY<C>{acc.X, acc.Y};
      z[f - first] = infinity ? F::one() : acc.Z;
      before[f - first] = run;
      run = run * z[f - first];
    }
    F t = run.inverse();  // 1/(Z_first · … · Z_last−1)
    for (std::uint32_t f = last; f-- > first;) {
      const F inv = t * before[f - first];  // 1/Z_f
      t = t * z[f - first];
      const F inv2 = inv.square();
      PointXY<C>& out = table[std::size_t{f} * n + i];
      out = {out.x * inv2, out.y * (inv2 * inv)};
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
