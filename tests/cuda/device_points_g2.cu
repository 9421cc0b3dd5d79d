// Random G2 bases made on the GPU for bench_cuda_msm_g2: base i is k_i·G2 for a
// pseudo-random 64-bit k_i (splitmix64 of seed + i), the G1 construction of
// device_points.cu over Fq2.
#include <cstring>
#include <vector>

#include "cuda/ec/curves.cuh"
#include "cuda/msm/precompute.cuh"
#include "cuda/util/buffers.hpp"
#include "cuda/util/device_guard.hpp"
#include "cuda/util/stream.hpp"
#include "device_points_g2.hpp"

namespace zkp::cuda::test {

namespace {

constexpr unsigned kThreads = 128;

__device__ std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;  // splitmix64 (Steele, Lea, Flood 2014)
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

template <CurveParams C>
__global__ void __launch_bounds__(kThreads) g2_bases_kernel(PointXY<C> g, std::size_t n, std::uint64_t seed, PointXY<C>* out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t k = mix64(seed + i) | 1;  // never 0
  Xyzz<C> acc = Xyzz<C>::identity();
  for (int bit = 63; bit >= 0; --bit) {
    acc = acc.dbl();
    if ((k >> bit) & 1) acc = acc.add_xy(g.x, g.y);
  }
  out[i] = msm::to_xy(acc);
}

}  // namespace

template <CurveParams C>
std::vector<zkp::msm::Base<C>> device_random_g2_bases(int gpu, std::size_t n, std::uint64_t seed) {
  DeviceGuard guard(gpu);
  Stream stream;
  DeviceBuffer<PointXY<C>> d(n);
  const zkp::Affine<C> gen = zkp::Affine<C>::generator();
  PointXY<C> g;
  static_assert(sizeof(g) == sizeof(zkp::msm::Base<C>));
  const zkp::msm::Base<C> hg{gen.x, gen.y};
  std::memcpy(static_cast<void*>(&g), &hg, sizeof(g));
  g2_bases_kernel<C><<<static_cast<unsigned>((n + kThreads - 1) / kThreads), kThreads, 0, stream.get()>>>(g, n, seed, d.data());
  ZKP_CUDA_CHECK_LAUNCH("g2_bases_kernel");
  std::vector<zkp::msm::Base<C>> out(n);
  ZKP_CUDA_CHECK(cudaMemcpyAsync(out.data(), d.data(), d.bytes(), cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  return out;
}

template std::vector<zkp::msm::Base<zkp::bn254::G2>> device_random_g2_bases<zkp::bn254::G2>(int, std::size_t, std::uint64_t);
template std::vector<zkp::msm::Base<zkp::bls12_381::G2>> device_random_g2_bases<zkp::bls12_381::G2>(int, std::size_t, std::uint64_t);

}  // namespace zkp::cuda::test
