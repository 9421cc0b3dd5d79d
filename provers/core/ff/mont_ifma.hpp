// Eight BN254 Fq Montgomery products per call with AVX-512 IFMA (x86-64 host code only), and
// eight Fq2 products or squares built on the same lanes.
//
// out[i] = a[i]·b[i] for i < 8, bit-identical to Fq's operator* (fully reduced Montgomery
// form, R = 2^256): the same elements go in and come out, so a caller can switch kernels
// without changing a result. Inside, the eight elements are transposed into five 52-bit
// limbs per lane (one ZMM register per limb) and multiplied with VPMADD52LUQ/HUQ, operand
// scanning with interleaved Montgomery reduction by 2^52 per step (R' = 2^260). The factor
// 2^4 between R' and R costs nothing: a enters shifted left by 4 bits (16a < 2^258 still
// fits five limbs), so the IFMA product (16a·b)/2^260 ≡ a·b/2^256 is below 1.25p and one
// conditional subtraction reduces it. The intrinsics live in mont_ifma_bn254.cpp, compiled
// for avx512f + avx512ifma by function attribute; nothing here needs them.
#pragma once

#include <cstddef>

#include "core/ff/bn254.hpp"

namespace zkp::mont::ifma {

// The IFMA kernel itself. Needs a CPU with AVX512F + AVX512IFMA and the OS's ZMM state
// (detect_cpu_kernels().ifma); out may alias a or b.
void mul8_bn254_fq_ifma(bn254::Fq* out, const bn254::Fq* a, const bn254::Fq* b);

// out[i] = a[i]·b[i] and out[i] = a[i]² for eight BN254 Fq2 elements, bit-identical to Fp2's
// operator* and square(): the same formulas (Karatsuba, complex squaring) with the products
// and the additions between them on the eight lanes, the elements loaded and stored once.
// Same CPU needs as mul8_bn254_fq_ifma; out may alias a or b.
void mul8_bn254_fq2_ifma(bn254::Fq2* out, const bn254::Fq2* a, const bn254::Fq2* b);
void square8_bn254_fq2_ifma(bn254::Fq2* out, const bn254::Fq2* a);

// out[i] = a[i]·b[i] for i < n: by eight with IFMA where use_ifma_kernels() says so, else
// (and for the n % 8 tail) one operator* at a time. out may alias a or b elementwise.
void mul_n_bn254_fq(bn254::Fq* out, const bn254::Fq* a, const bn254::Fq* b, std::size_t n);

}  // namespace zkp::mont::ifma
