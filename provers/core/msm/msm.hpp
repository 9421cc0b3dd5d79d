// Multi-scalar multiplication Σ s_i·P_i over G1 and G2 of BN254 and BLS12-381: the
// Groth16 prover's A, B1, B2 (G2), C and H sums.
//
// Scalars are the raw witness: n × 32 bytes, little-endian, standard form (not Montgomery),
// any 256-bit value (reduced mod r). Zeros are skipped and ±1 summed without buckets
// (scalars.hpp); the rest go through signed-window Pippenger with batch-affine buckets
// (pippenger.hpp, bucket_sum.hpp).
//
// Bases are affine. Base<C> is the zkey layout (x then y, Montgomery form, all-zero bytes =
// infinity), so a zkey section can be used in place through bases_from_mont_bytes; the
// Affine<C> overload copies into that layout first.
//
// Thread-safety: the functions keep no state; concurrent calls are fine. Every call starts
// and joins its own threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "core/ec/affine.hpp"
#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/curves_bn254.hpp"
#include "core/msm/bucket_sum.hpp"

namespace zkp {
class ThreadPool;  // util/thread_pool.hpp
}

namespace zkp::msm {

// One base: x, y in Montgomery form; (0, 0) is the point at infinity (on neither curve).
// The coordinates must be canonical (< q): trusted input such as a checked zkey.
template <CurveParams C>
using Base = PointXY<typename C::Field>;

// The window sizes c that Options::window_bits accepts. The table tops out at 16 (best from
// about 2^20 scalars); 2^(c−1) buckets per window make larger ones memory-bound.
inline constexpr unsigned kMinWindowBits = 2, kMaxWindowBits = 16;

struct Options {
  std::size_t threads = 1;   // threads to start for this call, the caller's included; 0 counts as 1
  unsigned window_bits = 0;  // c, 2..16; 0 chooses by size and threads (split.hpp)
  // Run on this pool (its size() threads, `threads` unused) instead of starting threads: a
  // prover's MSMs then share its one pool with its other parallel loops, and two proofs in
  // flight take turns on the cores rather than start twice as many threads as there are.
  ThreadPool* pool = nullptr;
  // Called once, on the calling thread, when the scalars have been read (classified into the
  // plan the buckets are filled from) and before the buckets are summed: a caller that owns
  // the scalars and needs them no more may free them there, so that they and the bucket
  // scratch are never held at once (the H MSM's scalars, one domain vector).
  std::function<void()> scalars_read{};
};

// Σ scalars[i]·bases[i]. scalars.size() must be 32·bases.size() (std::invalid_argument
// otherwise). Bases at infinity contribute nothing. The result, an exact group element, is
// the same for every thread count and window size.
template <CurveParams C>
Affine<C> msm(std::span<const Base<C>> bases, std::span<const std::uint8_t> scalars, const Options& options = {});

template <CurveParams C>
Affine<C> msm(std::span<const Affine<C>> bases, std::span<const std::uint8_t> scalars, const Options& options = {});

// Scalars as field elements (Montgomery form), e.g. the H coefficients out of the NTT:
// converted to standard form first (one multiplication each). Sizes must match.
template <CurveParams C>
Affine<C> msm(std::span<const Base<C>> bases, std::span<const typename C::Scalar> scalars, const Options& options = {});

// A zkey point section (sections 3, 5–9: n × 2·Field::kBytes) viewed as bases, no copy.
// Throws std::invalid_argument if the size is not a whole number of points or the data is
// not 8-byte aligned (then copy it to an aligned buffer first). The view borrows `section`.
template <CurveParams C>
std::span<const Base<C>> bases_from_mont_bytes(std::span<const std::uint8_t> section);

// The window size c used for `n` scalars that are neither 0 nor ±1 (measured; see window.cpp).
unsigned window_bits_for(std::size_t n);

#define ZKP_MSM_DECLARE(C)                                                                               \
  extern template Affine<C> msm<C>(std::span<const Base<C>>, std::span<const std::uint8_t>, const Options&); \
  extern template Affine<C> msm<C>(std::span<const Affine<C>>, std::span<const std::uint8_t>, const Options&); \
  extern template Affine<C> msm<C>(std::span<const Base<C>>, std::span<const typename C::Scalar>, const Options&); \
  extern template std::span<const Base<C>> bases_from_mont_bytes<C>(std::span<const std::uint8_t>);
ZKP_MSM_DECLARE(bn254::G1)
ZKP_MSM_DECLARE(bn254::G2)
ZKP_MSM_DECLARE(bls12_381::G1)
ZKP_MSM_DECLARE(bls12_381::G2)
#undef ZKP_MSM_DECLARE

}  // namespace zkp::msm
