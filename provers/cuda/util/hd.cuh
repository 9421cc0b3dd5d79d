// Function qualifiers shared by device code and its host emulation.
//
// The device field and curve headers compile in three ways: the device pass of nvcc
// (PTX carry chains), the host pass of nvcc, and plain g++ for the host-emulation tests
// (tests/cuda/ff_emulation_test.cpp), which run the very same algorithms on the CPU where
// CI has no GPU. ZKP_HD marks functions usable on both sides.
#pragma once

#if defined(__CUDACC__)
#define ZKP_HD __host__ __device__ __forceinline__
#define ZKP_HD_CONSTEXPR __host__ __device__ constexpr
#else
#define ZKP_HD inline
#define ZKP_HD_CONSTEXPR constexpr
#endif

// Limb loops must unroll so limbs stay in registers and constants fold: nvcc's pragma in
// the device pass, GCC's (which needs a bound) in host passes and host-only builds.
#if defined(__CUDA_ARCH__)
#define ZKP_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__clang__)
#define ZKP_UNROLL _Pragma("GCC unroll 32")
#else
#define ZKP_UNROLL
#endif
