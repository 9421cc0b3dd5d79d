// The FP64-pipe product (cuda/ff/fp_f64.cuh) on the GPU, for device_ff_ec_test: each
// thread multiplies a[i] by b[i] `chain` times (the result fed back in, lazily reduced),
// so the device's DFMA rounding is checked on chains as well as on single products.
#include <cuda_runtime_api.h>

#include <cstring>

#include "cuda/ff/fp_f64.cuh"
#include "cuda/util/buffers.hpp"
#include "cuda/util/device_guard.hpp"
#include "cuda/util/stream.hpp"
#include "device_ops.hpp"

namespace zkp::cuda::test {

namespace {

using Fq = zkp::bls12_381::Fq;
using F64 = FpF64<zkp::bls12_381::FqParams>;
struct Words {
  std::uint64_t w[6];
};

__global__ void f64_chain_kernel(const Words* a, const Words* b, Words* out, std::size_t n, unsigned chain) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  F64 x = F64::from_limbs64(a[i].w);
  const F64 y = F64::from_limbs64(b[i].w);
  for (unsigned k = 0; k < chain; ++k) x = x * y;
  x.to_limbs64(out[i].w);
}

}  // namespace

std::vector<Fq> device_f64_products(int gpu, std::span<const Fq> a, std::span<const Fq> b, unsigned chain) {
  static_assert(sizeof(Words) == sizeof(Fq));
  DeviceGuard guard(gpu);
  Stream stream;
  const std::size_t n = a.size();
  std::vector<Words> ha(n), hb(n), hout(n);
  std::memcpy(ha.data(), a.data(), n * sizeof(Words));
  std::memcpy(hb.data(), b.data(), n * sizeof(Words));
  DeviceBuffer<Words> da(n), db(n), dout(n);
  da.upload(std::span<const Words>(ha), stream.get());
  db.upload(std::span<const Words>(hb), stream.get());
  const unsigned threads = 128;
  f64_chain_kernel<<<static_cast<unsigned>((n + threads - 1) / threads), threads, 0, stream.get()>>>(
      da.data(), db.data(), dout.data(), n, chain);
  ZKP_CUDA_CHECK_LAUNCH("f64_chain_kernel");
  dout.download(std::span<Words>(hout), stream.get());
  stream.synchronize();
  std::vector<Fq> r(n);
  std::memcpy(static_cast<void*>(r.data()), hout.data(), n * sizeof(Words));
  return r;
}

}  // namespace zkp::cuda::test
