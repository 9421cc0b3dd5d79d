#include "fault_injection.hpp"

#include <cuda_runtime_api.h>

#include <stdexcept>

namespace zkp::test {
namespace {

__global__ void store_through(int* wild) { *wild = 1; }

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

}  // namespace

std::string break_device(int ordinal) {
  check(cudaSetDevice(ordinal), "cudaSetDevice");
  // An address no allocation maps: the first page is never device memory.
  store_through<<<1, 1>>>(reinterpret_cast<int*>(0x8));
  const cudaError_t e = cudaDeviceSynchronize();
  return e == cudaSuccess ? std::string() : std::string(cudaGetErrorString(e));
}

bool device_usable(int ordinal) {
  if (cudaSetDevice(ordinal) != cudaSuccess) return false;
  cudaEvent_t e = nullptr;
  if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) return false;
  cudaEventDestroy(e);
  return true;
}

std::size_t free_device_bytes(int ordinal) {
  check(cudaSetDevice(ordinal), "cudaSetDevice");
  std::size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free;
}

MemoryHog::MemoryHog(int ordinal, std::size_t leave_free) : ordinal_(ordinal) {
  const std::size_t free = free_device_bytes(ordinal);
  if (free <= leave_free) return;
  // The driver keeps some memory back: step down until an allocation succeeds.
  constexpr std::size_t kStep = std::size_t{16} << 20;
  for (std::size_t want = free - leave_free; want > kStep; want -= kStep) {
    if (cudaMalloc(&data_, want) == cudaSuccess) {
      bytes_ = want;
      return;
    }
    cudaGetLastError();
  }
  throw std::runtime_error("MemoryHog: cannot allocate device memory");
}

MemoryHog::~MemoryHog() {
  if (data_ == nullptr) return;
  cudaSetDevice(ordinal_);
  cudaFree(data_);
}

}  // namespace zkp::test
