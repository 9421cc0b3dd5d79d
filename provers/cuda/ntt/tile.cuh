// The device NTT's tile passes (ntt/ntt_plan.hpp says how a transform is cut into them)
// and the pointwise steps of the H computation.
//
// Butterflies are the CPU's (provers/core/ntt/ntt.hpp), on the same twiddle table
// (tw[m + j] = ω_{2m}^j for the stage of half-size m, zkp::NttDomain's layout):
//   inverse DIF  (u, v) → (u + v, (u − v)·ω_{2m}^{−j}),  ω_{2m}^{−j} = −tw[2m − j] for j > 0
//   forward DIT  (u, v) → (u + t, u − t), t = v·tw[m + j]
// and the coset scaling multiplies bit-reversed position pos by g^bitrev(pos)/n =
// coset_low[pos mod 2^L]·coset_high[pos >> L] (NttDomain::coset_low/high).
//
// Every step is a host-and-device function over (thread id, thread count) with a block
// barrier between steps: the kernels run them with the block's threads, the emulation
// tests (tests/cuda/ntt_emulation_test.cpp) with one thread on the CPU, where the barrier
// is a no-op. Indices are 64-bit where they address the whole array.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/ff/fp.cuh"
#include "cuda/ntt/ntt_plan.hpp"
#include "cuda/util/hd.cuh"

