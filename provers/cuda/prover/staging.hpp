// Host → device uploads through a lane's pinned staging, without a slow single-threaded copy
// in front of the DMA.
//
// Synthesis leaves a proof's inputs (the witness; a and b for the device H step) in pageable
// host memory. cudaMemcpyAsync from pageable memory is synchronous and slow, so they go
// through pinned staging first; one thread's memcpy (5–8 GB/s) would then be the upload's
// bottleneck, below PCIe's rate. staged_upload copies in chunks, each spread over a small
// pool of staging threads, and queues each chunk's DMA as soon as it is staged, so the host
// copy of chunk k+1 overlaps the transfer of chunk k.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "core/util/thread_pool.hpp"

namespace zkp::cuda::prover {

// Threads of the prover's staging pool: enough to outrun PCIe, few enough not to compete
// with synthesis for cores.
inline constexpr unsigned kStagingThreads = 8;

// Copies `bytes` from `src` into `pinned` (which must hold them) and queues their transfer
// to `device` on `stream`. Returns once every chunk is staged and queued; the transfer
// completes in stream order. Throws CudaError if a copy cannot be queued.
void staged_upload(ThreadPool& pool, const void* src, std::uint8_t* pinned, std::uint8_t* device, std::size_t bytes,
                   cudaStream_t stream);

}  // namespace zkp::cuda::prover
