# Compiler settings for every zkpipe CUDA target; included by provers/cuda and tests/cuda.

# CMake 3.25 does not know nvcc's flag for the C++20 dialect that the core's cxx_std_20
# requirement asks of CUDA sources too; nvcc 12+ accepts -std=c++20.
set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")

#   --expt-relaxed-constexpr: device code reads the host field constants through constexpr
#     functions (cuda/ff/fp.cuh), so the twins share one definition of p, R, −p^{−1}.
#   -diag-suppress=1675: the host ff headers use '#pragma GCC unroll', unknown to nvcc's
#     front end (the host compiler still sees and honours it).
set(ZKPIPE_CUDA_FLAGS --expt-relaxed-constexpr -diag-suppress=1675)
if(ZKPIPE_WERROR)
  list(APPEND ZKPIPE_CUDA_FLAGS --Werror=all-warnings -Xcompiler=-Wall,-Wextra,-Werror)
endif()
# A build that never runs its device code (CI: no GPU; it checks that the CUDA code compiles and
# runs the prover's no-GPU tests) may skip the device optimizer: -Xcicc=-O0 halves nvcc's CPU
# time on the MSM units (msm_bn254.cu: 61 -> 30 CPU-s, docs/CI.md). Its PTX is correct and slow:
# never ship, benchmark or device-test such a build.
option(ZKPIPE_CUDA_DEVICE_OPT "Optimize device code (OFF: compile-check only, e.g. CI without a GPU)" ON)
if(NOT ZKPIPE_CUDA_DEVICE_OPT)
  list(APPEND ZKPIPE_CUDA_FLAGS -Xcicc=-O0)
endif()
option(ZKPIPE_CUDA_PTXAS_VERBOSE "Print ptxas register/spill reports for the CUDA kernels" OFF)
if(ZKPIPE_CUDA_PTXAS_VERBOSE)
  list(APPEND ZKPIPE_CUDA_FLAGS -Xptxas=-v)
endif()

function(zkpipe_cuda_target_defaults tgt)
  zkpipe_target_defaults(${tgt})
  target_compile_options(${tgt} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:${ZKPIPE_CUDA_FLAGS}>")
endfunction()
