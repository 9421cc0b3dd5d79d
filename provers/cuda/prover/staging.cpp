#include "staging.hpp"

#include <algorithm>
#include <cstring>

#include "cuda/util/error.hpp"

namespace zkp::cuda::prover {
namespace {

// A chunk is staged by every thread together, then handed to the DMA engine: small enough
// that the first transfer starts early, large enough that a transfer is not latency-bound.
constexpr std::size_t kChunkBytes = std::size_t{8} << 20;
constexpr std::size_t kSliceBytes = std::size_t{1} << 20;  // one thread's share of a chunk, at least

}  // namespace

void staged_upload(ThreadPool& pool, const void* src, std::uint8_t* pinned, std::uint8_t* device, std::size_t bytes,
                   cudaStream_t stream) {
  const auto* from = static_cast<const std::uint8_t*>(src);
  for (std::size_t offset = 0; offset < bytes; offset += kChunkBytes) {
    const std::size_t len = std::min(kChunkBytes, bytes - offset);
    pool.parallel_for(
        len, kSliceBytes, [&](std::size_t b, std::size_t e) { std::memcpy(pinned + offset + b, from + offset + b, e - b); },
        1);
    ZKP_CUDA_CHECK(cudaMemcpyAsync(device + offset, pinned + offset, len, cudaMemcpyHostToDevice, stream));
  }
}

}  // namespace zkp::cuda::prover
