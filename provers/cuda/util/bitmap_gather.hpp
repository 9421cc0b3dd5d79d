// Scalars picked by a bitmap, packed on the device: dst[k] = src[i_k] for the set bits
// i_0 < i_1 < … of a bitmap over `count` 32-byte scalars (bit i of word i/64, LSB first; bits
// at or past count are ignored). A bellperson key's a and b queries hold only the variables
// their density bitmaps mark, so their MSMs take those variables' scalars: gathering them
// here, from the witness already on the device, replaces a host gather and a second upload
// of nearly the witness's size (4 GiB for a 2^27 PoRep partition's a query).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace zkp::cuda {

// Device scratch bytes gather_by_bitmap needs for up to `count` scalars.
std::size_t bitmap_gather_scratch_bytes(std::size_t count);

// Queues the gather on `stream`. src, words, dst and scratch are device memory; dst holds the
// bitmap's popcount of scalars. Throws CudaError if it cannot be queued, std::invalid_argument
// for count ≥ 2^31.
void gather_by_bitmap(const std::uint8_t* src, const std::uint64_t* words, std::size_t count, std::uint8_t* dst,
                      void* scratch, std::size_t scratch_bytes, cudaStream_t stream);

}  // namespace zkp::cuda
