// cuda::Fp<Params>: the device twin of zkp::Fp<Params> (provers/core/ff/fp.hpp).
//
// Same template shape, same Params struct, same bytes: an element is the host's
// Montgomery value a·R mod p (R = 2^(64N) = 2^(32n), n = 2N 32-bit limbs) stored
// little-endian, so host arrays of zkp::Fp copy to the device with a plain memcpy and back.
// The two are told apart by namespace, not by compilation pass: a .cu file's host code
// uploads zkp::Fp values while its kernels compute on cuda::Fp, so both must be nameable
// in one translation unit. Every constant (p, −p^{−1} mod 2^32, R mod p) is derived at
// compile time from the host Params, so the twins cannot drift apart.
//
// Arithmetic is on 32-bit limbs with PTX carry chains (ff/ptx.cuh): on sm_90 the integer
// multiply-add (IMAD, 64 per clock per SM) is the unit that bounds field arithmetic.
// Multiplication is Montgomery's, reduction interleaved row by row (CIOS), with each
// row's products split into an even and an odd accumulator so that every carry chain runs
// over disjoint (lo, hi) pairs and needs no extra carry-propagation pass: the layout of
// Emmart, Zheng and Weems, "Faster Modular Exponentiation Using Double Precision Floating
// Point Arithmetic on the GPU" (ARITH 2018), as sppark's mont_t uses it. Cost per product:
// 4n² + n IMAD (264 for BN254, 588 for BLS12-381 Fq), plus one conditional subtraction.
//
// Values stay fully reduced (< p) after every operation, as on the host, so equality is
// limb equality. Needs p < 2^(32n − 1), one spare bit (BLS12-381 Fr has exactly one): then
// a + b < 2p fits n limbs, and the Montgomery accumulator stays below 2p between rows and
// below 2^33·p < 2^(32(n+1)) within a row, so no chain carries out of its top limb.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda/ff/ptx.cuh"
#include "cuda/util/hd.cuh"
#include "core/ff/fp.hpp"

namespace zkp::cuda {

template <class P>
class alignas(8) Fp {
 public:
  using Params = P;
  using Host = zkp::Fp<P>;
  static constexpr std::size_t kLimbs = 2 * Host::kLimbs;  // 32-bit limbs: 8 or 12
  static constexpr std::size_t kBytes = Host::kBytes;
  static_assert(kLimbs % 2 == 0, "the even/odd product split needs an even limb count");
  static_assert((Host::kModulus.limbs[Host::kLimbs - 1] >> 63) == 0, "needs a spare bit above p");

  std::uint32_t limbs[kLimbs];  // Montgomery form, little-endian; public for vector loads

  // --- constants (folded to immediates in unrolled device code) ----------------------

  ZKP_HD_CONSTEXPR static std::uint32_t modulus_limb(std::size_t i) {
    constexpr auto m = Host::kModulus;
    return static_cast<std::uint32_t>(m.limbs[i / 2] >> (32 * (i % 2)));
  }
  // −p^{−1} mod 2^32: the low half of the host's −p^{−1} mod 2^64.
  ZKP_HD_CONSTEXPR static std::uint32_t inv32() {
    constexpr std::uint64_t v = Host::kInv;
    return static_cast<std::uint32_t>(v);
  }
  ZKP_HD_CONSTEXPR static std::uint32_t one_limb(std::size_t i) {
    constexpr auto r = Host::kR1;
    return static_cast<std::uint32_t>(r.limbs[i / 2] >> (32 * (i % 2)));
  }

  ZKP_HD static Fp zero() {
    Fp r;
ZKP_UNROLL
    for (std::size_t i = 0; i < kLimbs; ++i) r.limbs[i] = 0;
    return r;
  }
  ZKP_HD static Fp one() {
    Fp r;
ZKP_UNROLL
    for (std::size_t i = 0; i < kLimbs; ++i) r.limbs[i] = one_limb(i);
    return r;
  }

  // --- host conversions (same bytes) ----------------------------------------------------

  static Fp from_host(const Host& h) {
    Fp r;
    std::memcpy(r.limbs, &h, sizeof(r.limbs));
    return r;
  }
  Host to_host() const {
    Host h;
    std::memcpy(static_cast<void*>(&h), limbs, sizeof(limbs));
    return h;
  }

  // --- predicates ---------------------------------------------------------------------

  ZKP_HD bool is_zero() const {
    std::uint32_t acc = 0;
ZKP_UNROLL
    for (std::size_t i = 0; i < kLimbs; ++i) acc |= limbs[i];
    return acc == 0;
  }
  ZKP_HD friend bool operator==(const Fp& a, const Fp& b) {
    std::uint32_t acc = 0;
ZKP_UNROLL
    for (std::size_t i = 0; i < kLimbs; ++i) acc |= a.limbs[i] ^ b.limbs[i];
    return acc == 0;
  }
  ZKP_HD friend bool operator!=(const Fp& a, const Fp& b) { return !(a == b); }