namespace zkp::cuda::ntt {

ZKP_HD void block_barrier() {
#if defined(__CUDA_ARCH__)
  __syncthreads();
#endif
}

// Up to three arrays transformed by one launch (blockIdx.y picks one): a, b and c of the
// H step share every pass, which keeps small domains from leaving the GPU idle.
inline constexpr unsigned kMaxArrays = 3;
template <class F>
struct Arrays {
  F* data[kMaxArrays];
};

namespace detail {

// A 32-byte field element through two 16-byte accesses on the device.
template <class F>
ZKP_HD F load(const F* p) {
#if defined(__CUDA_ARCH__)
  static_assert(sizeof(F) % sizeof(uint4) == 0);
  union {
    uint4 words[sizeof(F) / sizeof(uint4)];
    F value;
  } u;
  const uint4* src = reinterpret_cast<const uint4*>(p);
  ZKP_UNROLL
  for (std::size_t k = 0; k < sizeof(F) / sizeof(uint4); ++k) u.words[k] = src[k];
  return u.value;
#else
  return *p;
#endif
}
template <class F>
ZKP_HD void store(F* p, const F& v) {
#if defined(__CUDA_ARCH__)
  union {
    uint4 words[sizeof(F) / sizeof(uint4)];
    F value;
  } u;
  u.value = v;
  uint4* dst = reinterpret_cast<uint4*>(p);
  ZKP_UNROLL
  for (std::size_t k = 0; k < sizeof(F) / sizeof(uint4); ++k) dst[k] = u.words[k];
#else
  *p = v;
#endif
}

}  // namespace detail

// Array index of tile element e (row-major: row = e >> cols) of tile `tile`. The tile
// number supplies the index bits outside the row and column fields: its low (lo − cols)
// bits go between the columns and the rows, the rest above the rows.
ZKP_HD std::uint64_t tile_index(const TilePass& p, std::uint64_t tile, std::uint32_t e) {
  const std::uint32_t col = e & ((1u << p.cols) - 1), row = e >> p.cols;
  const std::uint32_t mid_bits = p.lo - p.cols;
  const std::uint64_t mid = tile & ((std::uint64_t{1} << mid_bits) - 1);
  const std::uint64_t top = tile >> mid_bits;
  return col | (mid << p.cols) | (std::uint64_t{row} << p.lo) | (top << (p.lo + p.rows));
}

template <class F>
ZKP_HD void load_tile(F* tile, const F* data, const TilePass& p, std::uint64_t t, std::uint32_t tid, std::uint32_t threads) {
  const std::uint32_t size = 1u << p.tile_log();
  for (std::uint32_t e = tid; e < size; e += threads) tile[e] = detail::load(data + tile_index(p, t, e));
}

template <class F>
ZKP_HD void store_tile(const F* tile, F* data, const TilePass& p, std::uint64_t t, std::uint32_t tid, std::uint32_t threads) {
  const std::uint32_t size = 1u << p.tile_log();
  for (std::uint32_t e = tid; e < size; e += threads) detail::store(data + tile_index(p, t, e), tile[e]);
}

// Butterfly b of local stage s (half-size 2^s rows, global half-size m = 2^(lo + s)):
// its two tile elements and its twiddle exponent j < m.
struct Butterfly {
  std::uint32_t e0, e1;
  std::uint64_t m, j;
};
ZKP_HD Butterfly butterfly(const TilePass& p, std::uint64_t t, std::uint32_t s, std::uint32_t b) {
  const std::uint32_t col = b & ((1u << p.cols) - 1), q = b >> p.cols;
  const std::uint32_t jl = q & ((1u << s) - 1), group = q >> s;
  const std::uint32_t row0 = (group << (s + 1)) | jl;
  const std::uint32_t mid_bits = p.lo - p.cols;
  const std::uint64_t mid = t & ((std::uint64_t{1} << mid_bits) - 1);
  Butterfly r;
  r.e0 = (row0 << p.cols) | col;
  r.e1 = r.e0 + (1u << (s + p.cols));
  r.m = std::uint64_t{1} << (p.lo + s);
  r.j = (std::uint64_t{jl} << p.lo) | (mid << p.cols) | col;
  return r;
}

// The inverse DIF stages of the pass, largest first, ending with a barrier.
template <class F>
ZKP_HD void dif_inverse_stages(F* tile, const TilePass& p, std::uint64_t t, const F* tw, std::uint32_t tid,
                               std::uint32_t threads) {
  for (std::uint32_t s = p.rows; s-- > 0;) {
    for (std::uint32_t b = tid; b < p.butterflies(); b += threads) {
      const Butterfly f = butterfly(p, t, s, b);
      const F u = tile[f.e0], v = tile[f.e1];
      tile[f.e0] = u + v;
      tile[f.e1] = f.j == 0 ? u - v : (v - u) * detail::load(tw + 2 * f.m - f.j);
    }
    block_barrier();
  }
}

// The forward DIT stages of the pass, smallest first, ending with a barrier.
template <class F>
ZKP_HD void dit_forward_stages(F* tile, const TilePass& p, std::uint64_t t, const F* tw, std::uint32_t tid,
                               std::uint32_t threads) {
  for (std::uint32_t s = 0; s < p.rows; ++s) {
    for (std::uint32_t b = tid; b < p.butterflies(); b += threads) {
      const Butterfly f = butterfly(p, t, s, b);
      // ω^0 = 1: stage 0 (m = 1) is all additions, and a warp whose lanes all have j = 0 skips the product.
      const F u = tile[f.e0], x = f.j == 0 ? tile[f.e1] : tile[f.e1] * detail::load(tw + f.m + f.j);
      tile[f.e0] = u + x;
      tile[f.e1] = u - x;
    }
    block_barrier();
  }
}

// The coset tables of NttDomain: factor(pos) = low[pos mod 2^low_bits]·high[pos >> low_bits].
template <class F>
struct CosetTables {
  const F* low;
  const F* high;
  std::uint32_t low_bits;
};

// Scales the fused tile (whole, contiguous: lo = cols = 0) by the coset factors, ending
// with a barrier.
template <class F>
ZKP_HD void coset_scale(F* tile, const TilePass& p, std::uint64_t t, const CosetTables<F>& coset, std::uint32_t tid,
                        std::uint32_t threads) {
  const std::uint32_t size = 1u << p.tile_log();
  const std::uint64_t mask = (std::uint64_t{1} << coset.low_bits) - 1;
  for (std::uint32_t e = tid; e < size; e += threads) {
    const std::uint64_t pos = tile_index(p, t, e);
    tile[e] = tile[e] * (detail::load(coset.low + (pos & mask)) * detail::load(coset.high + (pos >> coset.low_bits)));
  }
  block_barrier();
}

// Whole pass bodies: what one thread block does with one tile.
template <class F>
ZKP_HD void dif_pass(F* tile, F* data, const TilePass& p, std::uint64_t t, const F* tw, std::uint32_t tid,
                     std::uint32_t threads) {
  load_tile(tile, data, p, t, tid, threads);
  block_barrier();
  dif_inverse_stages(tile, p, t, tw, tid, threads);
  store_tile(tile, data, p, t, tid, threads);
}
template <class F>
ZKP_HD void dit_pass(F* tile, F* data, const TilePass& p, std::uint64_t t, const F* tw, std::uint32_t tid,
                     std::uint32_t threads) {
  load_tile(tile, data, p, t, tid, threads);
  block_barrier();
  dit_forward_stages(tile, p, t, tw, tid, threads);
  store_tile(tile, data, p, t, tid, threads);
}
// The low bits: the last DIF stages, the coset scaling, the first DIT stages.
template <class F>
ZKP_HD void fused_coset_pass(F* tile, F* data, const TilePass& p, std::uint64_t t, const F* tw,
                             const CosetTables<F>& coset, std::uint32_t tid, std::uint32_t threads) {
  load_tile(tile, data, p, t, tid, threads);
  block_barrier();
  dif_inverse_stages(tile, p, t, tw, tid, threads);
  coset_scale(tile, p, t, coset, tid, threads);
  dit_forward_stages(tile, p, t, tw, tid, threads);
  store_tile(tile, data, p, t, tid, threads);
}

// The low bits of an inverse coset transform (bellperson's icoset_fft): the last DIF stages and
// the scaling by g^−bitrev(pos)/n (`coset` built from g^−1). The array is left holding the
// coefficients in bit-reversed order: position pos holds coefficient bitrev(pos).
template <class F>
ZKP_HD void fused_icoset_pass(F* tile, F* data, const TilePass& p, std::uint64_t t, const F* tw,
                              const CosetTables<F>& coset, std::uint32_t tid, std::uint32_t threads) {
  load_tile(tile, data, p, t, tid, threads);
  block_barrier();
  dif_inverse_stages(tile, p, t, tw, tid, threads);
  coset_scale(tile, p, t, coset, tid, threads);
  store_tile(tile, data, p, t, tid, threads);
}

// --- pointwise steps ------------------------------------------------------------------

// Montgomery → standard: a Montgomery product with the integer 1 (x·R · 1 · R^{−1} = x).
template <class F>
ZKP_HD F to_standard(const F& x) {
  F one = F::zero();
  one.limbs[0] = 1;
  return x * one;
}

// (a·b − c)·z_inv: bellperson's quotient by Z on the coset, where Z is the constant g^m − 1.
template <class F>
ZKP_HD F quotient_value(const F& a, const F& b, const F& c, const F& z_inv) {
  return (a * b - c) * z_inv;
}

// H[i] = a[i]·b[i] − c[i], optionally to standard form.
template <class F>
ZKP_HD F h_value(const F& a, const F& b, const F& c, bool standard) {
  const F h = a * b - c;
  return standard ? to_standard(h) : h;
}

#if defined(__CUDACC__)

inline constexpr unsigned kPointwiseThreads = 256;
// At least three tile blocks (24 warps) per SM, so some blocks' tile loads hide behind the
// others' butterflies: caps registers at 85 per thread; ptxas (CUDA 13, sm_90) uses 54–80
// for the tile kernels of both fields under that cap, without spills.
inline constexpr unsigned kTileBlocksPerSm = 3;

template <class F>
__global__ void __launch_bounds__(kTileThreads, kTileBlocksPerSm) dif_pass_kernel(Arrays<F> arrays, TilePass p, const F* __restrict__ tw) {
  static_assert(sizeof(F) == 32, "a tile is 2^kTileLog elements of 32 bytes");
  __shared__ F tile[1u << kTileLog];
  dif_pass(tile, arrays.data[blockIdx.y], p, blockIdx.x, tw, threadIdx.x, blockDim.x);
}

template <class F>
__global__ void __launch_bounds__(kTileThreads, kTileBlocksPerSm) dit_pass_kernel(Arrays<F> arrays, TilePass p, const F* __restrict__ tw) {
  __shared__ F tile[1u << kTileLog];
  dit_pass(tile, arrays.data[blockIdx.y], p, blockIdx.x, tw, threadIdx.x, blockDim.x);
}

template <class F>
__global__ void __launch_bounds__(kTileThreads, kTileBlocksPerSm)
    fused_coset_kernel(Arrays<F> arrays, TilePass p, const F* __restrict__ tw, CosetTables<F> coset) {
  __shared__ F tile[1u << kTileLog];
  fused_coset_pass(tile, arrays.data[blockIdx.y], p, blockIdx.x, tw, coset, threadIdx.x, blockDim.x);
}

template <class F>
__global__ void __launch_bounds__(kTileThreads, kTileBlocksPerSm)
    fused_icoset_kernel(Arrays<F> arrays, TilePass p, const F* __restrict__ tw, CosetTables<F> coset) {
  __shared__ F tile[1u << kTileLog];
  fused_icoset_pass(tile, arrays.data[blockIdx.y], p, blockIdx.x, tw, coset, threadIdx.x, blockDim.x);
}

template <class F>
__global__ void __launch_bounds__(kPointwiseThreads)
    quotient_kernel(F* __restrict__ a, const F* __restrict__ b, const F* __restrict__ c, std::uint64_t n, F z_inv) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x)
    detail::store(a + i, quotient_value(detail::load(a + i), detail::load(b + i), detail::load(c + i), z_inv));
}

template <class F>
__global__ void __launch_bounds__(kPointwiseThreads)
    product_kernel(F* __restrict__ c, const F* __restrict__ a, const F* __restrict__ b, std::uint64_t n) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x)
    detail::store(c + i, detail::load(a + i) * detail::load(b + i));
}

template <class F>
__global__ void __launch_bounds__(kPointwiseThreads)
    h_value_kernel(F* __restrict__ a, const F* __restrict__ b, const F* __restrict__ c, std::uint64_t n, bool standard) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x)
    detail::store(a + i, h_value(detail::load(a + i), detail::load(b + i), detail::load(c + i), standard));
}

template <class F>
__global__ void __launch_bounds__(kPointwiseThreads) to_standard_kernel(F* __restrict__ data, std::uint64_t n) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x)
    detail::store(data + i, to_standard(detail::load(data + i)));
}

#endif

}  // namespace zkp::cuda::ntt
