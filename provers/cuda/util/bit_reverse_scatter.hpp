// Elements placed at bit-reversed positions on the device: dst[bitrev(first + i)] = src[i] for
// i < n, bitrev over log_m bits. A bellperson key's h query must sit in the order the device H
// step leaves the quotient's coefficients (bit-reversed: cuda/ntt/h_step.hpp), and when the
// query is streamed from its file (cuda/prover/streamed_bases.hpp) there is no host copy to
// permute: each piece goes up as it is and lands where it belongs here.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace zkp::cuda {

// Queues the scatter on `stream`. src and dst are device memory, 8-byte aligned, of elements
// `element_bytes` long (a multiple of 8); every first + i < 2^log_m. Throws CudaError if it
// cannot be queued, std::invalid_argument for an element size that is not a multiple of 8.
void scatter_bit_reversed(const void* src, void* dst, std::size_t first, std::size_t n, unsigned log_m,
                          std::size_t element_bytes, cudaStream_t stream);

}  // namespace zkp::cuda
