// Which field kernels this process uses, decided once from CPUID and ZKPIPE_FF_KERNEL.
//
// x86-64 host code only: montgomery.hpp includes this header when ZKPIPE_X86_ADX is defined
// and the compiler is not nvcc (CUDA translation units keep the portable kernels, which
// give the same results).
//
// ZKPIPE_FF_KERNEL (read once, before main):
//   unset or "auto"  the fastest kernel the CPU has (MULX/ADX when CPUID reports BMI2 and
//                    ADX; AVX-512 IFMA batches when it reports AVX512F + IFMA and the OS
//                    saves the ZMM state)
//   "portable"       the portable C++ kernels everywhere (and no IFMA batches)
//   "adx"            MULX/ADX for single products, no IFMA batches
// A value the CPU cannot run falls back to what it can; other values mean "auto". Every
// kernel gives bit-identical results, so the choice changes speed only; tests run whole
// suites under each setting to show it.
#pragma once

#if !defined(__x86_64__) || defined(__CUDACC__)
#error "core/ff/cpu_features.hpp is for x86-64 host code"
#endif

#include <cpuid.h>

#include <cstdlib>
#include <cstring>

namespace zkp::mont {

struct CpuKernels {
  bool adx = false;   // MULX/ADCX/ADOX single products (mont_x86_adx.hpp)
  bool ifma = false;  // 8-lane AVX-512 IFMA products (mont_ifma.hpp)
};

// What CPUID and XGETBV report, before any override.
inline CpuKernels detect_cpu_kernels() {
  CpuKernels k;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d) == 0) return k;
  const bool bmi2 = (b >> 8) & 1, adx = (b >> 19) & 1, avx512f = (b >> 16) & 1, ifma = (b >> 21) & 1;
  k.adx = bmi2 && adx;
  unsigned a1 = 0, b1 = 0, c1 = 0, d1 = 0;
  __get_cpuid(1, &a1, &b1, &c1, &d1);
  const bool osxsave = (c1 >> 27) & 1;
  if (avx512f && ifma && osxsave) {
    // XCR0 bits 1, 2 (SSE, AVX) and 5, 6, 7 (opmask, upper ZMM halves, ZMM16-31): the OS
    // saves the AVX-512 state across context switches.
    unsigned lo = 0, hi = 0;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    k.ifma = (lo & 0xe6) == 0xe6;
  }
  return k;
}

// detect_cpu_kernels() narrowed by ZKPIPE_FF_KERNEL (see the header comment).
inline CpuKernels selected_cpu_kernels() {
  CpuKernels k = detect_cpu_kernels();
  const char* env = std::getenv("ZKPIPE_FF_KERNEL");
  if (env == nullptr) return k;
  if (std::strcmp(env, "portable") == 0) k = {};
  else if (std::strcmp(env, "adx") == 0) k.ifma = false;
  return k;
}

// Set during static initialisation. Code that runs earlier reads all-false and takes the
// portable kernels, which is harmless: every kernel gives the same results.
inline const CpuKernels g_cpu_kernels = selected_cpu_kernels();

// One load and a predicted branch per product, inlined: no call, no indirect jump. (A
// [[gnu::const]] function would let GCC hoist the test out of loops, but outside the
// flattened loops it stays a call per product, which costs more than the load.)
[[gnu::always_inline]] inline bool use_adx_kernels() noexcept { return g_cpu_kernels.adx; }
[[gnu::always_inline]] inline bool use_ifma_kernels() noexcept { return g_cpu_kernels.ifma; }

}  // namespace zkp::mont
