#include "cuda/util/input_checks.hpp"

#include <algorithm>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "cuda/ff/fields.cuh"
#include "cuda/ntt/tile.cuh"
#include "cuda/util/error.hpp"

namespace zkp::cuda {
namespace {

constexpr unsigned kThreads = 256;
constexpr std::uint64_t kMaxBlocks = 4096;

unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>(std::clamp<std::uint64_t>((n + kThreads - 1) / kThreads, 1, kMaxBlocks));
}

// Whether the limbs of x, read as an integer, are below the modulus (x is any 32-byte value).
template <class F>
__device__ bool below_modulus(const F& x) {
  ZKP_UNROLL
  for (int i = static_cast<int>(F::kLimbs) - 1; i >= 0; --i) {
    const std::uint32_t m = F::modulus_limb(static_cast<std::size_t>(i));
    if (x.limbs[i] != m) return x.limbs[i] < m;
  }
  return false;  // equal to p
}

__device__ void note(std::uint64_t* first_bad, std::uint64_t i) {
  atomicMin(reinterpret_cast<unsigned long long*>(first_bad), static_cast<unsigned long long>(i));
}

template <class F>
__global__ void __launch_bounds__(kThreads) to_standard_checked_kernel(F* data, std::uint64_t n, std::uint64_t* first_bad) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x) {
    const F x = ntt::detail::load(data + i);
    if (below_modulus(x)) {
      ntt::detail::store(data + i, ntt::to_standard(x));
    } else {
      ntt::detail::store(data + i, F::zero());
      note(first_bad, i);
    }
  }
}

template <class F>
__global__ void __launch_bounds__(kThreads) check_rows_kernel(F* a, F* b, F* c, std::uint64_t n, std::uint64_t* first_bad) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n; i += std::uint64_t{gridDim.x} * blockDim.x) {
    const F x = ntt::detail::load(a + i), y = ntt::detail::load(b + i), z = ntt::detail::load(c + i);
    bool ok = true;
    const auto range = [&](F* where, const F& v, std::size_t which) {
      if (below_modulus(v)) return;
      ntt::detail::store(where + i, F::zero());
      note(first_bad + which, i);
      ok = false;
    };
    range(a, x, RowCheckIndices::a);
    range(b, y, RowCheckIndices::b);
    range(c, z, RowCheckIndices::c);
    if (ok && x * y != z) note(first_bad + RowCheckIndices::row, i);
  }
}

}  // namespace

template <class Fr>
void montgomery_to_standard_checked(Fr* data, std::size_t count, std::uint64_t* first_bad, cudaStream_t stream) {
  using D = DeviceField<Fr>;
  if (count == 0) return;
  to_standard_checked_kernel<D><<<blocks_for(count), kThreads, 0, stream>>>(reinterpret_cast<D*>(data), count, first_bad);
  ZKP_CUDA_CHECK_LAUNCH("to_standard_checked_kernel");
}

template <class Fr>
void check_rows(Fr* a, Fr* b, Fr* c, std::size_t count, std::uint64_t* first_bad, cudaStream_t stream) {
  using D = DeviceField<Fr>;
  if (count == 0) return;
  check_rows_kernel<D><<<blocks_for(count), kThreads, 0, stream>>>(reinterpret_cast<D*>(a), reinterpret_cast<D*>(b),
                                                                  reinterpret_cast<D*>(c), count, first_bad);
  ZKP_CUDA_CHECK_LAUNCH("check_rows_kernel");
}

template void montgomery_to_standard_checked<zkp::bls12_381::Fr>(zkp::bls12_381::Fr*, std::size_t, std::uint64_t*,
                                                                 cudaStream_t);
template void check_rows<zkp::bls12_381::Fr>(zkp::bls12_381::Fr*, zkp::bls12_381::Fr*, zkp::bls12_381::Fr*, std::size_t,
                                             std::uint64_t*, cudaStream_t);
// BN254 too: a zkey's rows checked against its circuit's C with synthesis=device.
template void check_rows<zkp::bn254::Fr>(zkp::bn254::Fr*, zkp::bn254::Fr*, zkp::bn254::Fr*, std::size_t, std::uint64_t*,
                                         cudaStream_t);

}  // namespace zkp::cuda
