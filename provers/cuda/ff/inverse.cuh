// inverse_safegcd(a): a^{−1} for the device field cuda::Fp<P> (cuda/ff/fp.cuh), in
// Montgomery form, equal to a.inverse() (Fermat) for every a; zero maps to zero.
//
// Algorithm: Bernstein–Yang "safegcd" divsteps (D. J. Bernstein, B.-Y. Yang, "Fast
// constant-time gcd computation and modular inversion", TCHES 2019, ePrint 2019/266) in
// the "half-delta" variant (hddivsteps: δ starts at 1/2; here 2δ, an odd integer, starting
// at 1) of P. Wuille's analysis (github.com/sipa/safegcd-bounds), batched 30 divsteps at a
// time on the low limb as libsecp256k1's modinv32 does, and in its constant-iteration
// shape: a fixed number of batches derived from the bit length of p, every divstep branch
// free. Same idea as T. Pornin's "Optimized Binary GCD for Modular Inversion" (ePrint
// 2020/972), which runs batches of ~31 steps on short approximations and applies a 2×2
// matrix to the full values; divsteps need only the low bits, so no approximation error
// to account for. The code here is written for this type, not taken from either library.
//
//   State: f = p, g = a·R (the stored Montgomery value), d = 0, e = R² mod p, as signed
//   30-bit limbs (9 for 254/255-bit p, 13 for 381-bit p). Invariant: f ≡ d·x/e₀ and
//   g ≡ e·x/e₀ (mod p), x = aR, e₀ = R². Each batch runs 30 divsteps on the low 30 bits of
//   f, g, collecting the transition matrix T = [u v; q r] (scaled by 2^30, entries ≤ 2^30
//   in magnitude, fits int32), then sets (f, g) ← T·(f, g)/2^30 (exact) and
//   (d, e) ← T·(d, e)/2^30 mod p (exact division after adding a multiple of p chosen with
//   p^{−1} mod 2^30). When g reaches 0, f = ±1 and d·f ≡ R²/(aR) = a^{−1}R: already the
//   Montgomery form of a^{−1}, so no final product is needed (starting e at R² instead of
//   1 folds in the Montgomery correction). For a = 0, g = 0 throughout and d stays 0.
//
//   Iteration bound: for 0 ≤ g < f ≤ M, hddivsteps reach g = 0 within
//   ⌊(3787·log2 M + 2166)/1644⌋ steps (Wuille, computationally verified for all
//   M ≤ 2^3805; 590 steps for 256-bit M is also proved in Coq in the same repository):
//   586 for p < 2^254, 588 for 2^255, 878 for 2^381. Rounded up to whole batches: 20
//   batches (600 divsteps) for BN254 Fq/Fr and BLS12-381 Fr, 30 (900) for BLS12-381 Fq.
//   Extra divsteps once g = 0 are harmless (f and d mod p do not change).
//
// Cost, counted in sm_90 SASS (nvcc 13, -O3; sizes of kernels that run one piece):
// 30 divsteps ≈ 655 instructions (≈ 22 per divstep: LOP3/IADD3/SHF, no multiplies, no
// branches); the matrix update ≈ 210 (9 limbs) / 300 (13 limbs), 10 IMAD.WIDE per limb
// plus masks and 64-bit shifts. A batch ≈ 870 (BN254) / 965 (BLS12-381 Fq); a call at
// most 20 / 30 batches plus ≈ 300 for conversions and the final normalisation:
// ≤ 17.7k / 29.3k instructions, ≈ 51 / 39 products' worth (a product is ≈ 345 / 760
// instructions), ≈ 46 / 35 for a typical warp (below). Fermat is 366 / 613 products
// (≈ 126k / 466k instructions): 7–8× (BN254) and 16–18× (BLS12-381 Fq) fewer.
// Registers, as a kernel of its own: 66 (BN254), 93 (BLS12-381 Fq), no spills.
//
// Why this shape on a GPU: lanes of a warp invert different values, so any data-dependent
// branch serialises the warp. Here the batch count is bounded by a compile-time constant,
// the divsteps are mask arithmetic, so all 32 lanes execute the same instruction stream
// with no divergence; the matrix update is straight-line IMAD.WIDE on registers (the
// limb loops unroll, constants p, p^{−1} mod 2^30 and R² fold to immediates). The one
// variable-time refinement kept is leaving the batch loop once g = 0: random inputs need
// 17–18 of the 20 batches (BN254) and 26–27 of the 30 (BLS12-381 Fq), measured over
// 64k values, with the maximum over a warp of 32 at 18 and 26–27, so a warp saves ~10%
// and never does more than the fixed count. libsecp256k1's other variable-time tricks
// (skipping runs of zero bits with a count-trailing-zeros, shrinking the limb count as
// f and g shrink) make lanes take different paths and would serialise the warp.
//
// All constants are derived at compile time from the host Params (zkp::Fp's kModulus,
// kR2 and kInv), as fp.cuh does. Integer arithmetic only: 32-bit
// words and 64-bit products/accumulators (IMAD.WIDE), no 128-bit types.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/ff/fp.cuh"
#include "cuda/ff/fp2.cuh"
#include "cuda/util/hd.cuh"

