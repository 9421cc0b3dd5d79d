#include "cuda/util/bit_reverse_scatter.hpp"

#include <stdexcept>
#include <string>

#include "cuda/util/error.hpp"

namespace zkp::cuda {
namespace {

constexpr unsigned kThreads = 256;

// One thread per 8-byte word: the reads are coalesced, each element's words land together.
__global__ void scatter_kernel(const std::uint64_t* src, std::uint64_t* dst, std::uint64_t first, std::uint64_t words,
                               unsigned words_per_element, unsigned log_m) {
  const std::uint64_t t = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t >= words) return;
  const std::uint64_t i = t / words_per_element, w = t % words_per_element;
  const std::uint64_t to = log_m == 0 ? 0 : __brevll(first + i) >> (64 - log_m);
  dst[to * words_per_element + w] = src[t];
}

}  // namespace

void scatter_bit_reversed(const void* src, void* dst, std::size_t first, std::size_t n, unsigned log_m,
                          std::size_t element_bytes, cudaStream_t stream) {
  if (element_bytes == 0 || element_bytes % 8 != 0) {
    throw std::invalid_argument("scatter_bit_reversed: elements of " + std::to_string(element_bytes) +
                                " bytes, not a multiple of 8");
  }
  if (n == 0) return;
  const auto per = static_cast<unsigned>(element_bytes / 8);
  const std::uint64_t words = std::uint64_t{n} * per;
  scatter_kernel<<<static_cast<unsigned>((words + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      static_cast<const std::uint64_t*>(src), static_cast<std::uint64_t*>(dst), first, words, per, log_m);
  ZKP_CUDA_CHECK_LAUNCH("scatter_bit_reversed");
}

}  // namespace zkp::cuda
