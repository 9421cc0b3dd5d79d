// Page-locked host memory for asynchronous copies, made fast to get: anonymous pages mapped,
// touched from several threads and then registered with the driver (cudaHostRegister).
//
// cudaMallocHost locks its pages one at a time on the calling thread: 2 GiB took 1.32 s on the
// H200 machine, and no faster than 0.86 s from several threads at once (the driver serialises
// most of it). The same 2 GiB mapped, touched from every core and registered took 0.20 s, and
// the device reads it at the same 54.5 GB/s (docs/perf-data/2026-12-05-session16, pin_probe).
// Pages are 4 KiB on purpose (MADV_NOHUGEPAGE): huge-page memory registered this way was
// what session 13 measured slower proofs with (docs/PERF.md), and 4 KiB pages already
// register at 10 GB/s.
#pragma once

#include <cstddef>

namespace zkp::cuda {

// `bytes` > 0 of page-locked, zero-filled host memory, usable by every device's copies.
// Throws CudaError when the driver refuses (the pages are given back first).
void* pin_host_memory(std::size_t bytes);
// Gives back what pin_host_memory returned, with the same size; never throws.
void unpin_host_memory(void* p, std::size_t bytes) noexcept;

}  // namespace zkp::cuda