  // --- addition -------------------------------------------------------------------------

  ZKP_HD friend Fp operator+(const Fp& a, const Fp& b) {
    Fp r;
    r.limbs[0] = ptx::add_cc(a.limbs[0], b.limbs[0]);
ZKP_UNROLL
    for (std::size_t i = 1; i < kLimbs - 1; ++i) r.limbs[i] = ptx::addc_cc(a.limbs[i], b.limbs[i]);
    r.limbs[kLimbs - 1] = ptx::addc(a.limbs[kLimbs - 1], b.limbs[kLimbs - 1]);  // < 2p: no carry out
    r.subtract_p_if_not_below();
    return r;
  }

  ZKP_HD friend Fp operator-(const Fp& a, const Fp& b) {
    Fp r;
    r.limbs[0] = ptx::sub_cc(a.limbs[0], b.limbs[0]);
ZKP_UNROLL
    for (std::size_t i = 1; i < kLimbs; ++i) r.limbs[i] = ptx::subc_cc(a.limbs[i], b.limbs[i]);
    const std::uint32_t borrow = ptx::subc(0, 0);  // all ones when a < b
    // a − b + (p & borrow): adds p back only when the difference went negative.
    r.limbs[0] = ptx::add_cc(r.limbs[0], modulus_limb(0) & borrow);
ZKP_UNROLL
    for (std::size_t i = 1; i < kLimbs - 1; ++i) r.limbs[i] = ptx::addc_cc(r.limbs[i], modulus_limb(i) & borrow);
    r.limbs[kLimbs - 1] = ptx::addc(r.limbs[kLimbs - 1], modulus_limb(kLimbs - 1) & borrow);
    return r;
  }

  ZKP_HD Fp operator-() const { return zero() - *this; }
  ZKP_HD Fp dbl() const { return *this + *this; }
  ZKP_HD Fp& operator+=(const Fp& b) { return *this = *this + b; }
  ZKP_HD Fp& operator-=(const Fp& b) { return *this = *this - b; }
  ZKP_HD Fp& operator*=(const Fp& b) { return *this = *this * b; }

  // Negated when `flag` (a sign bit of an MSM digit); no branch.
  ZKP_HD Fp cond_neg(bool flag) const {
    const Fp n = -*this;
    Fp r;
    const std::uint32_t mask = 0u - static_cast<std::uint32_t>(flag);
ZKP_UNROLL
    for (std::size_t i = 0; i < kLimbs; ++i) r.limbs[i] = (n.limbs[i] & mask) | (limbs[i] & ~mask);
    return r;
  }

  // --- multiplication -------------------------------------------------------------------

  ZKP_HD friend Fp operator*(const Fp& x, const Fp& y) {
    constexpr std::size_t n = kLimbs;
    // The running value is T = A + 2^32·B (A aligned at limb 0, B one limb up).
    std::uint32_t A[n], B[n];
ZKP_UNROLL
    for (std::size_t i = 0; i < n; i += 2) {
      if (i == 0) first_row(A, B, x.limbs, y.limbs[0]);
      else mad_row(A, B, x.limbs, y.limbs[i]);
      reduce_row(A, B);
      mad_row(B, A, x.limbs, y.limbs[i + 1]);
      reduce_row(B, A);
    }
    // T = A + B/2^32 with B[0] = 0 after the last reduction.
    Fp r;
    r.limbs[0] = ptx::add_cc(A[0], B[1]);
ZKP_UNROLL
    for (std::size_t i = 1; i < n - 1; ++i) r.limbs[i] = ptx::addc_cc(A[i], B[i + 1]);
    r.limbs[n - 1] = ptx::addc(A[n - 1], 0);
    r.subtract_p_if_not_below();  // T < 2p
    return r;
  }

  // Not yet a dedicated squaring (it would save about a fifth of the product rows).
  ZKP_HD Fp square() const { return *this * *this; }

  // a^e for an exponent of up to kLimbs words (most significant bit first).
  ZKP_HD Fp pow_words(const std::uint32_t (&e)[kLimbs]) const {
    Fp r = one();
    for (std::size_t i = 32 * kLimbs; i-- > 0;) {
      r = r.square();
      if ((e[i / 32] >> (i % 32)) & 1) r = r * *this;
    }
    return r;
  }

  // a^{−1} = a^(p−2) (Fermat); zero maps to zero. ≈ 1.5·log2 p products: for one-off
  // conversions (precomputation, tests), not for inner loops.
  ZKP_HD Fp inverse() const {
    std::uint32_t e[kLimbs];  // p − 2 (BLS12-381 r ends in limb 0x00000001: the borrow matters)
    e[0] = ptx::sub_cc(modulus_limb(0), 2);
ZKP_UNROLL
    for (std::size_t i = 1; i < kLimbs; ++i) e[i] = ptx::subc_cc(modulus_limb(i), 0);
    return pow_words(e);
  }

