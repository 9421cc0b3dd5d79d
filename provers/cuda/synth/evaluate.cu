#include "cuda/synth/evaluate.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "cuda/ff/fields.cuh"
#include "cuda/synth/evaluate.cuh"
#include "cuda/util/error.hpp"

namespace zkp::cuda::synth {
namespace {

constexpr unsigned kThreads = 256;
constexpr std::uint64_t kMaxBlocks = 8192;

// One thread per row of both matrices. Rows of a real circuit hold a few entries (PoRep: A ~2.4,
// B ~1.0 on average), so a thread's loop is short; a warp waits for its longest row.
template <class D>
__global__ void __launch_bounds__(kThreads)
    evaluate_ab_kernel(const std::uint32_t* a_start, const std::uint32_t* a_wire, const std::uint32_t* a_coef,
                       const std::uint32_t* b_start, const std::uint32_t* b_wire, const std::uint32_t* b_coef,
                       const D* dictionary, const D* witness, std::uint32_t rows, D* a, D* b) {
  for (std::uint64_t r = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; r < rows;
       r += std::uint64_t{gridDim.x} * blockDim.x) {
    const auto row = static_cast<std::uint32_t>(r);
    a[row] = evaluate_row(a_start, a_wire, a_coef, dictionary, witness, row);
    b[row] = evaluate_row(b_start, b_wire, b_coef, dictionary, witness, row);
  }
}

template <class D>
__global__ void __launch_bounds__(kThreads)
    evaluate_c_kernel(const std::uint32_t* start, const std::uint32_t* wire, const std::uint32_t* coef, const D* dictionary,
                      const D* witness, std::uint32_t rows, D* c) {
  for (std::uint64_t r = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; r < rows;
       r += std::uint64_t{gridDim.x} * blockDim.x) {
    c[r] = evaluate_row(start, wire, coef, dictionary, witness, static_cast<std::uint32_t>(r));
  }
}

unsigned blocks_for(std::uint32_t rows) {
  return static_cast<unsigned>(std::clamp<std::uint64_t>((rows + kThreads - 1) / kThreads, 1, kMaxBlocks));
}

DeviceSparseMatrix upload(const SparseMatrix& m, cudaStream_t stream) {
  DeviceSparseMatrix d{DeviceBuffer<std::uint32_t>(m.row_start.size()), DeviceBuffer<std::uint32_t>(m.wire.size()),
                       DeviceBuffer<std::uint32_t>(m.coef.size())};
  if (!m.row_start.empty()) d.row_start.upload(m.row_start, stream);
  if (!m.wire.empty()) {
    d.wire.upload(m.wire, stream);
    d.coef.upload(m.coef, stream);
  }
  return d;
}

}  // namespace

template <class Fr>
DeviceSparseSystem<Fr>::DeviceSparseSystem(const SparseSystem<Fr>& s, cudaStream_t stream)
    : a_(upload(s.a, stream)), b_(upload(s.b, stream)), c_(upload(s.c, stream)), has_c_(s.has_c()), circuit_(s.circuit),
      dictionary_(s.dictionary.size()), domain_size_(s.domain_size), n_vars_(s.n_vars), bytes_(s.device_bytes()) {
  if (!s.dictionary.empty()) dictionary_.upload(s.dictionary, stream);
  // The host vectors are pageable: the copies above are synchronous with respect to the host
  // already, but the caller may free `s` at once, so make it so whatever the runtime does.
  ZKP_CUDA_CHECK(cudaStreamSynchronize(stream));
}

template <class Fr>
void DeviceSparseSystem<Fr>::evaluate_ab(const Fr* witness, Fr* a, Fr* b, cudaStream_t stream) const {
  using D = DeviceField<Fr>;
  if (domain_size_ == 0) return;
  evaluate_ab_kernel<D><<<blocks_for(domain_size_), kThreads, 0, stream>>>(
      a_.row_start.data(), a_.wire.data(), a_.coef.data(), b_.row_start.data(), b_.wire.data(), b_.coef.data(),
      reinterpret_cast<const D*>(dictionary_.data()), reinterpret_cast<const D*>(witness), domain_size_,
      reinterpret_cast<D*>(a), reinterpret_cast<D*>(b));
  ZKP_CUDA_CHECK_LAUNCH("evaluate_ab_kernel");
}

template <class Fr>
void DeviceSparseSystem<Fr>::evaluate_abc(const Fr* witness, Fr* a, Fr* b, Fr* c, cudaStream_t stream) const {
  using D = DeviceField<Fr>;
  if (!has_c_) throw std::logic_error("evaluate_abc: the system has no C matrix (a zkey without its circuit)");
  evaluate_ab(witness, a, b, stream);
  if (domain_size_ == 0) return;
  evaluate_c_kernel<D><<<blocks_for(domain_size_), kThreads, 0, stream>>>(
      c_.row_start.data(), c_.wire.data(), c_.coef.data(), reinterpret_cast<const D*>(dictionary_.data()),
      reinterpret_cast<const D*>(witness), domain_size_, reinterpret_cast<D*>(c));
  ZKP_CUDA_CHECK_LAUNCH("evaluate_c_kernel");
}

template class DeviceSparseSystem<zkp::bn254::Fr>;
template class DeviceSparseSystem<zkp::bls12_381::Fr>;

}  // namespace zkp::cuda::synth
