// Element-wise kernels over the device field and curve types, and their launchers;
// included by one .cu per curve (device_ops_bn254.cu, device_ops_bls12_381.cu).
#pragma once

#include <cstring>

#include "cuda/ec/curves.cuh"
#include "cuda/util/buffers.hpp"
#include "cuda/util/device_guard.hpp"
#include "cuda/util/stream.hpp"
#include "device_ops.hpp"

namespace zkp::cuda::test {

inline constexpr unsigned kOpsThreads = 64;

template <class D>
__global__ void field_ops_kernel(const D* a, const D* b, std::size_t n, D* out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const D x = a[i], y = b[i];
  out[0 * n + i] = x * y;
  out[1 * n + i] = x.square();
  out[2 * n + i] = x + y;
  out[3 * n + i] = x - y;
  out[4 * n + i] = -x;
  out[5 * n + i] = x.dbl();
  out[6 * n + i] = x.inverse();
}

template <CurveParams C>
__global__ void curve_ops_kernel(const Xyzz<C>* p, const Xyzz<C>* q, const Affine<C>* a, std::size_t n, Xyzz<C>* out) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  out[0 * n + i] = p[i] + q[i];
  out[1 * n + i] = p[i].dbl();
  out[2 * n + i] = p[i].add_mixed(a[i]);
}

// Host values → device buffer, by bytes (the layouts are the same).
template <class D, class H>
DeviceBuffer<D> upload_as(std::span<const H> host, cudaStream_t s) {
  static_assert(sizeof(D) == sizeof(H));
  DeviceBuffer<D> buf(host.size());
  ZKP_CUDA_CHECK(cudaMemcpyAsync(buf.data(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice, s));
  return buf;
}

template <class H, class D>
std::vector<H> download_as(const D* src, std::size_t n, cudaStream_t s) {
  static_assert(sizeof(D) == sizeof(H));
  std::vector<H> out(n);
  ZKP_CUDA_CHECK(cudaMemcpyAsync(out.data(), src, n * sizeof(D), cudaMemcpyDeviceToHost, s));
  ZKP_CUDA_CHECK(cudaStreamSynchronize(s));
  return out;
}

template <class F>
FieldResults<F> device_field_ops(int gpu, std::span<const F> a, std::span<const F> b) {
  using D = DeviceField<F>;
  DeviceGuard guard(gpu);
  Stream stream;
  const std::size_t n = a.size();
  auto da = upload_as<D>(a, stream.get());
  auto db = upload_as<D>(b, stream.get());
  DeviceBuffer<D> out(7 * n);
  field_ops_kernel<D><<<static_cast<unsigned>((n + kOpsThreads - 1) / kOpsThreads), kOpsThreads, 0, stream.get()>>>(
      da.data(), db.data(), n, out.data());
  ZKP_CUDA_CHECK_LAUNCH("field_ops_kernel");
  const std::vector<F> all = download_as<F>(out.data(), 7 * n, stream.get());
  const auto part = [&](std::size_t k) { return std::vector<F>(all.begin() + k * n, all.begin() + (k + 1) * n); };
  return {part(0), part(1), part(2), part(3), part(4), part(5), part(6)};
}

template <CurveParams C>
CurveResults<C> device_curve_ops(int gpu, std::span<const zkp::Xyzz<C>> p, std::span<const zkp::Xyzz<C>> q,
                                 std::span<const zkp::Affine<C>> a) {
  DeviceGuard guard(gpu);
  Stream stream;
  const std::size_t n = p.size();
  auto dp = upload_as<Xyzz<C>>(p, stream.get());
  auto dq = upload_as<Xyzz<C>>(q, stream.get());
  auto da = upload_as<Affine<C>>(a, stream.get());
  DeviceBuffer<Xyzz<C>> out(3 * n);
  curve_ops_kernel<C><<<static_cast<unsigned>((n + kOpsThreads - 1) / kOpsThreads), kOpsThreads, 0, stream.get()>>>(
      dp.data(), dq.data(), da.data(), n, out.data());
  ZKP_CUDA_CHECK_LAUNCH("curve_ops_kernel");
  const auto all = download_as<zkp::Xyzz<C>>(out.data(), 3 * n, stream.get());
  const auto part = [&](std::size_t k) {
    return std::vector<zkp::Xyzz<C>>(all.begin() + k * n, all.begin() + (k + 1) * n);
  };
  return {part(0), part(1), part(2)};
}

}  // namespace zkp::cuda::test
