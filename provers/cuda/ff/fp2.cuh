// cuda::Fp2<Fq>: the device twin of zkp::Fp2 (provers/core/ff/fp2.hpp), Fq[u]/(u² + 1).
// Same layout (c0 then c1, each a Montgomery Fq) and the same formulas, so results agree
// bit for bit with the host.
#pragma once

#include <type_traits>

#include "cuda/ff/fp.cuh"
#include "cuda/util/hd.cuh"
#include "core/ff/fp2.hpp"

// The Fp2 product and square are real calls on the device, not inlined: a G2 XYZZ addition
// holds 14 of them (42 Fq products), and fully inlined G2 MSM kernels grow so large that
// nvcc's optimiser takes over half an hour per curve (measured on this tree's build box)
// and the code overflows the instruction cache. Arguments go by value, so the call passes
// registers, not stack addresses.
#if defined(__CUDACC__)
#define ZKP_FP2_CALLED __host__ __device__ __noinline__
#else
#define ZKP_FP2_CALLED inline
#endif

namespace zkp::cuda {

template <class Fq>
class Fp2 {
 public:
  using Base = Fq;
  using Host = zkp::Fp2<typename Fq::Host>;
  static constexpr std::size_t kBytes = 2 * Fq::kBytes;

  Fq c0, c1;  // c0 + c1·u

  ZKP_HD static Fp2 zero() { return {Fq::zero(), Fq::zero()}; }
  ZKP_HD static Fp2 one() { return {Fq::one(), Fq::zero()}; }

  static Fp2 from_host(const Host& h) { return {Fq::from_host(h.c0), Fq::from_host(h.c1)}; }
  Host to_host() const { return {c0.to_host(), c1.to_host()}; }

  ZKP_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  ZKP_HD friend bool operator==(const Fp2& a, const Fp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  ZKP_HD friend bool operator!=(const Fp2& a, const Fp2& b) { return !(a == b); }

  ZKP_HD friend Fp2 operator+(const Fp2& a, const Fp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  ZKP_HD friend Fp2 operator-(const Fp2& a, const Fp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  ZKP_HD Fp2 operator-() const { return {-c0, -c1}; }
  ZKP_HD Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  ZKP_HD Fp2 cond_neg(bool flag) const { return {c0.cond_neg(flag), c1.cond_neg(flag)}; }
  ZKP_HD Fp2& operator+=(const Fp2& b) { return *this = *this + b; }
  ZKP_HD Fp2& operator-=(const Fp2& b) { return *this = *this - b; }
  ZKP_HD Fp2& operator*=(const Fp2& b) { return *this = *this * b; }

  ZKP_HD friend Fp2 operator*(const Fp2& a, const Fp2& b) { return mul(a, b); }
  ZKP_HD Fp2 square() const { return sqr(*this); }

  // Karatsuba, 3 Fq products (Devegili et al., ePrint 2006/471, §3), as on the host.
  ZKP_FP2_CALLED static Fp2 mul(Fp2 a, Fp2 b) {
    const Fq v0 = a.c0 * b.c0;
    const Fq v1 = a.c1 * b.c1;
    return {v0 - v1, (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1};
  }
  // Complex squaring, 2 Fq products.
  ZKP_FP2_CALLED static Fp2 sqr(Fp2 a) { return {(a.c0 + a.c1) * (a.c0 - a.c1), (a.c0 * a.c1).dbl()}; }

  // (c0 − c1·u)/(c0² + c1²); zero maps to zero.
  ZKP_HD Fp2 inverse() const {
    const Fq t = (c0.square() + c1.square()).inverse();
    return {c0 * t, -(c1 * t)};
  }
};

template <class Fq>
inline constexpr bool kSameLayoutFp2 = sizeof(Fp2<Fq>) == sizeof(typename Fp2<Fq>::Host) &&
                                       alignof(Fp2<Fq>) == alignof(typename Fp2<Fq>::Host) &&
                                       std::is_trivially_copyable_v<Fp2<Fq>>;

}  // namespace zkp::cuda
