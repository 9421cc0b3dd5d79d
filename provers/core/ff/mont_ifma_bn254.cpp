// AVX-512 IFMA kernels of mont_ifma.hpp for BN254 (see there for the method and its bounds): the
// loads and stores of this field's 4-word elements, on the lane arithmetic of mont_ifma_lanes.hpp.
#include "core/ff/mont_ifma.hpp"

#include <immintrin.h>

#include <array>
#include <cstdint>

#include "core/ff/cpu_features.hpp"
#include "core/ff/mont_ifma_lanes.hpp"
#include "core/ff/mont_ifma_rows.hpp"

namespace zkp::mont::ifma {
namespace {

using bn254::Fq;
using bn254::Fq2;

// Five 52-bit limbs: R' = 2^260 against Fq's R = 2^256, so a enters shifted left by 4 bits
// (16a < 2^258 still fits five limbs).
using Bn254Shape = lanes::ShapeOf<Fq, 5>;
static_assert(Bn254Shape::kShift == 4);

using L = lanes::Lanes<Bn254Shape>;
using Limbs = L::Limbs;
using Limbs2 = L::Limbs2;
using lanes::kMask52;
using lanes::shl;
using lanes::shr;


// Eight consecutive elements, 4 words each, into four registers holding word k of every lane:
// an 8×4 transpose of words in two rounds of VPERMT2Q. The same two rounds undo it.
ZKP_IFMA_FN void transpose(__m512i& w0, __m512i& w1, __m512i& w2, __m512i& w3) {
  const __m512i even = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13);
  const __m512i odd = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i lo = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
  const __m512i hi = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
  const __m512i u0 = _mm512_permutex2var_epi64(w0, even, w1), u1 = _mm512_permutex2var_epi64(w0, odd, w1);
  const __m512i v0 = _mm512_permutex2var_epi64(w2, even, w3), v1 = _mm512_permutex2var_epi64(w2, odd, w3);
  w0 = _mm512_permutex2var_epi64(u0, lo, v0);
  w1 = _mm512_permutex2var_epi64(u0, hi, v0);
  w2 = _mm512_permutex2var_epi64(u1, lo, v1);
  w3 = _mm512_permutex2var_epi64(u1, hi, v1);
}
// The inverse: word-of-every-lane registers back to eight consecutive elements.
ZKP_IFMA_FN void untranspose(__m512i& w0, __m512i& w1, __m512i& w2, __m512i& w3) {
  const __m512i even = _mm512_setr_epi64(0, 4, 8, 12, 1, 5, 9, 13);
  const __m512i odd = _mm512_setr_epi64(2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i lo = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
  const __m512i hi = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
  const __m512i u0 = _mm512_permutex2var_epi64(w0, lo, w1), v0 = _mm512_permutex2var_epi64(w0, hi, w1);
  const __m512i u1 = _mm512_permutex2var_epi64(w2, lo, w3), v1 = _mm512_permutex2var_epi64(w2, hi, w3);
  w0 = _mm512_permutex2var_epi64(u0, even, u1);
  w1 = _mm512_permutex2var_epi64(u0, odd, u1);
  w2 = _mm512_permutex2var_epi64(v0, even, v1);
  w3 = _mm512_permutex2var_epi64(v0, odd, v1);
}

// Eight elements, held as eight consecutive ones in w0..w3, as 52-bit limbs of v·2^shift
// (shift 0 or 4; v < 2^254).
template <unsigned Shift>
ZKP_IFMA_FN Limbs to_limbs(__m512i w0, __m512i w1, __m512i w2, __m512i w3) {
  static_assert(Shift == 0 || Shift == 4);
  transpose(w0, w1, w2, w3);
  const __m512i m = _mm512_set1_epi64(static_cast<long long>(kMask52));
  // Limb k holds bits [52k − Shift, 52k + 52 − Shift) of v.
  Limbs r;
  r.v[0] = _mm512_and_si512(shl(w0, Shift), m);
  r.v[1] = _mm512_and_si512(_mm512_or_si512(shr(w0, 52 - Shift), shl(w1, 12 + Shift)), m);
  r.v[2] = _mm512_and_si512(_mm512_or_si512(shr(w1, 40 - Shift), shl(w2, 24 + Shift)), m);
  r.v[3] = _mm512_and_si512(_mm512_or_si512(shr(w2, 28 - Shift), shl(w3, 36 + Shift)), m);
  r.v[4] = shr(w3, 16 - Shift);
  return r;
}

template <unsigned Shift>
ZKP_IFMA_FN Limbs load8(const Fq* x) {
  const auto* p = reinterpret_cast<const std::uint64_t*>(x);
  return to_limbs<Shift>(_mm512_loadu_si512(p), _mm512_loadu_si512(p + 8), _mm512_loadu_si512(p + 16),
                         _mm512_loadu_si512(p + 24));
}

// Fully reduced 52-bit limbs (value < p) back to eight consecutive elements in w0..w3.
ZKP_IFMA_FN void from_limbs(const Limbs& r, __m512i& w0, __m512i& w1, __m512i& w2, __m512i& w3) {
  w0 = _mm512_or_si512(r.v[0], shl(r.v[1], 52));
  w1 = _mm512_or_si512(shr(r.v[1], 12), shl(r.v[2], 40));
  w2 = _mm512_or_si512(shr(r.v[2], 24), shl(r.v[3], 28));
  w3 = _mm512_or_si512(shr(r.v[3], 36), shl(r.v[4], 16));
  untranspose(w0, w1, w2, w3);
}

ZKP_IFMA_FN void store8(Fq* x, const Limbs& r) {
  __m512i w0, w1, w2, w3;
  from_limbs(r, w0, w1, w2, w3);
  auto* p = reinterpret_cast<std::uint64_t*>(x);
  _mm512_storeu_si512(p, w0);
  _mm512_storeu_si512(p + 8, w1);
  _mm512_storeu_si512(p + 16, w2);
  _mm512_storeu_si512(p + 24, w3);
}

// Eight Fq2 elements (c0 then c1, 64 bytes each), one per register, as the limbs of their c0s
// and of their c1s: the registers are split into two runs of eight consecutive Fq first (one
// VPERMT2Q each), then transposed as load8's are. Unshifted: the products' shifted operand
// comes from L::shifted.
ZKP_IFMA_FN void from_elements8x2(const __m512i* e, Limbs& c0, Limbs& c1) {
  const __m512i lo = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
  const __m512i hi = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
  __m512i w0[4], w1[4];
  for (int i = 0; i < 4; ++i) {
    w0[i] = _mm512_permutex2var_epi64(e[2 * i], lo, e[2 * i + 1]);  // c0 of elements 2i, 2i + 1
    w1[i] = _mm512_permutex2var_epi64(e[2 * i], hi, e[2 * i + 1]);  // their c1
  }
  c0 = to_limbs<0>(w0[0], w0[1], w0[2], w0[3]);
  c1 = to_limbs<0>(w1[0], w1[1], w1[2], w1[3]);
}

// The inverse of from_elements8x2, for fully reduced limbs.
ZKP_IFMA_FN void to_elements8x2(const Limbs& c0, const Limbs& c1, __m512i* e) {
  const __m512i lo = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
  const __m512i hi = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
  __m512i w0[4], w1[4];
  from_limbs(c0, w0[0], w0[1], w0[2], w0[3]);
  from_limbs(c1, w1[0], w1[1], w1[2], w1[3]);
  for (int i = 0; i < 4; ++i) {
    e[2 * i] = _mm512_permutex2var_epi64(w0[i], lo, w1[i]);
    e[2 * i + 1] = _mm512_permutex2var_epi64(w0[i], hi, w1[i]);
  }
}

// Eight consecutive Fq2 elements.
ZKP_IFMA_FN void load8x2(const Fq2* x, Limbs& c0, Limbs& c1) {
  const auto* p = reinterpret_cast<const std::uint64_t*>(x);
  __m512i e[8];
  for (int i = 0; i < 8; ++i) e[i] = _mm512_loadu_si512(p + 8 * i);
  from_elements8x2(e, c0, c1);
}

ZKP_IFMA_FN void store8x2(Fq2* x, const Limbs& c0, const Limbs& c1) {
  __m512i e[8];
  to_elements8x2(c0, c1, e);
  auto* p = reinterpret_cast<std::uint64_t*>(x);
  for (int i = 0; i < 8; ++i) _mm512_storeu_si512(p + 8 * i, e[i]);
}

}  // namespace

[[gnu::target("avx512f,avx512ifma")]] void mul8_bn254_fq_ifma(Fq* out, const Fq* a, const Fq* b) {
  const Limbs la = load8<4>(a), lb = load8<0>(b);
  store8(out, L::mont_mul(la, lb));
}

[[gnu::target("avx512f,avx512ifma")]] void mul8_bn254_fq2_ifma(Fq2* out, const Fq2* a, const Fq2* b) {
  Limbs2 x, y;
  load8x2(a, x.c0, x.c1);
  load8x2(b, y.c0, y.c1);
  const Limbs2 r = L::mont_mul2(x, y);
  store8x2(out, r.c0, r.c1);
}

[[gnu::target("avx512f,avx512ifma")]] void square8_bn254_fq2_ifma(Fq2* out, const Fq2* a) {
  Limbs2 x;
  load8x2(a, x.c0, x.c1);
  const Limbs2 r = L::mont_square2(x);
  store8x2(out, r.c0, r.c1);
}

namespace {

// x1, y1, x2, y2 of eight additions (each four consecutive Fq) as limbs: two registers per
// addition hold P and Q, one VPERMT2Q pairs a coordinate of two additions, then load8's
// transpose.
ZKP_IFMA_FN void load_pq8(const AffineAddG1* jobs, std::size_t lanes, Limbs& x1, Limbs& y1, Limbs& x2, Limbs& y2) {
  static constexpr std::uint64_t kZeros[16] = {};  // the points of lanes past `lanes`: any value serves
  const __m512i lo = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
  const __m512i hi = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
  __m512i p[8], q[8];
  for (std::size_t l = 0; l < 8; ++l) {
    const auto* w = l < lanes ? reinterpret_cast<const std::uint64_t*>(jobs[l].pq) : kZeros;
    p[l] = _mm512_loadu_si512(w);      // x1 | y1
    q[l] = _mm512_loadu_si512(w + 8);  // x2 | y2
  }
  __m512i wx1[4], wy1[4], wx2[4], wy2[4];
  for (int i = 0; i < 4; ++i) {
    wx1[i] = _mm512_permutex2var_epi64(p[2 * i], lo, p[2 * i + 1]);
    wy1[i] = _mm512_permutex2var_epi64(p[2 * i], hi, p[2 * i + 1]);
    wx2[i] = _mm512_permutex2var_epi64(q[2 * i], lo, q[2 * i + 1]);
    wy2[i] = _mm512_permutex2var_epi64(q[2 * i], hi, q[2 * i + 1]);
  }
  x1 = to_limbs<0>(wx1[0], wx1[1], wx1[2], wx1[3]);
  y1 = to_limbs<0>(wy1[0], wy1[1], wy1[2], wy1[3]);
  x2 = to_limbs<0>(wx2[0], wx2[1], wx2[2], wx2[3]);
  y2 = to_limbs<0>(wy2[0], wy2[1], wy2[2], wy2[3]);
}

// The inverse for the results: x3 | y3 of addition l to jobs[l].dst, for l < lanes.
ZKP_IFMA_FN void store_xy8(const AffineAddG1* jobs, std::size_t lanes, const Limbs& x, const Limbs& y) {
  const __m512i lo = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11);
  const __m512i hi = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
  __m512i wx[4], wy[4];
  from_limbs(x, wx[0], wx[1], wx[2], wx[3]);
  from_limbs(y, wy[0], wy[1], wy[2], wy[3]);
  for (std::size_t l = 0; l < lanes; ++l)
    _mm512_storeu_si512(jobs[l].dst, _mm512_permutex2var_epi64(wx[l / 2], l % 2 == 0 ? lo : hi, wy[l / 2]));
}

// BN254's loads and stores for the batch passes (mont_ifma_rows.hpp).
struct Bn254IO {
  using F = Fq;
  using F2 = Fq2;
  using G1Job = AffineAddG1;
  using G2Job = AffineAddG2;
  ZKP_IFMA_FN static Limbs load(const Fq* x) { return load8<0>(x); }
  ZKP_IFMA_FN static void store(Fq* x, const Limbs& v) { store8(x, v); }
  ZKP_IFMA_FN static Limbs2 load2(const Fq2* x) {
    Limbs2 r;
    load8x2(x, r.c0, r.c1);
    return r;
  }
  ZKP_IFMA_FN static void load_g1(const G1Job* jobs, std::size_t lanes, Limbs& x1, Limbs& y1, Limbs& x2, Limbs& y2) {
    load_pq8(jobs, lanes, x1, y1, x2, y2);
  }
  ZKP_IFMA_FN static void store_g1(const G1Job* jobs, std::size_t lanes, const Limbs& x3, const Limbs& y3) {
    store_xy8(jobs, lanes, x3, y3);
  }
  // One coordinate of eight G2 additions: one register per addition holds its c0 | c1.
  ZKP_IFMA_FN static Limbs2 load_g2(const G2Job* jobs, std::size_t lanes, int coord) {
    static constexpr std::uint64_t kZeros[8] = {};
    __m512i e[8];
    for (std::size_t l = 0; l < 8; ++l)
      e[l] = _mm512_loadu_si512(l < lanes ? reinterpret_cast<const std::uint64_t*>(jobs[l].pq + coord) : kZeros);
    Limbs2 r;
    from_elements8x2(e, r.c0, r.c1);
    return r;
  }
  ZKP_IFMA_FN static void store_g2(const G2Job* jobs, std::size_t lanes, const Limbs2& x3, const Limbs2& y3) {
    __m512i ex[8], ey[8];
    to_elements8x2(x3.c0, x3.c1, ex);
    to_elements8x2(y3.c0, y3.c1, ey);
    for (std::size_t l = 0; l < lanes; ++l) {
      auto* dst = reinterpret_cast<std::uint64_t*>(jobs[l].dst);
      _mm512_storeu_si512(dst, ex[l]);
      _mm512_storeu_si512(dst + 8, ey[l]);
    }
  }
};
using Rows = lanes::BatchRows<L, Bn254IO>;

}  // namespace

