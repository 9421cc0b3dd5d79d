// CUDA errors as zkp errors, and the check that follows every runtime call and launch.
//
// ZKP_CUDA_CHECK(expr) evaluates a cudaError_t expression once and throws CudaError on
// failure; ZKP_CUDA_CHECK_LAUNCH() does the same for the launch just made (the launch's
// own configuration errors; a fault inside the kernel surfaces at the next synchronising
// call, which is itself checked). The message carries the expression text, file:line and
// cudaGetErrorString, e.g.
//   "cudaMalloc(&p, bytes) failed at provers/cuda/util/buffers.hpp:29: out of memory"
// Out-of-memory maps to ZKP_ERR_OUT_OF_MEMORY, everything else to ZKP_ERR_DEVICE, so the
// plugin boundary (sdk::guard) reports a status without knowing about CUDA.
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <zkpipe/sdk/error.hpp>

namespace zkp::cuda {

class CudaError : public sdk::Error {
 public:
  CudaError(cudaError_t code, const char* expr, const char* file, int line)
      : sdk::Error(code == cudaErrorMemoryAllocation ? ZKP_ERR_OUT_OF_MEMORY : ZKP_ERR_DEVICE,
                   std::string(expr) + " failed at " + file + ":" + std::to_string(line) + ": " +
                       cudaGetErrorString(code)),
        code_(code) {}
  cudaError_t code() const noexcept { return code_; }

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
