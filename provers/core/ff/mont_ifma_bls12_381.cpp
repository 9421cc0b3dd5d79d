// AVX-512 IFMA kernels of mont_ifma.hpp for BLS12-381: the loads and stores of its six-word
// elements, on the lane arithmetic of mont_ifma_lanes.hpp with eight 52-bit limbs.
//
// Elements are 48 bytes, so eight of them are not a whole number of registers per element: they
// are read and written with gathers and scatters of one word of the eight lanes at a time (six
// per element), from consecutive elements or from the eight jobs' own addresses alike.
#include <immintrin.h>

#include <array>
#include <cstdint>

#include "core/ff/mont_ifma.hpp"
#include "core/ff/cpu_features.hpp"
#include "core/ff/mont_ifma_lanes.hpp"
#include "core/ff/mont_ifma_rows.hpp"

namespace zkp::mont::ifma {
namespace {

using bls12_381::Fq;
using bls12_381::Fq2;

// Eight 52-bit limbs: R' = 2^416 against Fq's R = 2^384, so a enters shifted left by 32 bits
// (2^32·a < 2^413).
using Bls12381Shape = lanes::ShapeOf<Fq, 8>;
static_assert(Bls12381Shape::kShift == 32);
static_assert(sizeof(Fq) == 48 && sizeof(Fq2) == 96, "six words per Fq, no padding");

using L = lanes::Lanes<Bls12381Shape>;
using Limbs = L::Limbs;
using Limbs2 = L::Limbs2;
using lanes::shl;
using lanes::shr;

// Word j of eight elements (one register each) into eight 52-bit limbs: limb k holds bits
// [52k, 52k + 52), from one or two words.
ZKP_IFMA_FN Limbs from_words(const __m512i* w) {
  const __m512i m = _mm512_set1_epi64(static_cast<long long>(lanes::kMask52));
  Limbs r;
  r.v[0] = _mm512_and_si512(w[0], m);
  r.v[1] = _mm512_and_si512(_mm512_or_si512(shr(w[0], 52), shl(w[1], 12)), m);
  r.v[2] = _mm512_and_si512(_mm512_or_si512(shr(w[1], 40), shl(w[2], 24)), m);
  r.v[3] = _mm512_and_si512(_mm512_or_si512(shr(w[2], 28), shl(w[3], 36)), m);
  r.v[4] = _mm512_and_si512(_mm512_or_si512(shr(w[3], 16), shl(w[4], 48)), m);
  r.v[5] = _mm512_and_si512(shr(w[4], 4), m);
  r.v[6] = _mm512_and_si512(_mm512_or_si512(shr(w[4], 56), shl(w[5], 8)), m);
  r.v[7] = shr(w[5], 44);
  return r;
}

// The inverse, for fully reduced limbs (value < p < 2^384).
ZKP_IFMA_FN void to_words(const Limbs& l, __m512i* w) {
  w[0] = _mm512_or_si512(l.v[0], shl(l.v[1], 52));
  w[1] = _mm512_or_si512(shr(l.v[1], 12), shl(l.v[2], 40));
  w[2] = _mm512_or_si512(shr(l.v[2], 24), shl(l.v[3], 28));
  w[3] = _mm512_or_si512(shr(l.v[3], 36), shl(l.v[4], 16));
  w[4] = _mm512_or_si512(_mm512_or_si512(shr(l.v[4], 48), shl(l.v[5], 4)), shl(l.v[6], 56));
  w[5] = _mm512_or_si512(shr(l.v[6], 8), shl(l.v[7], 44));
}

// Eight Fq at the byte addresses of `addr`'s lanes (lanes outside `lanes` read as zero, no
// memory touched), and the scatter back.
ZKP_IFMA_FN Limbs gather(__m512i addr, __mmask8 lanes) {
  __m512i w[6];
  for (int j = 0; j < 6; ++j)
    w[j] = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), lanes, _mm512_add_epi64(addr, _mm512_set1_epi64(8 * j)),
                                       nullptr, 1);
  return from_words(w);
}
ZKP_IFMA_FN void scatter(__m512i addr, __mmask8 lanes, const Limbs& v) {
  __m512i w[6];
  to_words(v, w);
  for (int j = 0; j < 6; ++j)
    _mm512_mask_i64scatter_epi64(nullptr, lanes, _mm512_add_epi64(addr, _mm512_set1_epi64(8 * j)), w[j], 1);
}

// The addresses of eight consecutive elements of `bytes` bytes from p.
ZKP_IFMA_FN __m512i consecutive(const void* p, long long bytes) {
  return _mm512_add_epi64(_mm512_set1_epi64(static_cast<long long>(reinterpret_cast<std::uintptr_t>(p))),
                          _mm512_setr_epi64(0, bytes, 2 * bytes, 3 * bytes, 4 * bytes, 5 * bytes, 6 * bytes, 7 * bytes));
}

ZKP_IFMA_FN __mmask8 first(std::size_t lanes) { return static_cast<__mmask8>((1u << lanes) - 1); }

// The pq (offset 0) and dst (offset 8) addresses of eight jobs.
template <class F>
ZKP_IFMA_FN __m512i job_field(const AffineAdd<F>* jobs, std::size_t lanes, int offset) {
  const __m512i index = _mm512_setr_epi64(0, 16, 32, 48, 64, 80, 96, 112);
  static_assert(sizeof(AffineAdd<F>) == 16, "two pointers per job");
  return _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), first(lanes), index,
                                     reinterpret_cast<const char*>(jobs) + offset, 1);
}

struct Bls12381IO {
  using F = Fq;
  using F2 = Fq2;
  using G1Job = AffineAdd<Fq>;
  using G2Job = AffineAdd<Fq2>;
  static constexpr long long kFq = sizeof(Fq), kFq2 = sizeof(Fq2);

