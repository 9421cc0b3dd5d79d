// Small bit operations with one spelling on the device and the host.
#pragma once

#include <bit>
#include <cstdint>

#include "cuda/util/hd.cuh"

namespace zkp::cuda {

// Index of the highest set bit of v ≠ 0.
ZKP_HD int top_bit(std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  return 31 - __clz(v);
#else
  return 31 - std::countl_zero(v);
#endif
}

// A read through the read-only data cache on the device (for data no kernel writes while
// it runs), a plain read on the host.
template <class T>
ZKP_HD T load_readonly(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

}  // namespace zkp::cuda
