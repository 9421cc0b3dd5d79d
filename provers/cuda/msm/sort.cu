#include "cuda/msm/sort.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <limits>
#include <stdexcept>

#include "cuda/util/error.hpp"

namespace zkp::cuda::msm {

namespace {
int checked_items(std::size_t items) {
  if (items > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::invalid_argument("cuda msm sort: more than 2^31 − 1 pairs");
  return static_cast<int>(items);
}
}  // namespace

std::size_t sort_scratch_bytes(std::size_t items, unsigned key_bits) {
  cub::DoubleBuffer<std::uint32_t> k(nullptr, nullptr), v(nullptr, nullptr);
  std::size_t bytes = 0;
  ZKP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, checked_items(items), 0, static_cast<int>(key_bits)));
  return bytes;
}

int sort_pairs(std::array<std::uint32_t*, 2> keys, std::array<std::uint32_t*, 2> refs, std::size_t items,
               unsigned key_bits, void* scratch, std::size_t scratch_bytes, cudaStream_t stream) {
  // DoubleBuffer: CUB ping-pongs between the two buffers and reports where it ended, so no
  // extra copy and scratch stays small.
  cub::DoubleBuffer<std::uint32_t> k(keys[0], keys[1]), v(refs[0], refs[1]);
  ZKP_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch, scratch_bytes, k, v, checked_items(items), 0,
                                                 static_cast<int>(key_bits), stream));
  return k.selector;
}

std::size_t select_scratch_bytes(std::size_t items) {
  std::size_t bytes = 0;
  ZKP_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, bytes, thrust::counting_iterator<std::uint32_t>(0),
                                            static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr),
                                            static_cast<std::uint32_t*>(nullptr), checked_items(items)));
  return bytes;
}

void select_flagged(const std::uint32_t* flags, std::size_t items, std::uint32_t* index, std::uint32_t* count,
                    void* scratch, std::size_t scratch_bytes, cudaStream_t stream) {
  ZKP_CUDA_CHECK(cub::DeviceSelect::Flagged(scratch, scratch_bytes, thrust::counting_iterator<std::uint32_t>(0), flags,
                                            index, count, checked_items(items), stream));
}

}  // namespace zkp::cuda::msm
