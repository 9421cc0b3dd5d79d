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
// conditional subtraction reduces it. BLS12-381 has the batch passes too, on eight limbs
// (R' = 2^416, a shifted by 32 bits). The intrinsics live in mont_ifma_bn254.cpp and
// mont_ifma_bls12_381.cpp (the shared lane arithmetic in mont_ifma_lanes.hpp and
// mont_ifma_rows.hpp), compiled for avx512f + avx512ifma by function attribute; nothing here
// needs them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"

namespace zkp::mont::ifma {

// One affine addition as the backward passes below read it: pq points at x1, y1, x2, y2 (four
// consecutive elements of F: P and Q), dst at where x3, y3 go (two consecutive elements).
template <class F>
struct AffineAdd {
  const F* pq;
  F* dst;
};

// The IFMA kernel itself. Needs a CPU with AVX512F + AVX512IFMA and the OS's ZMM state
// (detect_cpu_kernels().ifma); out may alias a or b.
void mul8_bn254_fq_ifma(bn254::Fq* out, const bn254::Fq* a, const bn254::Fq* b);

// out[i] = a[i]·b[i] and out[i] = a[i]² for eight BN254 Fq2 elements, bit-identical to Fp2's
// operator* and square(): the same formulas (Karatsuba, complex squaring) with the products
// and the additions between them on the eight lanes, the elements loaded and stored once.
// Same CPU needs as mul8_bn254_fq_ifma; out may alias a or b. The MSM now runs the batch passes
// below, not these products one at a time; they stay as the way to test the lane arithmetic
// those passes share (every pair of edge values in both components, in every lane).
void mul8_bn254_fq2_ifma(bn254::Fq2* out, const bn254::Fq2* a, const bn254::Fq2* b);
void square8_bn254_fq2_ifma(bn254::Fq2* out, const bn254::Fq2* a);

// The two passes of a batch of BN254 G1 affine additions P + Q (msm::BucketSummer's
// flush_by_eight), in rows of eight lanes, addition k = 8r + l in lane l of row r, with the
// additions' subtractions on the lanes as well: done one lane at a time between the products,
// they and the products' conversions cost about as much as the products themselves (perf,
// BN254 G1). Results are bit-identical to the scalar formulas (fully reduced field elements).
//
// The forward pass: prefix[8r + l] = acc[l], then acc[l] ·= den[8r + l], for r < rows; acc is
// read and written (eight lanes).
void prefix_rows_bn254_fq_ifma(bn254::Fq* prefix, bn254::Fq* acc, const bn254::Fq* den, std::size_t rows);

using AffineAddG1 = AffineAdd<bn254::Fq>;

// The backward pass, rows r = ⌈n/8⌉ − 1 … 0, from inv[l] = 1/acc[l] of the forward pass (acc
// over the whole padded last row: den beyond n holds one). For k = 8r + l < n:
//   1/den_k = inv[l]·prefix[k], then inv[l] ·= den[k];
//   λ = (y2 − y1)/den_k, or where bit l of dbl[r] is set 3·x1²/den_k (a doubling: den_k = 2·y1);
//   x3 = λ² − x1 − x2, y3 = λ·(x1 − x3) − y1, written to jobs[k].dst.
// inv is read only. The caller leaves P at infinity, Q at infinity and P = −Q out of the batch.
void add_rows_bn254_g1_ifma(const AffineAddG1* jobs, std::size_t n, const std::uint8_t* dbl,
                            const bn254::Fq* prefix, const bn254::Fq* den, const bn254::Fq* inv);

// The same two passes for BN254 G2, where the batch inverts the Fq norms of the Fq2
// denominators (1/d = conj(d)/N(d), N(d) = d0² + d1²). Forward: norm[k] = N(den[k]),
// prefix[8r + l] = acc[l], then acc[l] ·= norm[8r + l]. Backward, from inv[l] = 1/acc[l]:
//   1/N_k = inv[l]·prefix[k], then inv[l] ·= norm[k]; 1/den_k = conj(den[k])·(1/N_k);
//   λ, x3, y3 over Fq2 as for G1 (Karatsuba products, complex squarings, as Fp2's operators).
using AffineAddG2 = AffineAdd<bn254::Fq2>;
void prefix_rows_bn254_fq2_norm_ifma(bn254::Fq* prefix, bn254::Fq* norm, bn254::Fq* acc, const bn254::Fq2* den,
                                     std::size_t rows);
void add_rows_bn254_g2_ifma(const AffineAddG2* jobs, std::size_t n, const std::uint8_t* dbl,
                            const bn254::Fq* prefix, const bn254::Fq* norm, const bn254::Fq2* den,
                            const bn254::Fq* inv);

// BLS12-381: the product and the four batch passes above with the same contracts, for its Fq
// (six words; eight 52-bit limbs in the kernel) and Fq2 (Fq[u]/(u² + 1), as BN254's).
void mul8_bls12_381_fq_ifma(bls12_381::Fq* out, const bls12_381::Fq* a, const bls12_381::Fq* b);
void mul8_bls12_381_fq2_ifma(bls12_381::Fq2* out, const bls12_381::Fq2* a, const bls12_381::Fq2* b);
void prefix_rows_bls12_381_fq_ifma(bls12_381::Fq* prefix, bls12_381::Fq* acc, const bls12_381::Fq* den,
                                   std::size_t rows);
void add_rows_bls12_381_g1_ifma(const AffineAdd<bls12_381::Fq>* jobs, std::size_t n, const std::uint8_t* dbl,
                                const bls12_381::Fq* prefix, const bls12_381::Fq* den, const bls12_381::Fq* inv);
void prefix_rows_bls12_381_fq2_norm_ifma(bls12_381::Fq* prefix, bls12_381::Fq* norm, bls12_381::Fq* acc,
                                         const bls12_381::Fq2* den, std::size_t rows);
void add_rows_bls12_381_g2_ifma(const AffineAdd<bls12_381::Fq2>* jobs, std::size_t n, const std::uint8_t* dbl,
                                const bls12_381::Fq* prefix, const bls12_381::Fq* norm, const bls12_381::Fq2* den,
                                const bls12_381::Fq* inv);

// out[i] = a[i]·b[i] for i < n: by eight with IFMA where use_ifma_kernels() says so, else
// (and for the n % 8 tail) one operator* at a time. out may alias a or b elementwise.
void mul_n_bn254_fq(bn254::Fq* out, const bn254::Fq* a, const bn254::Fq* b, std::size_t n);
void mul_n_bls12_381_fq(bls12_381::Fq* out, const bls12_381::Fq* a, const bls12_381::Fq* b, std::size_t n);
void mul_n_bn254_fq2(bn254::Fq2* out, const bn254::Fq2* a, const bn254::Fq2* b, std::size_t n);
void mul_n_bls12_381_fq2(bls12_381::Fq2* out, const bls12_381::Fq2* a, const bls12_381::Fq2* b, std::size_t n);

}  // namespace zkp::mont::ifma
