// Where the kernel library's CudaError meets the plugin ABI: its status, and the translation
// the SDK's adapter applies to whatever escapes the prover (CudaProver::translate_exception).
#pragma once

#include <exception>
#include <zkpipe/sdk/error.hpp>

#include "cuda/util/error.hpp"

namespace zkp::cuda::prover {

// ZKP_ERR_OUT_OF_MEMORY when the runtime ran out of memory, ZKP_ERR_DEVICE otherwise.
inline zkp_status_t status_of(const CudaError& e) noexcept {
  return e.out_of_memory() ? ZKP_ERR_OUT_OF_MEMORY : ZKP_ERR_DEVICE;
}

// Throws the sdk::Error a CudaError stands for; returns for any other exception.
inline void rethrow_cuda_error_as_status(const std::exception& e) {
  if (const auto* cuda = dynamic_cast<const CudaError*>(&e)) throw sdk::Error(status_of(*cuda), cuda->what());
}

}  // namespace zkp::cuda::prover
