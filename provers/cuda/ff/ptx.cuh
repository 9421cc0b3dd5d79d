// 32-bit add/multiply-add with the carry flag: the PTX carry-chain instructions
// (PTX ISA, "Extended-Precision Integer Arithmetic Instructions": add.cc, addc, sub.cc,
// subc, mad.lo.cc, madc.hi.cc), one function per instruction.
//
// Each device function is one `asm volatile` statement. The carry flag (CC) is invisible
// to the compiler, so a chain only works if the statements stay in program order, which
// `volatile` guarantees; no other instruction the compiler emits between them writes CC.
// This is how sppark's mont_t and Yrrid's ZPrize MSM chain carries.
//
// On the host the same functions run on an emulated flag (one per thread), so the field
// code above them can be tested against the host fields on any machine. The emulation is
// exact: each function returns and sets what the PTX instruction does.
#pragma once

#include <cstdint>

#include "cuda/util/hd.cuh"

namespace zkp::cuda::ptx {

#if defined(__CUDA_ARCH__)

#define ZKP_PTX_3(name, op)                                                   \
  __device__ __forceinline__ std::uint32_t name(std::uint32_t a, std::uint32_t b) { \
    std::uint32_t r;                                                          \
    asm volatile(op " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));               \
    return r;                                                                 \
  }
#define ZKP_PTX_4(name, op)                                                                   \
  __device__ __forceinline__ std::uint32_t name(std::uint32_t a, std::uint32_t b, std::uint32_t c) { \
    std::uint32_t r;                                                                          \
    asm volatile(op " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));                   \
    return r;                                                                                 \
  }

ZKP_PTX_3(add_cc, "add.cc.u32")
ZKP_PTX_3(addc_cc, "addc.cc.u32")
ZKP_PTX_3(addc, "addc.u32")
ZKP_PTX_3(sub_cc, "sub.cc.u32")
ZKP_PTX_3(subc_cc, "subc.cc.u32")
ZKP_PTX_3(subc, "subc.u32")
ZKP_PTX_4(mad_lo_cc, "mad.lo.cc.u32")
ZKP_PTX_4(madc_lo_cc, "madc.lo.cc.u32")
ZKP_PTX_4(mad_hi_cc, "mad.hi.cc.u32")
ZKP_PTX_4(madc_hi_cc, "madc.hi.cc.u32")
ZKP_PTX_4(madc_hi, "madc.hi.u32")
ZKP_PTX_4(madc_lo, "madc.lo.u32")

#undef ZKP_PTX_3
#undef ZKP_PTX_4

__device__ __forceinline__ std::uint32_t mul_lo(std::uint32_t a, std::uint32_t b) { return a * b; }
__device__ __forceinline__ std::uint32_t mul_hi(std::uint32_t a, std::uint32_t b) { return __umulhi(a, b); }

#else  // host emulation

namespace emu {
inline thread_local std::uint32_t carry = 0;  // the emulated CC.CF flag

inline std::uint32_t set(std::uint64_t wide) {
  carry = static_cast<std::uint32_t>(wide >> 32);
  return static_cast<std::uint32_t>(wide);
}
inline std::uint64_t lo(std::uint32_t a, std::uint32_t b) { return static_cast<std::uint32_t>(std::uint64_t{a} * b); }
inline std::uint64_t hi(std::uint32_t a, std::uint32_t b) { return (std::uint64_t{a} * b) >> 32; }
}  // namespace emu

inline std::uint32_t add_cc(std::uint32_t a, std::uint32_t b) { return emu::set(std::uint64_t{a} + b); }
inline std::uint32_t addc_cc(std::uint32_t a, std::uint32_t b) { return emu::set(std::uint64_t{a} + b + emu::carry); }
inline std::uint32_t addc(std::uint32_t a, std::uint32_t b) { return static_cast<std::uint32_t>(std::uint64_t{a} + b + emu::carry); }
// PTX sub.cc sets CC.CF to the borrow; subc subtracts it.
inline std::uint32_t sub_cc(std::uint32_t a, std::uint32_t b) {
  emu::carry = a < b;
  return a - b;
}
inline std::uint32_t subc_cc(std::uint32_t a, std::uint32_t b) {
  const std::uint64_t d = std::uint64_t{a} - b - emu::carry;
  emu::carry = static_cast<std::uint32_t>(d >> 63);
  return static_cast<std::uint32_t>(d);
}
inline std::uint32_t subc(std::uint32_t a, std::uint32_t b) { return a - b - emu::carry; }
inline std::uint32_t mad_lo_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return emu::set(emu::lo(a, b) + c); }
inline std::uint32_t madc_lo_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return emu::set(emu::lo(a, b) + c + emu::carry); }
inline std::uint32_t mad_hi_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return emu::set(emu::hi(a, b) + c); }
inline std::uint32_t madc_hi_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return emu::set(emu::hi(a, b) + c + emu::carry); }
inline std::uint32_t madc_hi(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return static_cast<std::uint32_t>(emu::hi(a, b) + c + emu::carry); }
inline std::uint32_t madc_lo(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return static_cast<std::uint32_t>(emu::lo(a, b) + c + emu::carry); }
inline std::uint32_t mul_lo(std::uint32_t a, std::uint32_t b) { return a * b; }
inline std::uint32_t mul_hi(std::uint32_t a, std::uint32_t b) { return static_cast<std::uint32_t>(emu::hi(a, b)); }

#endif

}  // namespace zkp::cuda::ptx