[[gnu::target("avx512f,avx512ifma")]] void prefix_rows_bn254_fq_ifma(Fq* prefix, Fq* acc, const Fq* den,
                                                                   std::size_t rows) {
  Rows::prefix_g1(prefix, acc, den, rows);
}

[[gnu::target("avx512f,avx512ifma")]] void add_rows_bn254_g1_ifma(const AffineAddG1* jobs, std::size_t n,
                                                                const std::uint8_t* dbl, const Fq* prefix,
                                                                const Fq* den, const Fq* inv) {
  Rows::add_g1(jobs, n, dbl, prefix, den, inv);
}

[[gnu::target("avx512f,avx512ifma")]] void prefix_rows_bn254_fq2_norm_ifma(Fq* prefix, Fq* norm, Fq* acc,
                                                                         const Fq2* den, std::size_t rows) {
  Rows::prefix_g2(prefix, norm, acc, den, rows);
}

[[gnu::target("avx512f,avx512ifma")]] void add_rows_bn254_g2_ifma(const AffineAddG2* jobs, std::size_t n,
                                                                const std::uint8_t* dbl, const Fq* prefix,
                                                                const Fq* norm, const Fq2* den, const Fq* inv) {
  Rows::add_g2(jobs, n, dbl, prefix, norm, den, inv);
}

void mul_n_bn254_fq(Fq* out, const Fq* a, const Fq* b, std::size_t n) {
  std::size_t i = 0;
  if (use_ifma_kernels())
    for (; i + 8 <= n; i += 8) mul8_bn254_fq_ifma(out + i, a + i, b + i);
  for (; i < n; ++i) out[i] = a[i] * b[i];
}

void mul_n_bn254_fq2(Fq2* out, const Fq2* a, const Fq2* b, std::size_t n) {
  std::size_t i = 0;
  if (use_ifma_kernels())
    for (; i + 8 <= n; i += 8) mul8_bn254_fq2_ifma(out + i, a + i, b + i);
  for (; i < n; ++i) out[i] = a[i] * b[i];
}

}  // namespace zkp::mont::ifma
