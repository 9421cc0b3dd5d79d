// Page-locked host memory, allocated the fast way for large sizes.
//
// cudaMallocHost pins memory one 4 KiB page at a time on one thread: 16 GiB (a 2^27 PoRep
// partition's staging) took 6.95 s on the H200 machine, half of a streamed key_load. Mapping
// the memory anonymously with transparent huge pages (madvise), touching it from every core,
// then registering it (cudaHostRegister) took 1.07 s for the same 16 GiB and copies to the
// device at the same 55 GB/s (docs/PERF.md, key_load). Below kLargePinnedBytes the difference
// is noise and cudaMallocHost is used.
#pragma once

#include <cstddef>

namespace zkp::cuda {

inline constexpr std::size_t kLargePinnedBytes = std::size_t{64} << 20;

// `bytes` of pinned memory, portable to every device of the process. Throws CudaError
// (cudaErrorMemoryAllocation when the host has no room) and never returns null for bytes > 0.
void* pinned_alloc(std::size_t bytes);

// Frees what pinned_alloc(bytes) returned; `bytes` must be the same. Never throws.
void pinned_free(void* p, std::size_t bytes) noexcept;

}  // namespace zkp::cuda