  ZKP_IFMA_FN static Limbs load(const Fq* x) { return gather(consecutive(x, kFq), 0xff); }
  ZKP_IFMA_FN static void store(Fq* x, const Limbs& v) { scatter(consecutive(x, kFq), 0xff, v); }
  ZKP_IFMA_FN static Limbs2 load2(const Fq2* x) {
    const __m512i a = consecutive(x, kFq2);
    return {gather(a, 0xff), gather(_mm512_add_epi64(a, _mm512_set1_epi64(kFq)), 0xff)};
  }
  ZKP_IFMA_FN static void load_g1(const G1Job* jobs, std::size_t lanes, Limbs& x1, Limbs& y1, Limbs& x2,
                                  Limbs& y2) {
    const __m512i pq = job_field(jobs, lanes, 0);
    const __mmask8 m = first(lanes);
    x1 = gather(pq, m);
    y1 = gather(_mm512_add_epi64(pq, _mm512_set1_epi64(kFq)), m);
    x2 = gather(_mm512_add_epi64(pq, _mm512_set1_epi64(2 * kFq)), m);
    y2 = gather(_mm512_add_epi64(pq, _mm512_set1_epi64(3 * kFq)), m);
  }
  ZKP_IFMA_FN static void store_g1(const G1Job* jobs, std::size_t lanes, const Limbs& x3, const Limbs& y3) {
    const __m512i dst = job_field(jobs, lanes, 8);
    scatter(dst, first(lanes), x3);
    scatter(_mm512_add_epi64(dst, _mm512_set1_epi64(kFq)), first(lanes), y3);
  }
  ZKP_IFMA_FN static Limbs2 load_g2(const G2Job* jobs, std::size_t lanes, int coord) {
    const __m512i at = _mm512_add_epi64(job_field(jobs, lanes, 0), _mm512_set1_epi64(coord * kFq2));
    return {gather(at, first(lanes)), gather(_mm512_add_epi64(at, _mm512_set1_epi64(kFq)), first(lanes))};
  }
  ZKP_IFMA_FN static void store_g2(const G2Job* jobs, std::size_t lanes, const Limbs2& x3, const Limbs2& y3) {
    const __m512i dst = job_field(jobs, lanes, 8);
    const __mmask8 m = first(lanes);
    scatter(dst, m, x3.c0);
    scatter(_mm512_add_epi64(dst, _mm512_set1_epi64(kFq)), m, x3.c1);
    scatter(_mm512_add_epi64(dst, _mm512_set1_epi64(kFq2)), m, y3.c0);
    scatter(_mm512_add_epi64(dst, _mm512_set1_epi64(kFq2 + kFq)), m, y3.c1);
  }
};
using Rows = lanes::BatchRows<L, Bls12381IO>;

}  // namespace

[[gnu::target("avx512f,avx512ifma")]] void mul8_bls12_381_fq_ifma(Fq* out, const Fq* a, const Fq* b) {
  Bls12381IO::store(out, L::mont_mul(L::shifted(Bls12381IO::load(a)), Bls12381IO::load(b)));
}

[[gnu::target("avx512f,avx512ifma")]] void mul8_bls12_381_fq2_ifma(Fq2* out, const Fq2* a, const Fq2* b) {
  const Limbs2 r = L::mont_mul2(Bls12381IO::load2(a), Bls12381IO::load2(b));
  const __m512i at = consecutive(out, Bls12381IO::kFq2);
  scatter(at, 0xff, r.c0);
  scatter(_mm512_add_epi64(at, _mm512_set1_epi64(Bls12381IO::kFq)), 0xff, r.c1);
}

[[gnu::target("avx512f,avx512ifma")]] void prefix_rows_bls12_381_fq_ifma(Fq* prefix, Fq* acc,
                                                                                const Fq* den, std::size_t rows) {
  Rows::prefix_g1(prefix, acc, den, rows);
}

[[gnu::target("avx512f,avx512ifma")]] void add_rows_bls12_381_g1_ifma(
    const AffineAdd<Fq>* jobs, std::size_t n, const std::uint8_t* dbl, const Fq* prefix, const Fq* den,
    const Fq* inv) {
  Rows::add_g1(jobs, n, dbl, prefix, den, inv);
}

[[gnu::target("avx512f,avx512ifma")]] void prefix_rows_bls12_381_fq2_norm_ifma(Fq* prefix, Fq* norm,
                                                                                      Fq* acc, const Fq2* den,
                                                                                      std::size_t rows) {
  Rows::prefix_g2(prefix, norm, acc, den, rows);
}

[[gnu::target("avx512f,avx512ifma")]] void add_rows_bls12_381_g2_ifma(
    const AffineAdd<Fq2>* jobs, std::size_t n, const std::uint8_t* dbl, const Fq* prefix, const Fq* norm,
    const Fq2* den, const Fq* inv) {
  Rows::add_g2(jobs, n, dbl, prefix, norm, den, inv);
}

void mul_n_bls12_381_fq(Fq* out, const Fq* a, const Fq* b, std::size_t n) {
  std::size_t i = 0;
  if (use_ifma_kernels())
    for (; i + 8 <= n; i += 8) mul8_bls12_381_fq_ifma(out + i, a + i, b + i);
  for (; i < n; ++i) out[i] = a[i] * b[i];
}

void mul_n_bls12_381_fq2(Fq2* out, const Fq2* a, const Fq2* b, std::size_t n) {
  std::size_t i = 0;
  if (use_ifma_kernels())
    for (; i + 8 <= n; i += 8) mul8_bls12_381_fq2_ifma(out + i, a + i, b + i);
  for (; i < n; ++i) out[i] = a[i] * b[i];
}

}  // namespace zkp::mont::ifma
