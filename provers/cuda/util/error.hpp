// CUDA runtime errors as C++ exceptions, and the check that follows every runtime call and
// launch.
//
// ZKP_CUDA_CHECK(expr) evaluates a cudaError_t expression once and throws CudaError on
// failure; ZKP_CUDA_CHECK_LAUNCH() does the same for the launch just made (the launch's
// own configuration errors; a fault inside the kernel surfaces at the next synchronising
// call, which is itself checked). The message carries the expression text, file:line and
// cudaGetErrorString, e.g.
//   "cudaMalloc(&p, bytes) failed at provers/cuda/util/buffers.hpp:29: out of memory"
// The kernel library knows nothing of the plugin ABI: the cuda prover turns a CudaError into
// a status (out of memory, or a device error) where it meets the ABI
// (cuda/prover/device_errors.hpp).
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace zkp::cuda {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* expr, const char* file, int line)
      : std::runtime_error(std::string(expr) + " failed at " + file + ":" + std::to_string(line) + ": " +
                           cudaGetErrorString(code)),
        code_(code) {}
  cudaError_t code() const noexcept { return code_; }
  // Whether the call failed for want of device (or pinned host) memory, an error the caller
  // can act on by asking for less; every other code is a failure of the device or the runtime.
  bool out_of_memory() const noexcept { return code_ == cudaErrorMemoryAllocation; }

 private:
  cudaError_t code_;
};

namespace detail {
inline void check(cudaError_t code, const char* expr, const char* file, int line) {
  if (code != cudaSuccess) throw CudaError(code, expr, file, line);
}
}  // namespace detail

}  // namespace zkp::cuda

#define ZKP_CUDA_CHECK(expr) ::zkp::cuda::detail::check((expr), #expr, __FILE__, __LINE__)
// After kernel<<<...>>>(...): cudaGetLastError also clears the sticky-free launch error.
#define ZKP_CUDA_CHECK_LAUNCH(what) ::zkp::cuda::detail::check(cudaGetLastError(), "launch " what, __FILE__, __LINE__)
