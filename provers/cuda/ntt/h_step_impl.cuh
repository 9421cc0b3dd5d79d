// HStep<Fr>'s implementation: the device tables and the launch sequence. Included only by
// the per-curve instantiation files (h_step_bn254.cu, h_step_bls12_381.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "cuda/ff/fields.cuh"
#include "cuda/ntt/h_step.hpp"
#include "cuda/ntt/ntt_plan.hpp"
#include "cuda/ntt/tile.cuh"
#include "cuda/util/buffers.hpp"
#include "cuda/util/device_guard.hpp"
#include "cuda/util/error.hpp"
#include "cuda/util/stream.hpp"
#include "core/ntt/domain.hpp"

namespace zkp::cuda {

namespace ntt::detail {

// Pointwise kernels: enough blocks to fill the GPU a few times over, grid-stride beyond.
inline constexpr std::uint64_t kMaxPointwiseBlocks = 4096;
inline unsigned pointwise_blocks(std::uint64_t n) {
  return static_cast<unsigned>(std::clamp<std::uint64_t>((n + kPointwiseThreads - 1) / kPointwiseThreads, 1, kMaxPointwiseBlocks));
}

inline void check_aligned(const void* p, const char* what) {
  if (reinterpret_cast<std::uintptr_t>(p) % alignof(uint4) != 0)
    throw std::invalid_argument(std::string("cuda h step: ") + what + " is not 16-byte aligned");
}

}  // namespace ntt::detail

template <class Fr>
struct HStep<Fr>::Impl {
  using DFr = DeviceField<Fr>;
  static_assert(sizeof(DFr) == sizeof(Fr));

  int gpu;
  std::size_t log_n;
  std::size_t n;
  ntt::CosetPlan plan;
  DeviceBuffer<DFr> twiddles;  // NttDomain's table: tw[m + j] = ω_{2m}^j
  DeviceBuffer<DFr> coset_low, coset_high;
  std::uint32_t coset_low_bits = 0;
  DeviceBuffer<DFr> c_scratch;  // c = a∘b when the caller passes none
  // With a given domain (run_coset_quotient): the g^−bitrev(pos)/n tables and 1/(g^n − 1).
  DeviceBuffer<DFr> inv_coset_low, inv_coset_high;
  std::uint32_t inv_coset_low_bits = 0;
  Fr z_inv;

  Impl(int gpu_index, const NttDomain<Fr>& domain, bool inverse_tables)
      : gpu(gpu_index), log_n(domain.log_n()), n(domain.size()), plan(ntt::make_coset_plan(static_cast<std::uint32_t>(log_n))) {
    // The domain's table starts one element before stage 1's entries (index 0 is unused).
    const std::span<const Fr> tw(domain.stage_twiddles(1) - 1, n);
    coset_low_bits = static_cast<std::uint32_t>(domain.coset_low_bits());
    const std::span<const Fr> low(&domain.coset_low(0), std::size_t{1} << coset_low_bits);
    const std::span<const Fr> high(&domain.coset_high(0), n >> coset_low_bits);
    Stream stream;
    twiddles = upload(tw, stream.get());
    coset_low = upload(low, stream.get());
    coset_high = upload(high, stream.get());
    CosetFactors<Fr> inv;
    if (inverse_tables) {
      const Fr g = domain.coset_generator();
      inv = CosetFactors<Fr>::make(log_n, g.inverse(), domain.n_inv());
      inv_coset_low = upload(inv.low, stream.get());
      inv_coset_high = upload(inv.high, stream.get());
      inv_coset_low_bits = static_cast<std::uint32_t>(inv.low_bits);
      z_inv = (g.pow(static_cast<std::uint64_t>(n)) - Fr::one()).inverse();
    }
    stream.synchronize();  // the host tables die with `domain` and `inv`
  }

  static DeviceBuffer<DFr> upload(std::span<const Fr> host, cudaStream_t s) {
    DeviceBuffer<DFr> d(host.size());
    ZKP_CUDA_CHECK(cudaMemcpyAsync(d.data(), host.data(), host.size_bytes(), cudaMemcpyHostToDevice, s));
    return d;
  }

