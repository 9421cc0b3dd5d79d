// Scalars 0 and ±1 kept out of the buckets (the MSM's compacted path, msm_impl.cuh).
//
// A circom or bellperson witness is mostly 0s and 1s (PoRep: the bits of SHA-256 and
// Poseidon gadgets). Through the plain path a 0 still costs W sentinel slots in the sort and
// a 1 one mixed addition into bucket 0 after W − 1 sentinel slots, so at 90% 0/1 the radix
// sort of n·W pairs, not the additions, is most of an MSM. The compacted path instead:
//   classify   one flag per scalar: 1 for a scalar that needs buckets (|s| ≥ 2 after the
//              reduction mod r and the sign fold), 0 for 0 and ±1
//   select     CUB's DeviceSelect: the indices of the flagged scalars, and their count m
//   digits     the digit kernel over those m scalars only (slot j, base index[j]): the sort
//              and the accumulation see m·W pairs instead of n·W
//   ±1 sum     every thread of one resident wave walks the scalars with a grid stride and
//              adds ±P_i for each s_i = ±1 (the same mixed additions the buckets would do),
//              a pairwise tree sums the threads' partials, and the total goes into bucket 0
//              (group 0, magnitude 1: exactly where the plain path would have put them).
// So zeros cost one classify thread each and ones one addition outside the bucket machinery.
// The host must learn m to size the sort (CUB takes the item count on the host), so the
// compacted path waits once per call for the select; msm::Config::compact_from keeps small
// MSMs (where that wait would show) on the plain path.
//
// Host-and-device functions, so the emulation tests run the whole path on the CPU.
#pragma once

#include <cstdint>

#include "cuda/ec/xyzz.cuh"
#include "cuda/msm/accumulate.cuh"
#include "cuda/msm/digits.cuh"

namespace zkp::cuda::msm {

enum class ScalarClass : std::uint32_t { zero, plus_one, minus_one, general };

// Reduced mod r and sign-folded as the digit kernel does, so the classes agree with the
// digits it would write: ±1 is a single digit of magnitude 1 in window 0.
template <class Fr>
ZKP_HD ScalarClass classify_scalar(const ScalarLimbs& raw) {
  ScalarLimbs s;
  ZKP_UNROLL
  for (std::size_t k = 0; k < kScalarLimbs; ++k) s[k] = raw[k];
  while (detail::sub_modulus_if_not_below<Fr>(s)) {
  }
  const bool neg = detail::fold_sign<Fr>(s);
  std::uint32_t high = 0;
  ZKP_UNROLL
  for (std::size_t k = 1; k < kScalarLimbs; ++k) high |= s[k];
  if (high != 0 || s[0] > 1) return ScalarClass::general;
  if (s[0] == 0) return ScalarClass::zero;
  return neg ? ScalarClass::minus_one : ScalarClass::plus_one;
}

// Thread `t` of `threads`: Σ ±P_i over the scalars i ≡ t (mod threads) that are ±1, from copy
// 0 of the resident table (the bases themselves).
template <CurveParams C, class Fr, class LoadScalar>
ZKP_HD Xyzz<C> unit_sum_stride(std::uint32_t t, std::uint32_t threads, std::uint32_t n, const LoadScalar& load,
                               const PointXY<C>* table) {
  Xyzz<C> acc = Xyzz<C>::identity();
  for (std::uint32_t i = t; i < n; i += threads) {
    ScalarLimbs raw;
    load(i, raw);
    const ScalarClass k = classify_scalar<Fr>(raw);
    if (k != ScalarClass::plus_one && k != ScalarClass::minus_one) continue;
    const PointXY<C> p = detail::load_base(table, i);
    if (!p.is_infinity()) acc = acc.add_xy(p.x, p.y.cond_neg(k == ScalarClass::minus_one));
  }
  return acc;
}

#if defined(__CUDACC__)

inline constexpr unsigned kClassifyThreads = 256;
inline constexpr unsigned kUnitSumThreads = 128;

namespace detail {

// Scalar i of a device array as limbs (two 16-byte loads).
struct DeviceScalars {
  const uint4* scalars;
  ZKP_HD void operator()(std::uint32_t i, ScalarLimbs& raw) const {
    const uint4 lo = scalars[2 * i], hi = scalars[2 * i + 1];
    raw[0] = lo.x, raw[1] = lo.y, raw[2] = lo.z, raw[3] = lo.w;
    raw[4] = hi.x, raw[5] = hi.y, raw[6] = hi.z, raw[7] = hi.w;
  }
};

}  // namespace detail

// flags[i] = 1 when scalar i needs buckets (ScalarClass::general), else 0.
template <class Fr>
__global__ void __launch_bounds__(kClassifyThreads)
    classify_kernel(const uint4* __restrict__ scalars, std::uint32_t n, std::uint32_t* __restrict__ flags) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  ScalarLimbs raw;
  detail::DeviceScalars{scalars}(i, raw);
  flags[i] = classify_scalar<Fr>(raw) == ScalarClass::general ? 1u : 0u;
}

// The digit kernel over the selected scalars: thread j writes the pairs of scalar index[j]
// into slots w·m + j, referencing base index[j].
template <class Fr>
__global__ void __launch_bounds__(kDigitThreads)
    selected_digits_kernel(const uint4* __restrict__ scalars, const std::uint32_t* __restrict__ index, DigitShape shape,
                           std::uint32_t* __restrict__ keys, std::uint32_t* __restrict__ refs,
                           std::uint32_t* __restrict__ nonzero) {
  const std::uint32_t j = blockIdx.x * blockDim.x + threadIdx.x;
  std::uint32_t count = 0;
  if (j < shape.n) {
    const std::uint32_t i = index[j];
    ScalarLimbs raw;
    detail::DeviceScalars{scalars}(i, raw);
    count = signed_digits<Fr>(j, i, raw, shape, keys, refs);
  }
  for (int off = 16; off > 0; off /= 2) count += __shfl_down_sync(0xffffffffu, count, off);
  if ((threadIdx.x & 31) == 0 && count != 0) atomicAdd(nonzero, count);
}

// partials[t] = unit_sum_stride(t, threads): one thread per partial, grid = threads.
template <CurveParams C, class Fr>
__global__ void __launch_bounds__(kUnitSumThreads)
    unit_sum_kernel(const uint4* __restrict__ scalars, std::uint32_t n, const PointXY<C>* __restrict__ table,
                    std::uint32_t threads, Xyzz<C>* __restrict__ partials) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  partials[t] = unit_sum_stride<C, Fr>(t, threads, n, detail::DeviceScalars{scalars}, table);
}

// bucket[0] += *sum (one thread): the ±1 scalars' share, after the accumulation wrote bucket 0.
template <CurveParams C>
__global__ void add_into_bucket_kernel(Xyzz<C>* __restrict__ buckets, const Xyzz<C>* __restrict__ sum) {
  if (blockIdx.x == 0 && threadIdx.x == 0) buckets[0] = buckets[0] + *sum;
}

#endif

}  // namespace zkp::cuda::msm
