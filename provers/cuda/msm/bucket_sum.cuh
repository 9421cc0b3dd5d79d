// Kernel 4 of the MSM: each bucket group's weighted sum Σ_b (b + 1)·B_b (b < 2^(c−1)).
//
// The serial running sum (S += B_b; T += S from the top bucket down, 2 additions a bucket)
// is cut into chunks of m buckets, one thread each: chunk j yields S_j = Σ B_b and
// T_j = Σ (b − jm + 1)·B_b, and Σ_b (b + 1)·B_b = Σ_j (T_j + jm·S_j). The thread adds jm·S_j
// itself by double-and-add (≤ c − 1 doublings and popcount(jm) additions), so the chunks
// are independent and a pairwise tree then sums them per group, log2(chunks) launches of
// one addition each. The point of this shape is latency: a BLS12-381 XYZZ addition is
// ~8,000 dependent instructions, ≈ 20 µs for one thread, so any serial chain here costs
// real time while the GPU idles; this keeps it near 2m + 1.5c + log2(2^(c−1)/m) additions.
#pragma once

#include <cstdint>

#include "cuda/ec/xyzz.cuh"
#include "cuda/util/bits.cuh"

namespace zkp::cuda::msm {

// Thread `id` = g·chunks + j: Σ_{b in chunk j} (b + 1)·buckets[g·half + b], chunks of m.
template <CurveParams C>
ZKP_HD Xyzz<C> bucket_chunk_sum(std::uint32_t id, const Xyzz<C>* buckets, std::uint32_t half, std::uint32_t m,
                                std::uint32_t chunks) {
  const std::uint32_t g = id / chunks, j = id % chunks;
  const Xyzz<C>* b = buckets + std::size_t{g} * half + std::size_t{j} * m;
  Xyzz<C> run = Xyzz<C>::identity(), tot = Xyzz<C>::identity();
  for (std::uint32_t k = m; k-- > 0;) {
    run = run + b[k];
    tot = tot + run;
  }
  // + (j·m)·run, most significant bit first.
  const std::uint32_t scale = j * m;
  Xyzz<C> r = Xyzz<C>::identity();
  if (scale != 0) {
    for (int bit = top_bit(scale); bit >= 0; --bit) {
      r = r.dbl();
      if ((scale >> bit) & 1) r = r + run;
    }
  }
  return tot + r;
}

// One level of a pairwise tree over groups of `width` entries: output `id` = g·⌈width/2⌉ + j
// is in[g][2j] + in[g][2j + 1] (or in[g][2j] alone at an odd end).
template <CurveParams C>
ZKP_HD Xyzz<C> pairwise_sum(std::uint32_t id, const Xyzz<C>* in, std::uint32_t width) {
  const std::uint32_t out_width = (width + 1) / 2;
  const std::uint32_t g = id / out_width, j = id % out_width;
  const Xyzz<C>* src = in + std::size_t{g} * width + 2 * j;
  return 2 * j + 1 < width ? src[0] + src[1] : src[0];
}

#if defined(__CUDACC__)

inline constexpr unsigned kBucketThreads = 128;

template <CurveParams C>
__global__ void __launch_bounds__(kBucketThreads)
    bucket_chunks_kernel(const Xyzz<C>* __restrict__ buckets, std::uint32_t half, std::uint32_t m, std::uint32_t chunks,
                         std::uint32_t groups, Xyzz<C>* __restrict__ out) {
  const std::uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id < groups * chunks) out[id] = bucket_chunk_sum(id, buckets, half, m, chunks);
}

template <CurveParams C>
__global__ void __launch_bounds__(kBucketThreads)
    pairwise_sum_kernel(const Xyzz<C>* __restrict__ in, std::uint32_t width, std::uint32_t groups, Xyzz<C>* __restrict__ out) {
  const std::uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id < groups * ((width + 1) / 2)) out[id] = pairwise_sum(id, in, width);
}

#endif

}  // namespace zkp::cuda::msm
