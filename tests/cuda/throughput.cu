#include <cuda_runtime_api.h>

#include <cstring>
#include <span>
#include <vector>

#include "cuda/ec/curves.cuh"
#include "cuda/ff/fp_f64.cuh"
#include "cuda/util/buffers.hpp"
#include "cuda/util/device_guard.hpp"
#include "cuda/util/stream.hpp"
#include "throughput.hpp"

namespace zkp::cuda::test {

namespace {

constexpr unsigned kThreads = 128;
constexpr unsigned kProducts = 2048;  // per thread: long enough to dwarf launch overhead
constexpr unsigned kMadds = 256;
constexpr unsigned kBlocksPerSm = 8;

// Four independent product chains per thread, as an MSM's additions have some ILP too.
template <class F>
__global__ void __launch_bounds__(kThreads) products_kernel(const F* seed, F* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  F a = seed[t % 64], b = seed[(t + 1) % 64], c = seed[(t + 2) % 64], d = seed[(t + 3) % 64];
  const F m = seed[(t + 5) % 64];
  for (unsigned i = 0; i < kProducts / 4; ++i) {
    a = a * m;
    b = b * m;
    c = c * m;
    d = d * m;
  }
  out[t] = a + b + c + d;
}

// The FP64-pipe product, four chains; and the mix: two chains of each kind per thread, so
// the scheduler can issue IMADs and DFMAs side by side.
template <class F>
__global__ void __launch_bounds__(kThreads) f64_products_kernel(const F* seed, F* out) {
  using D = FpF64<typename F::Params>;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  D a = D::from_limbs32(seed[t % 64].limbs), b = D::from_limbs32(seed[(t + 1) % 64].limbs),
    c = D::from_limbs32(seed[(t + 2) % 64].limbs), d = D::from_limbs32(seed[(t + 3) % 64].limbs);
  const D m = D::from_limbs32(seed[(t + 5) % 64].limbs);
  for (unsigned i = 0; i < kProducts / 4; ++i) {
    a = a * m;
    b = b * m;
    c = c * m;
    d = d * m;
  }
  std::uint64_t w[6];
  (a * b * c * d).to_limbs64(w);
  std::memcpy(out[t].limbs, w, sizeof w);
}
template <class F>
__global__ void __launch_bounds__(kThreads) mixed_products_kernel(const F* seed, F* out) {
  using D = FpF64<typename F::Params>;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  F a = seed[t % 64], b = seed[(t + 1) % 64];
  const F m = seed[(t + 5) % 64];
  D c = D::from_limbs32(seed[(t + 2) % 64].limbs), d = D::from_limbs32(seed[(t + 3) % 64].limbs);
  const D dm = D::from_limbs32(m.limbs);
  for (unsigned i = 0; i < kProducts / 4; ++i) {
    a = a * m;
    c = c * dm;
    b = b * m;
    d = d * dm;
  }
  std::uint64_t w[6];
  (c * d).to_limbs64(w);
  F r;
  std::memcpy(r.limbs, w, sizeof w);
  out[t] = a + b + r;
}

template <CurveParams C>
__global__ void __launch_bounds__(kThreads) madd_kernel(const PointXY<C>* points, Xyzz<C>* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  Xyzz<C> acc = Xyzz<C>::from_xy(points[t % 64].x, points[t % 64].y);
  for (unsigned i = 0; i < kMadds; ++i) {
    const PointXY<C>& p = points[(t + i) % 64];  // L1-resident: no DRAM traffic
    acc = acc.add_xy(p.x, p.y);
  }
  out[t] = acc;
}

}  // namespace

template <CurveParams C>
Throughput measure_throughput(int gpu) {
  using F = DeviceField<typename C::Field>;
  DeviceGuard guard(gpu);
  Stream stream;
  int sms = 0;
  ZKP_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, gpu));
  const unsigned blocks = static_cast<unsigned>(sms) * kBlocksPerSm;
  const std::size_t threads = std::size_t{blocks} * kThreads;

  // Seeds: affine points k·G made on the host would need host code here; any field values
  // do for products, and for additions the points only need distinct x (no P = ±Q path):
  // multiples of the generator computed by the device itself.
  std::vector<F> seed_host(64);
  const auto gen = zkp::Affine<C>::generator();
  for (unsigned i = 0; i < 64; ++i) {
    std::memcpy(static_cast<void*>(&seed_host[i]), &gen.x, sizeof(F));
    seed_host[i].limbs[0] ^= i;  // distinct values (not necessarily reduced: only timing)
  }
  DeviceBuffer<F> seeds(64), fout(threads);
  seeds.upload(std::span<const F>(seed_host), stream.get());

  std::vector<PointXY<C>> pts_host(64);
  zkp::Jacobian<C> acc = zkp::Jacobian<C>::generator();
  for (unsigned i = 0; i < 64; ++i, acc = acc.dbl()) {
    const auto a = acc.to_affine();
    std::memcpy(static_cast<void*>(&pts_host[i].x), &a.x, sizeof(F));
    std::memcpy(static_cast<void*>(&pts_host[i].y), &a.y, sizeof(F));
  }
  DeviceBuffer<PointXY<C>> pts(64);
  DeviceBuffer<Xyzz<C>> pout(threads);
  pts.upload(std::span<const PointXY<C>>(pts_host), stream.get());

  Event start, stop;
  Throughput r;
  for (int rep = 0; rep < 2; ++rep) {  // the first round warms up
    start.record(stream.get());
    products_kernel<F><<<blocks, kThreads, 0, stream.get()>>>(seeds.data(), fout.data());
    ZKP_CUDA_CHECK_LAUNCH("products_kernel");
    stop.record(stream.get());
    stop.synchronize();
    r.products_per_s = double(threads) * kProducts / (stop.elapsed_ms_since(start) * 1e-3);
    start.record(stream.get());
    madd_kernel<C><<<blocks, kThreads, 0, stream.get()>>>(pts.data(), pout.data());
    ZKP_CUDA_CHECK_LAUNCH("madd_kernel");
    stop.record(stream.get());
    stop.synchronize();
    r.madds_per_s = double(threads) * kMadds / (stop.elapsed_ms_since(start) * 1e-3);
    if constexpr (F::Host::kLimbs == 6) {  // BLS12-381 Fq: the FP64 product's layout
      start.record(stream.get());
      f64_products_kernel<F><<<blocks, kThreads, 0, stream.get()>>>(seeds.data(), fout.data());
      ZKP_CUDA_CHECK_LAUNCH("f64_products_kernel");
      stop.record(stream.get());
      stop.synchronize();
      r.f64_products_per_s = double(threads) * kProducts / (stop.elapsed_ms_since(start) * 1e-3);
      start.record(stream.get());
      mixed_products_kernel<F><<<blocks, kThreads, 0, stream.get()>>>(seeds.data(), fout.data());
      ZKP_CUDA_CHECK_LAUNCH("mixed_products_kernel");
      stop.record(stream.get());
      stop.synchronize();
      r.mixed_products_per_s = double(threads) * kProducts / (stop.elapsed_ms_since(start) * 1e-3);
    }
  }
  return r;
}

template Throughput measure_throughput<zkp::bn254::G1>(int);
template Throughput measure_throughput<zkp::bls12_381::G1>(int);

}  // namespace zkp::cuda::test
