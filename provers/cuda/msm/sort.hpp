// The radix sort of (bucket key, base reference) pairs, and the selection of the scalars the
// compacted path sorts (msm/trivial.cuh): CUB's DeviceRadixSort and DeviceSelect from the CUDA
// toolkit, kept in its own translation unit (msm/sort.cu) because CUB's templates take
// most of a minute of nvcc time, and no curve-specific code needs them.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>

namespace zkp::cuda::msm {

// Scratch bytes sort_pairs needs for up to `items` pairs.
std::size_t sort_scratch_bytes(std::size_t items, unsigned key_bits);

// Sorts keys[0][0, items) with refs[0] alongside, by the low key_bits bits of the key,
// using keys[1]/refs[1] as the second buffer of each pair. Returns 0 or 1: the buffer
// pair that holds the result. Queued on `stream`; every call is checked.
int sort_pairs(std::array<std::uint32_t*, 2> keys, std::array<std::uint32_t*, 2> refs, std::size_t items,
               unsigned key_bits, void* scratch, std::size_t scratch_bytes, cudaStream_t stream);

// Scratch bytes select_flagged needs for up to `items` flags.
std::size_t select_scratch_bytes(std::size_t items);

// The indices i < items with flags[i] != 0, in order, to index[0, count); the count to
// *count (device memory). Queued on `stream`.
void select_flagged(const std::uint32_t* flags, std::size_t items, std::uint32_t* index, std::uint32_t* count,
                    void* scratch, std::size_t scratch_bytes, cudaStream_t stream);

}  // namespace zkp::cuda::msm