 private:
  using Row = std::uint32_t[kLimbs];

  // T = a·bi, split: even products a[j]·bi (j even) at limbs j, j+1 of A; odd ones at
  // limbs j−1, j of B (B counts one limb up). The pairs are disjoint: no carries.
  ZKP_HD static void first_row(Row& A, Row& B, const Row& a, std::uint32_t bi) {
ZKP_UNROLL
    for (std::size_t j = 0; j < kLimbs; j += 2) {
      A[j] = ptx::mul_lo(a[j], bi);
      A[j + 1] = ptx::mul_hi(a[j], bi);
      B[j] = ptx::mul_lo(a[j + 1], bi);
      B[j + 1] = ptx::mul_hi(a[j + 1], bi);
    }
  }

  // On entry the previous row left T·2^32 = X + 2^32·Y with X[0] = 0, passed here as
  // A = Y (becomes the aligned half) and B = X (becomes the upper half, shifted down two
  // limbs, its limb 1 folded into A[0]). Adds a·bi. The carry out of A[0] enters B's
  // chain at B[0], which is the next limb up.
  ZKP_HD static void mad_row(Row& A, Row& B, const Row& a, std::uint32_t bi) {
    constexpr std::size_t n = kLimbs;
    A[0] = ptx::add_cc(A[0], B[1]);
ZKP_UNROLL
    for (std::size_t j = 0; j < n - 2; j += 2) {
      B[j] = ptx::madc_lo_cc(a[j + 1], bi, B[j + 2]);
      B[j + 1] = ptx::madc_hi_cc(a[j + 1], bi, B[j + 3]);
    }
    B[n - 2] = ptx::madc_lo_cc(a[n - 1], bi, 0);
    B[n - 1] = ptx::madc_hi(a[n - 1], bi, 0);
    A[0] = ptx::mad_lo_cc(a[0], bi, A[0]);
    A[1] = ptx::madc_hi_cc(a[0], bi, A[1]);
ZKP_UNROLL
    for (std::size_t j = 2; j < n; j += 2) {
      A[j] = ptx::madc_lo_cc(a[j], bi, A[j]);
      A[j + 1] = ptx::madc_hi_cc(a[j], bi, A[j + 1]);
    }
    B[n - 1] = ptx::addc(B[n - 1], 0);  // A's carry out lands one limb above A[n−1]
  }

  // T += m·p with m = T[0]·(−p^{−1}) mod 2^32, which clears A[0]. T < 2^(32(n+1)) by
  // the spare bit, so the chain on B never carries out of B[n−1].
  ZKP_HD static void reduce_row(Row& A, Row& B) {
    constexpr std::size_t n = kLimbs;
    const std::uint32_t m = A[0] * inv32();
    B[0] = ptx::mad_lo_cc(m, modulus_limb(1), B[0]);
    B[1] = ptx::madc_hi_cc(m, modulus_limb(1), B[1]);
ZKP_UNROLL
    for (std::size_t j = 2; j < n; j += 2) {
      B[j] = ptx::madc_lo_cc(m, modulus_limb(j + 1), B[j]);
      B[j + 1] = ptx::madc_hi_cc(m, modulus_limb(j + 1), B[j + 1]);
    }
    A[0] = ptx::mad_lo_cc(m, modulus_limb(0), A[0]);
    A[1] = ptx::madc_hi_cc(m, modulus_limb(0), A[1]);
ZKP_UNROLL
    for (std::size_t j = 2; j < n; j += 2) {
      A[j] = ptx::madc_lo_cc(m, modulus_limb(j), A[j]);
      A[j + 1] = ptx::madc_hi_cc(m, modulus_limb(j), A[j + 1]);
    }
    B[n - 1] = ptx::addc(B[n - 1], 0);
  }

  // this −= p unless this < p; input < 2p.
  ZKP_HD void subtract_p_if_not_below() {
    std::uint32_t t[kLimbs];
    t[0] = ptx::sub_cc(limbs[0], modulus_limb(0));
ZKP_UNROLL
    for (std::size_t i = 1; i < kLimbs; ++i) t[i] = ptx::subc_cc(limbs[i], modulus_limb(i));
    const std::uint32_t borrow = ptx::subc(0, 0);  // all ones when this < p: keep this
ZKP_UNROLL
    for (std::size_t i = 0; i < kLimbs; ++i) limbs[i] = (limbs[i] & borrow) | (t[i] & ~borrow);
  }
};

template <class P>
inline constexpr bool kSameLayout = sizeof(Fp<P>) == sizeof(zkp::Fp<P>) && alignof(Fp<P>) == alignof(zkp::Fp<P>) &&
                                    std::is_trivially_copyable_v<Fp<P>>;

}  // namespace zkp::cuda