  // Kernel template arguments are spelled DeviceField<Fr>, not DFr: nvcc's host stubs name
  // them from outside the class, where Impl's aliases are private.
  void odd_coset(DFr* const* data, std::size_t arrays, cudaStream_t s) {
    if (arrays == 0 || arrays > ntt::kMaxArrays) throw std::invalid_argument("cuda h step: 1 to 3 arrays per transform");
    ntt::Arrays<DFr> a{};
    for (std::size_t k = 0; k < arrays; ++k) {
      ntt::detail::check_aligned(data[k], "an array");
      a.data[k] = data[k];
    }
    const DFr* tw = twiddles.data();
    const auto grid = [&](const ntt::TilePass& p) {
      return dim3(static_cast<unsigned>(p.tiles()), static_cast<unsigned>(arrays));
    };
    for (std::size_t k = plan.high.size(); k-- > 0;) {
      const ntt::TilePass& p = plan.high[k];
      ntt::dif_pass_kernel<DeviceField<Fr>><<<grid(p), ntt::tile_threads(p), 0, s>>>(a, p, tw);
      ZKP_CUDA_CHECK_LAUNCH("dif_pass_kernel");
    }
    const ntt::CosetTables<DFr> coset{coset_low.data(), coset_high.data(), coset_low_bits};
    ntt::fused_coset_kernel<DeviceField<Fr>><<<grid(plan.fused), ntt::tile_threads(plan.fused), 0, s>>>(a, plan.fused, tw, coset);
    ZKP_CUDA_CHECK_LAUNCH("fused_coset_kernel");
    for (const ntt::TilePass& p : plan.high) {
      ntt::dit_pass_kernel<DeviceField<Fr>><<<grid(p), ntt::tile_threads(p), 0, s>>>(a, p, tw);
      ZKP_CUDA_CHECK_LAUNCH("dit_pass_kernel");
    }
  }

  void run(DFr* a, std::size_t a_count, DFr* b, std::size_t b_count, DFr* c, std::size_t c_count, cudaStream_t s,
           HForm form) {
    for (const std::size_t count : {a_count, b_count, c == nullptr ? std::size_t{0} : c_count})
      if (count > n) throw std::invalid_argument("cuda h step: " + std::to_string(count) + " inputs for a domain of " + std::to_string(n));
    ntt::detail::check_aligned(a, "a");
    ntt::detail::check_aligned(b, "b");
    if (c != nullptr) ntt::detail::check_aligned(c, "c");
    if (c == nullptr && c_scratch.size() != n) c_scratch = DeviceBuffer<DFr>(n);  // before anything is queued
    const auto pad = [&](DFr* p, std::size_t count) {
      if (count < n) ZKP_CUDA_CHECK(cudaMemsetAsync(p + count, 0, (n - count) * sizeof(DFr), s));
    };
    pad(a, a_count);
    pad(b, b_count);
    if (c != nullptr) pad(c, c_count);
    const unsigned blocks = ntt::detail::pointwise_blocks(n);
    if (c == nullptr) {
      c = c_scratch.data();
      ntt::product_kernel<DeviceField<Fr>><<<blocks, ntt::kPointwiseThreads, 0, s>>>(c, a, b, n);
      ZKP_CUDA_CHECK_LAUNCH("product_kernel");
    }
    DFr* const arrays[3] = {a, b, c};
    odd_coset(arrays, 3, s);
    ntt::h_value_kernel<DeviceField<Fr>><<<blocks, ntt::kPointwiseThreads, 0, s>>>(a, b, c, n, form == HForm::standard);
    ZKP_CUDA_CHECK_LAUNCH("h_value_kernel");
  }

  void run_coset_quotient(DFr* a, DFr* b, DFr* c, std::size_t count, cudaStream_t s) {
    if (inv_coset_low.size() == 0) throw std::invalid_argument("cuda h step: run_coset_quotient needs the domain constructor");
    if (count > n) throw std::invalid_argument("cuda h step: " + std::to_string(count) + " inputs for a domain of " + std::to_string(n));
    for (const DFr* p : {a, b, c}) ntt::detail::check_aligned(p, "a, b or c");
    for (DFr* p : {a, b, c}) {
      if (count < n) ZKP_CUDA_CHECK(cudaMemsetAsync(p + count, 0, (n - count) * sizeof(DFr), s));
    }
    DFr* const arrays[3] = {a, b, c};
    odd_coset(arrays, 3, s);
    const unsigned blocks = ntt::detail::pointwise_blocks(n);
    DFr z;
    std::memcpy(static_cast<void*>(&z), &z_inv, sizeof z);
    ntt::quotient_kernel<DeviceField<Fr>><<<blocks, ntt::kPointwiseThreads, 0, s>>>(a, b, c, n, z);
    ZKP_CUDA_CHECK_LAUNCH("quotient_kernel");
    ntt::Arrays<DFr> one{};
    one.data[0] = a;
    const DFr* tw = twiddles.data();
    for (std::size_t k = plan.high.size(); k-- > 0;) {
      const ntt::TilePass& p = plan.high[k];
      ntt::dif_pass_kernel<DeviceField<Fr>><<<dim3(static_cast<unsigned>(p.tiles()), 1), ntt::tile_threads(p), 0, s>>>(one, p, tw);
      ZKP_CUDA_CHECK_LAUNCH("dif_pass_kernel");
    }
    const ntt::CosetTables<DFr> inv{inv_coset_low.data(), inv_coset_high.data(), inv_coset_low_bits};
    ntt::fused_icoset_kernel<DeviceField<Fr>>
        <<<dim3(static_cast<unsigned>(plan.fused.tiles()), 1), ntt::tile_threads(plan.fused), 0, s>>>(one, plan.fused, tw, inv);
    ZKP_CUDA_CHECK_LAUNCH("fused_icoset_kernel");
    to_standard(a, n, s);
  }

