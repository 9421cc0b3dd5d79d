// Whether this build has the device H step (cuda::HStep, provers/cuda/ntt/h_step.hpp). CMake
// defines ZKPIPE_CUDA_HAVE_HSTEP when zkp_cuda_core (or zkp_cuda_ntt) compiles it, so the prover
// builds, and offers h=host only, while the device H step is still being written.
#pragma once

#ifdef ZKPIPE_CUDA_HAVE_HSTEP
#include "cuda/ntt/h_step.hpp"
#endif

namespace zkp::cuda::prover {

#ifdef ZKPIPE_CUDA_HAVE_HSTEP
inline constexpr bool kHaveDeviceH = true;
#else
inline constexpr bool kHaveDeviceH = false;
#endif

}  // namespace zkp::cuda::prover
