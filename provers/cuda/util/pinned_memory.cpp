#include "cuda/util/pinned_memory.hpp"

#include <cuda_runtime_api.h>
#include <sys/mman.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "cuda/util/error.hpp"

namespace zkp::cuda {
namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

// The first touch of every page, from up to 16 threads: the kernel's page faults (and the
// zeroing of each huge page) are what a single thread spends its seconds on.
void touch_in_parallel(char* p, std::size_t bytes) {
  const std::size_t pages = (bytes + kHugePage - 1) / kHugePage;
  const std::size_t threads = std::min<std::size_t>({std::max(1u, std::thread::hardware_concurrency()), 16, pages});
  const auto touch = [=](std::size_t t) {
    for (std::size_t page = t; page < pages; page += threads) {
      const std::size_t end = std::min(bytes, (page + 1) * kHugePage);
      for (std::size_t at = page * kHugePage; at < end; at += 4096) p[at] = 0;
    }
  };
  std::vector<std::thread> others;
  for (std::size_t t = 1; t < threads; ++t) others.emplace_back(touch, t);
  touch(0);
  for (auto& th : others) th.join();
}

}  // namespace

void* pinned_alloc(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  if (bytes < kLargePinnedBytes) {
    void* p = nullptr;
    ZKP_CUDA_CHECK(cudaMallocHost(&p, bytes));
    return p;
  }
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) ZKP_CUDA_CHECK(cudaErrorMemoryAllocation);
  ::madvise(p, bytes, MADV_HUGEPAGE);  // a hint: without huge pages it is slower, not wrong
  touch_in_parallel(static_cast<char*>(p), bytes);
  if (const cudaError_t e = cudaHostRegister(p, bytes, cudaHostRegisterPortable); e != cudaSuccess) {
    ::munmap(p, bytes);
    cudaGetLastError();
    ZKP_CUDA_CHECK(e);
  }
  return p;
}

void pinned_free(void* p, std::size_t bytes) noexcept {
  if (p == nullptr) return;
  if (bytes < kLargePinnedBytes) {
    cudaFreeHost(p);
    return;
  }
  cudaHostUnregister(p);
  ::munmap(p, bytes);
}

}  // namespace zkp::cuda
