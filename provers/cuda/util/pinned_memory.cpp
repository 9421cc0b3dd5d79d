#include "cuda/util/pinned_memory.hpp"

#include <cuda_runtime_api.h>
#include <sys/mman.h>

#include <algorithm>
#include <new>
#include <thread>
#include <vector>

#include "cuda/util/error.hpp"

namespace zkp::cuda {

namespace {

constexpr std::size_t kPage = 4096;
// Zeroing pages is memory-bound: past a few threads more only contend (16 threads touched
// 2 GiB in 0.10 s on the H200 machine).
constexpr unsigned kTouchThreads = 8;
// Below this one thread touches it all: threads cost more than they save.
constexpr std::size_t kParallelFrom = std::size_t{64} << 20;

// Faults every page in, so that registering only locks them.
void touch(unsigned char* p, std::size_t bytes) {
  const auto run = [p](std::size_t begin, std::size_t end) {
    for (std::size_t o = begin; o < end; o += kPage) p[o] = 0;
  };
  const unsigned threads =
      bytes < kParallelFrom ? 1u : std::max(1u, std::min(kTouchThreads, std::thread::hardware_concurrency()));
  if (threads == 1) {
    run(0, bytes);
    return;
  }
  const std::size_t pages = (bytes + kPage - 1) / kPage;
  std::vector<std::thread> workers;
  workers.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) {
    workers.emplace_back(run, pages * t / threads * kPage, std::min(bytes, pages * (t + 1) / threads * kPage));
  }
  run(0, std::min(bytes, pages / threads * kPage));
  for (auto& w : workers) w.join();
}

}  // namespace

void* pin_host_memory(std::size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  madvise(p, bytes, MADV_NOHUGEPAGE);  // advisory: where it is refused, pages stay as they are
  // A child (isolation = process spawns zkpipe-device) must not share these pages copy-on-write:
  // the parent's next write would move it to a copy the device no longer reads. Only the
  // parent ever uses them, so the child gets none (as RDMA libraries do with registered memory).
  if (madvise(p, bytes, MADV_DONTFORK) != 0) {
    munmap(p, bytes);
    throw std::bad_alloc();
  }
  try {
    touch(static_cast<unsigned char*>(p), bytes);
    ZKP_CUDA_CHECK(cudaHostRegister(p, bytes, cudaHostRegisterPortable));
  } catch (...) {
    munmap(p, bytes);
    throw;
  }
  return p;
}

void unpin_host_memory(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  cudaHostUnregister(p);
  munmap(p, bytes);
}

}  // namespace zkp::cuda