namespace zkp::cuda {

namespace safegcd {

// The per-field constants and steps. F is a cuda::Fp<P>.
template <class F>
struct Safegcd {
  using Host = typename F::Host;
  static constexpr std::size_t kBits = Host::kBits;  // bit length of p
  // Signed 30-bit limbs: d, e lie in (−2p, p), so bits + 1 magnitude bits and a sign.
  static constexpr std::size_t kN = (kBits + 2 + 29) / 30;
  static constexpr std::uint32_t kMask = (1u << 30) - 1;
  // Wuille's hddivsteps bound for M = 2^kBits > p (valid for M ≥ 4257874).
  static constexpr std::size_t kDivsteps = (3787 * kBits + 2166) / 1644;
  static constexpr std::size_t kBatches = (kDivsteps + 29) / 30;
  static_assert(kBits >= 23 && kBits <= 3805, "outside the range where the divstep bound was verified");
  static_assert(30 * kN >= kBits + 2);

  // Bits [30i, 30i + 30) of a host BigInt (64-bit limbs).
  template <class Int>
  ZKP_HD_CONSTEXPR static std::uint32_t bits30(const Int& x, std::size_t i) {
    const std::size_t b = 30 * i, w = b / 64, s = b % 64;
    if (w >= Int::kLimbs) return 0;
    std::uint64_t v = x.limbs[w] >> s;
    if (s > 34 && w + 1 < Int::kLimbs) v |= x.limbs[w + 1] << (64 - s);
    return static_cast<std::uint32_t>(v) & kMask;
  }
  ZKP_HD_CONSTEXPR static std::int32_t modulus30(std::size_t i) {
    constexpr auto m = Host::kModulus;
    return static_cast<std::int32_t>(bits30(m, i));
  }
  ZKP_HD_CONSTEXPR static std::int32_t r2_30(std::size_t i) {  // R² mod p: the Montgomery fix-up
    constexpr auto r2 = Host::kR2;
    return static_cast<std::int32_t>(bits30(r2, i));
  }
  // p^{−1} mod 2^30, from the host's −p^{−1} mod 2^64.
  ZKP_HD_CONSTEXPR static std::uint32_t pinv30() {
    constexpr std::uint64_t neg_inv = Host::kInv;
    return static_cast<std::uint32_t>(0 - neg_inv) & kMask;
  }
  struct Matrix {
    std::int32_t u, v, q, r;
  };

  // 30 hddivsteps on the low 30 bits of f and g (f odd); returns the new 2δ and the
  // transition matrix: after the batch 2^30·(f', g') = (u·f + v·g, q·f + r·g).
  // Branch free: sw (all ones when δ > 0 and g odd) swaps (f, g) ← (g, −f), then an odd
  // g gets f added, then g halves. Written as masks, one step is
  //   g += ((f ^ sw) & odd) − sw;  f += g & sw  (f becomes the old g, g the old g − f),
  // the same for the matrix rows (u, v) and (q, r), and rows (u, v) double instead of g
  // halving (the 2^k scaling).
  ZKP_HD static std::int32_t divsteps30(std::int32_t delta, std::uint32_t f, std::uint32_t g, Matrix& t) {
    std::uint32_t u = 1, v = 0, q = 0, r = 1;
ZKP_UNROLL
    for (int i = 0; i < 30; ++i) {
      const std::uint32_t odd = 0u - (g & 1);
      const std::uint32_t sw = odd & static_cast<std::uint32_t>((0 - delta) >> 31);  // δ > 0 and g odd
      g = g + ((f ^ sw) & odd) - sw;
      q = q + ((u ^ sw) & odd) - sw;
      r = r + ((v ^ sw) & odd) - sw;
      f += g & sw;
      u += q & sw;
      v += r & sw;
      delta = static_cast<std::int32_t>((static_cast<std::uint32_t>(delta) ^ sw) - sw + 2);  // 2 ± δ
      g >>= 1;
      u <<= 1;
      v <<= 1;
    }
    t = {static_cast<std::int32_t>(u), static_cast<std::int32_t>(v), static_cast<std::int32_t>(q),
         static_cast<std::int32_t>(r)};
    return delta;
  }

