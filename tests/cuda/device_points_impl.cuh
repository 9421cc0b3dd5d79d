// The body of device_random_bases (device_points.hpp), shared by the G1 and the G2 units:
// each instantiates it for its curves in its own translation unit, so the heavy G2 kernels
// compile in parallel with the rest.
#pragma once

#include <vector>

#include "cuda/ec/curves.cuh"
#include "cuda/msm/precompute.cuh"
#include "cuda/util/buffers.hpp"
#include "cuda/util/device_guard.hpp"
#include "cuda/util/stream.hpp"
#include "device_points.hpp"

namespace zkp::cuda::test {

namespace {

constexpr unsigned kThreads = 128;

__device__ std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;  // splitmix64 (Steele, Lea, Flood 2014), as in java.util.SplittableRandom
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <CurveParams C>
__global__ void __launch_bounds__(kThreads) random_bases_kernel(PointXY<C> g, std::size_t n, std::uint64_t seed, PointXY<C>* out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t k = splitmix64(seed + i) | 1;  // never 0
  Xyzz<C> acc = Xyzz<C>::identity();
  for (int bit = 63; bit >= 0; --bit) {
    acc = acc.dbl();
    if ((k >> bit) & 1) acc = acc.add_xy(g.x, g.y);
  }
  out[i] = msm::to_xy(acc);
}

}  // namespace

template <CurveParams C>
std::vector<zkp::msm::Base<C>> device_random_bases(int gpu, std::size_t n, std::uint64_t seed) {
  DeviceGuard guard(gpu);
  Stream stream;
  DeviceBuffer<PointXY<C>> d(n);
  const zkp::Affine<C> gen = zkp::Affine<C>::generator();
  PointXY<C> g;
  static_assert(sizeof(g) == sizeof(zkp::msm::Base<C>));
  const zkp::msm::Base<C> hg{gen.x, gen.y};
  std::memcpy(static_cast<void*>(&g), &hg, sizeof(g));
  random_bases_kernel<C><<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads, 0, stream.get()>>>(g, n, seed, d.data());
  ZKP_CUDA_CHECK_LAUNCH("random_bases_kernel");
  std::vector<zkp::msm::Base<C>> out(n);
  ZKP_CUDA_CHECK(cudaMemcpyAsync(out.data(), d.data(), d.bytes(), cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  return out;
}

}  // namespace zkp::cuda::test
