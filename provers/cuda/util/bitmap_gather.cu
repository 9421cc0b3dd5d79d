#include "cuda/util/bitmap_gather.hpp"

#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <limits>
#include <stdexcept>

#include "cuda/util/error.hpp"

namespace zkp::cuda {
namespace {

struct alignas(16) Scalar32 {
  uint4 lo, hi;
};

struct BitAt {
  const std::uint64_t* words;
  __host__ __device__ bool operator()(std::uint32_t i) const { return ((words[i / 64] >> (i % 64)) & 1u) != 0; }
};

// CUB writes the selected count somewhere; the caller knows it already (the popcount), so it
// goes to the scratch's first bytes and CUB's own scratch follows.
constexpr std::size_t kCountBytes = 256;

int checked(std::size_t count) {
  if (count > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("cuda bitmap gather: more than 2^31 − 1 scalars");
  return static_cast<int>(count);
}

using Flags = thrust::transform_iterator<BitAt, thrust::counting_iterator<std::uint32_t>>;

}  // namespace

std::size_t bitmap_gather_scratch_bytes(std::size_t count) {
  std::size_t bytes = 0;
  const Flags flags(thrust::counting_iterator<std::uint32_t>(0), BitAt{nullptr});
  ZKP_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, bytes, static_cast<const Scalar32*>(nullptr), flags,
                                            static_cast<Scalar32*>(nullptr), static_cast<int*>(nullptr),
                                            checked(count)));
  return kCountBytes + bytes;
}

void gather_by_bitmap(const std::uint8_t* src, const std::uint64_t* words, std::size_t count, std::uint8_t* dst,
                      void* scratch, std::size_t scratch_bytes, cudaStream_t stream) {
  if (count == 0) return;
  if (scratch_bytes < kCountBytes) throw std::invalid_argument("cuda bitmap gather: scratch too small");
  const Flags flags(thrust::counting_iterator<std::uint32_t>(0), BitAt{words});
  auto* selected = static_cast<int*>(scratch);
  std::size_t cub_bytes = scratch_bytes - kCountBytes;
  ZKP_CUDA_CHECK(cub::DeviceSelect::Flagged(static_cast<std::uint8_t*>(scratch) + kCountBytes, cub_bytes,
                                            reinterpret_cast<const Scalar32*>(src), flags, reinterpret_cast<Scalar32*>(dst),
                                            selected, checked(count), stream));
}

}  // namespace zkp::cuda