  // (f, g) ← T·(f, g)/2^30, exact (the low 30 bits of both sums are zero by construction).
  // Limbs below the top stay in [0, 2^30); the top limb carries the sign.
  ZKP_HD static void update_fg(std::int32_t (&f)[kN], std::int32_t (&g)[kN], const Matrix& t) {
    std::int64_t cf = static_cast<std::int64_t>(t.u) * f[0] + static_cast<std::int64_t>(t.v) * g[0];
    std::int64_t cg = static_cast<std::int64_t>(t.q) * f[0] + static_cast<std::int64_t>(t.r) * g[0];
    cf >>= 30;
    cg >>= 30;
ZKP_UNROLL
    for (std::size_t i = 1; i < kN; ++i) {
      cf += static_cast<std::int64_t>(t.u) * f[i] + static_cast<std::int64_t>(t.v) * g[i];
      cg += static_cast<std::int64_t>(t.q) * f[i] + static_cast<std::int64_t>(t.r) * g[i];
      f[i - 1] = static_cast<std::int32_t>(static_cast<std::uint32_t>(cf) & kMask);
      g[i - 1] = static_cast<std::int32_t>(static_cast<std::uint32_t>(cg) & kMask);
      cf >>= 30;
      cg >>= 30;
    }
    f[kN - 1] = static_cast<std::int32_t>(cf);
    g[kN - 1] = static_cast<std::int32_t>(cg);
  }

  // (d, e) ← T·(d, e)/2^30 mod p, keeping both in (−2p, p). md·p and me·p are added so the
  // low 30 bits cancel (md ≡ −p^{−1}·(u·d + v·e) mod 2^30); md starts from u (resp. v)
  // when d (resp. e) is negative, which pulls negative inputs up by p·(u·[d<0] + v·[e<0])
  // and, with |u| + |v| ≤ 2^30, keeps the result in range (libsecp256k1's modinv32
  // argument). Sums stay below 2^62 in magnitude: 64-bit accumulators suffice.
  ZKP_HD static void update_de(std::int32_t (&d)[kN], std::int32_t (&e)[kN], const Matrix& t) {
    const std::int32_t sd = d[kN - 1] >> 31, se = e[kN - 1] >> 31;  // all ones when negative
    std::int32_t md = (t.u & sd) + (t.v & se);
    std::int32_t me = (t.q & sd) + (t.r & se);
    std::int64_t cd = static_cast<std::int64_t>(t.u) * d[0] + static_cast<std::int64_t>(t.v) * e[0];
    std::int64_t ce = static_cast<std::int64_t>(t.q) * d[0] + static_cast<std::int64_t>(t.r) * e[0];
    md -= static_cast<std::int32_t>((pinv30() * static_cast<std::uint32_t>(cd) + static_cast<std::uint32_t>(md)) & kMask);
    me -= static_cast<std::int32_t>((pinv30() * static_cast<std::uint32_t>(ce) + static_cast<std::uint32_t>(me)) & kMask);
    cd += static_cast<std::int64_t>(md) * modulus30(0);
    ce += static_cast<std::int64_t>(me) * modulus30(0);
    cd >>= 30;
    ce >>= 30;
ZKP_UNROLL
    for (std::size_t i = 1; i < kN; ++i) {
      cd += static_cast<std::int64_t>(t.u) * d[i] + static_cast<std::int64_t>(t.v) * e[i];
      ce += static_cast<std::int64_t>(t.q) * d[i] + static_cast<std::int64_t>(t.r) * e[i];
      if (modulus30(i) != 0) {  // folds away: a compile-time constant
        cd += static_cast<std::int64_t>(md) * modulus30(i);
        ce += static_cast<std::int64_t>(me) * modulus30(i);
      }
      d[i - 1] = static_cast<std::int32_t>(static_cast<std::uint32_t>(cd) & kMask);
      e[i - 1] = static_cast<std::int32_t>(static_cast<std::uint32_t>(ce) & kMask);
      cd >>= 30;
      ce >>= 30;
    }
    d[kN - 1] = static_cast<std::int32_t>(cd);
    e[kN - 1] = static_cast<std::int32_t>(ce);
  }