  static void to_standard(DFr* data, std::size_t count, cudaStream_t s) {
    if (count == 0) return;
    ntt::detail::check_aligned(data, "data");
    ntt::to_standard_kernel<DeviceField<Fr>><<<ntt::detail::pointwise_blocks(count), ntt::kPointwiseThreads, 0, s>>>(data, count);
    ZKP_CUDA_CHECK_LAUNCH("to_standard_kernel");
  }
};

namespace ntt::detail {
template <class Fr>
DeviceField<Fr>* device(Fr* p) {
  return reinterpret_cast<DeviceField<Fr>*>(p);
}
}  // namespace ntt::detail

template <class Fr>
HStep<Fr>::HStep(int gpu_index, std::size_t log_n) {
  DeviceGuard guard(gpu_index);
  const NttDomain<Fr> domain(log_n);  // throws beyond the two-adicity
  impl_ = std::make_unique<Impl>(gpu_index, domain, false);
}
template <class Fr>
HStep<Fr>::HStep(int gpu_index, const NttDomain<Fr>& domain, Use use) {
  DeviceGuard guard(gpu_index);
  impl_ = std::make_unique<Impl>(gpu_index, domain, use == Use::coset_quotient);
}
template <class Fr>
void HStep<Fr>::run_coset_quotient(Fr* a, Fr* b, Fr* c, std::size_t count, cudaStream_t stream) {
  DeviceGuard guard(impl_->gpu);
  impl_->run_coset_quotient(ntt::detail::device(a), ntt::detail::device(b), ntt::detail::device(c), count, stream);
}
template <class Fr>
HStep<Fr>::~HStep() {
  reset_on_device(impl_);
}
template <class Fr>
HStep<Fr>::HStep(HStep&&) noexcept = default;
template <class Fr>
HStep<Fr>& HStep<Fr>::operator=(HStep&& other) noexcept {
  if (this != &other) {
    std::unique_ptr<Impl> old = std::exchange(impl_, std::move(other.impl_));
    reset_on_device(old);
  }
  return *this;
}

template <class Fr>
int HStep<Fr>::gpu_index() const {
  return impl_->gpu;
}
template <class Fr>
std::size_t HStep<Fr>::log_n() const {
  return impl_->log_n;
}
template <class Fr>
std::size_t HStep<Fr>::size() const {
  return impl_->n;
}
template <class Fr>
void HStep<Fr>::run(Fr* a, Fr* b, Fr* c, std::size_t count, cudaStream_t stream, HForm form) {
  DeviceGuard guard(impl_->gpu);
  impl_->run(ntt::detail::device(a), count, ntt::detail::device(b), count, ntt::detail::device(c), count, stream, form);
}
template <class Fr>
void HStep<Fr>::run(Fr* a, std::size_t a_count, Fr* b, std::size_t b_count, Fr* c, std::size_t c_count,
                    cudaStream_t stream, HForm form) {
  DeviceGuard guard(impl_->gpu);
  impl_->run(ntt::detail::device(a), a_count, ntt::detail::device(b), b_count, ntt::detail::device(c), c_count, stream, form);
}
template <class Fr>
void HStep<Fr>::odd_coset(Fr* const* data, std::size_t arrays, cudaStream_t stream) {
  DeviceGuard guard(impl_->gpu);
  DeviceField<Fr>* d[ntt::kMaxArrays] = {};
  for (std::size_t k = 0; k < std::min<std::size_t>(arrays, ntt::kMaxArrays); ++k) d[k] = ntt::detail::device(data[k]);
  impl_->odd_coset(d, arrays, stream);
}
template <class Fr>
void HStep<Fr>::to_standard(Fr* data, std::size_t count, cudaStream_t stream) const {
  DeviceGuard guard(impl_->gpu);
  Impl::to_standard(ntt::detail::device(data), count, stream);
}

}  // namespace zkp::cuda