  // x += p & mask, then carries: lower limbs back to [0, 2^30), sign in the top limb.
  ZKP_HD static void add_p_masked(std::int32_t (&x)[kN], std::int32_t mask) {
    std::int32_t c = 0;
ZKP_UNROLL
    for (std::size_t i = 0; i < kN; ++i) {
      c += x[i] + (modulus30(i) & mask);
      if (i + 1 < kN) {
        x[i] = c & static_cast<std::int32_t>(kMask);
        c >>= 30;
      } else {
        x[i] = c;
      }
    }
  }
  // x ← −x when mask is all ones, then carries.
  ZKP_HD static void negate_masked(std::int32_t (&x)[kN], std::int32_t mask) {
    std::int32_t c = 0;
ZKP_UNROLL
    for (std::size_t i = 0; i < kN; ++i) {
      c += (x[i] ^ mask) - mask;
      if (i + 1 < kN) {
        x[i] = c & static_cast<std::int32_t>(kMask);
        c >>= 30;
      } else {
        x[i] = c;
      }
    }
  }

  ZKP_HD static F invert(const F& a) {
    static_assert(((pinv30() * static_cast<std::uint32_t>(modulus30(0))) & kMask) == 1);
    constexpr std::size_t n32 = F::kLimbs;
    std::int32_t f[kN], g[kN], d[kN], e[kN];
ZKP_UNROLL
    for (std::size_t i = 0; i < kN; ++i) {
      // g: bits [30i, 30i + 30) of the 32-bit limbs of a·R.
      const std::size_t b = 30 * i, w = b / 32, s = b % 32;
      std::uint32_t x = w < n32 ? a.limbs[w] >> s : 0;
      if (s > 2 && w + 1 < n32) x |= a.limbs[w + 1] << (32 - s);
      g[i] = static_cast<std::int32_t>(x & kMask);
      f[i] = modulus30(i);
      d[i] = 0;
      e[i] = r2_30(i);
    }
    std::int32_t delta = 1;  // 2δ, δ = 1/2
    for (std::size_t k = 0; k < kBatches; ++k) {
      // Stop once g = 0 (further batches would leave f and d mod p unchanged). Not a
      // divergent path: a lane that leaves early idles until its warp's slowest lane is
      // done, which is what the fixed count would have made it do anyway.
      std::int32_t g_bits = 0;
ZKP_UNROLL
      for (std::size_t i = 0; i < kN; ++i) g_bits |= g[i];
      if (g_bits == 0) break;
      Matrix t;
      delta = divsteps30(delta, static_cast<std::uint32_t>(f[0]), static_cast<std::uint32_t>(g[0]), t);
      update_fg(f, g, t);
      update_de(d, e, t);
    }
    // Now g = 0, f = ±1 (f = p when a = 0, with d = 0): the inverse is d·f, d ∈ (−2p, p).
    add_p_masked(d, d[kN - 1] >> 31);   // (−p, p)
    negate_masked(d, f[kN - 1] >> 31);  // (−p, p)
    add_p_masked(d, d[kN - 1] >> 31);   // [0, p)
    F out;
ZKP_UNROLL
    for (std::size_t j = 0; j < n32; ++j) {
      // Bits [32j, 32j + 32): from limb k (offset s, even, ≤ 28) and limb k + 1.
      const std::size_t b = 32 * j, k = b / 30, s = b % 30;
      std::uint32_t x = static_cast<std::uint32_t>(d[k]) >> s;
      if (k + 1 < kN) x |= static_cast<std::uint32_t>(d[k + 1]) << (30 - s);
      out.limbs[j] = x;
    }
    return out;
  }
};

}  // namespace safegcd

// a^{−1} in Montgomery form by safegcd (see the top of this file); zero maps to zero.
// Same result as a.inverse(), ≈ 50 (BN254) / 40 (BLS12-381 Fq) products' worth of
// instructions instead of 366 / 613 products, with no data-dependent branches.
template <class P>
ZKP_HD Fp<P> inverse_safegcd(const Fp<P>& a) {
  return safegcd::Safegcd<Fp<P>>::invert(a);
}

// Fp2: (c0 − c1·u)/(c0² + c1²), the norm inverted by safegcd; zero maps to zero.
template <class Fq>
ZKP_HD Fp2<Fq> inverse_safegcd(const Fp2<Fq>& a) {
  const Fq t = inverse_safegcd(a.c0.square() + a.c1.square());
  return {a.c0 * t, -(a.c1 * t)};
}

}  // namespace zkp::cuda
