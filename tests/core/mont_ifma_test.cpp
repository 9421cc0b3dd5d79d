// The AVX-512 IFMA kernel (provers/core/ff/mont_ifma.hpp) against Fq's scalar product, which
// mont_test checks against plain-integer references. Eight lanes per call, so every lane
// position meets every edge value: 0, 1, 2, p − 1, p − 2, (p ± 1)/2, R mod p, R² mod p, the
// values at the 52-bit limb boundaries of the kernel's internal form (2^(52k) − 1, 2^(52k)
// for k = 1…4), at the 64-bit word boundaries, the top bit below p's, and values next to p
// (so 16a fills the fifth limb); then the Fq2 kernels against Fp2's operators. Skipped, and
// reported as skipped, on CPUs without IFMA.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "core/ff/cpu_features.hpp"
#include "core/ff/mont_ifma.hpp"

namespace zkp {
namespace {

using bn254::Fq;
using Int = Fq::Int;

template <class I>
I pow2_minus(std::size_t k, std::uint64_t d) {  // 2^k − d, for d ≤ 2^k
  I v;
  v.limbs[k / 64] = std::uint64_t{1} << (k % 64);
  v.sub_in_place(I::from_u64(d));
  return v;
}

// The edge values of field F (BN254's or BLS12-381's Fq): 0, 1, 2, p − 1, p − 2, p − 3,
// (p ± 1)/2, R, R², R³ mod p, and 2^k − 1, 2^k at every 52-bit limb boundary and 64-bit word
// boundary of the kernels' forms below p's top bit, and at that top bit.
template <class F>
std::vector<F> edge_values() {
  using I = typename F::Int;
  std::vector<I> v;
  for (std::uint64_t d : {1, 2, 3}) {
    I x = F::kModulus;
    x.sub_in_place(I::from_u64(d));
    v.push_back(x);
  }
  I half = F::kModulus;
  half.shr1();
  v.push_back(half);
  I half_up = half;
  half_up.add_in_place(I::from_u64(1));
  v.push_back(half_up);
  for (std::uint64_t x : {0, 1, 2}) v.push_back(I::from_u64(x));
  v.push_back(F::kR1);
  v.push_back(F::kR2);
  v.push_back(F::kR3);
  const std::size_t top = F::kModulus.num_bits() - 1;
  std::vector<std::size_t> ks{top};
  for (std::size_t k = 52; k < top; k += 52) ks.push_back(k);
  for (std::size_t k = 64; k < top; k += 64) ks.push_back(k);
  for (std::size_t k : ks) {
    v.push_back(pow2_minus<I>(k, 1));
    I p2;
    p2.limbs[k / 64] = std::uint64_t{1} << (k % 64);
    v.push_back(p2);
  }
  I ones_52;  // every 52-bit limb of the internal form all ones, below p
  for (auto& l : ones_52.limbs) l = ~std::uint64_t{0};
  ones_52.limbs.back() = F::kModulus.limbs.back() - 1;
  v.push_back(ones_52);
  std::vector<F> out;
  for (const I& x : v) {
    EXPECT_LT(x, F::kModulus) << x.to_hex();
    out.push_back(F::from_mont_unchecked(x));
  }
  return out;
}
std::vector<Fq> edge_values() { return edge_values<Fq>(); }

bool have_ifma() {
  return mont::detect_cpu_kernels().ifma;
}

// a[i]·b[i] through the kernel, checked lane by lane against operator*.
void check8(const std::array<Fq, 8>& a, const std::array<Fq, 8>& b) {
  std::array<Fq, 8> r;
  mont::ifma::mul8_bn254_fq_ifma(r.data(), a.data(), b.data());
  for (std::size_t i = 0; i < 8; ++i)
    ASSERT_EQ(r[i], a[i] * b[i]) << "lane " << i << ": " << a[i].mont().to_hex() << " * " << b[i].mont().to_hex();
}

TEST(MontIfmaTest, EveryPairOfEdgeValuesInEveryLane) {
  if (!have_ifma()) GTEST_SKIP() << "CPU without AVX-512 IFMA";
  const auto e = edge_values();
  const std::size_t n = e.size();
  // Lane i of call (x, y) multiplies e[(x + i) % n] by e[(y + 3i) % n]: over all x, y every
  // ordered pair of edge values meets in every lane.
  for (std::size_t x = 0; x < n; ++x)
    for (std::size_t y = 0; y < n; ++y) {
      std::array<Fq, 8> a, b;
      for (std::size_t i = 0; i < 8; ++i) {
        a[i] = e[(x + i) % n];
        b[i] = e[(y + 3 * i) % n];
      }
      check8(a, b);
    }
}

TEST(MontIfmaTest, RandomOperandsMatchTheScalarProduct) {
  if (!have_ifma()) GTEST_SKIP() << "CPU without AVX-512 IFMA";
  std::mt19937_64 rng(18);
  const auto e = edge_values();
  const auto draw = [&] {
    switch (rng() % 8) {
      case 0: return e[rng() % e.size()];
      case 1: {  // just below p
        Int x = Fq::kModulus;
        x.sub_in_place(Int::from_u64(1 + rng() % 4096));
        return Fq::from_mont_unchecked(x);
      }
      default: return Fq::random(rng);
    }
  };
  for (int call = 0; call < 40000; ++call) {
    std::array<Fq, 8> a, b;
    for (std::size_t i = 0; i < 8; ++i) {
      a[i] = draw();
      b[i] = draw();
    }
    check8(a, b);
  }
}

// A dependent chain, as in a batch inversion's prefix products: one wrong carry anywhere
// propagates to the end. Also exercises out aliasing a and out aliasing b.
TEST(MontIfmaTest, LongDependentChainsMatch) {
  if (!have_ifma()) GTEST_SKIP() << "CPU without AVX-512 IFMA";
  std::mt19937_64 rng(5);
  std::array<Fq, 8> x, k;
  for (std::size_t i = 0; i < 8; ++i) {
    x[i] = Fq::random(rng);
    k[i] = Fq::random(rng);
  }
  std::array<Fq, 8> xs = x, ks = k;  // the scalar side
  for (int s = 0; s < 20000; ++s) {
    mont::ifma::mul8_bn254_fq_ifma(x.data(), x.data(), k.data());  // x = x·k, out aliases a
    mont::ifma::mul8_bn254_fq_ifma(k.data(), x.data(), k.data());  // k = x·k, out aliases b
    for (std::size_t i = 0; i < 8; ++i) {
      xs[i] = xs[i] * ks[i];
      ks[i] = xs[i] * ks[i];
    }
  }
  EXPECT_EQ(x, xs);
  EXPECT_EQ(k, ks);
}

TEST(MontIfmaTest, ArrayFormHandlesTailsAndMatches) {
  std::mt19937_64 rng(9);
  for (std::size_t n : {0, 1, 7, 8, 9, 16, 29}) {
    std::vector<Fq> a(n), b(n), r(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = Fq::random(rng);
      b[i] = Fq::random(rng);
    }
    mont::ifma::mul_n_bn254_fq(r.data(), a.data(), b.data(), n);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(r[i], a[i] * b[i]) << "n " << n << " i " << i;
  }
  for (std::size_t n : {0, 1, 7, 8, 9, 16, 29}) {
    std::vector<bls12_381::Fq> a(n), b(n), r(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = bls12_381::Fq::random(rng);
      b[i] = bls12_381::Fq::random(rng);
    }
    mont::ifma::mul_n_bls12_381_fq(r.data(), a.data(), b.data(), n);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(r[i], a[i] * b[i]) << "BLS12-381 n " << n << " i " << i;
  }
  for (std::size_t n : {0, 1, 7, 8, 9, 16, 29}) {
    std::vector<bn254::Fq2> a(n), b(n), r(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = bn254::Fq2{Fq::random(rng), Fq::random(rng)};
      b[i] = bn254::Fq2{Fq::random(rng), Fq::random(rng)};
    }
    mont::ifma::mul_n_bn254_fq2(r.data(), a.data(), b.data(), n);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(r[i], a[i] * b[i]) << "BN254 Fq2 n " << n << " i " << i;
  }
  for (std::size_t n : {0, 1, 7, 8, 9, 16, 29}) {
    using G = bls12_381::Fq;
    std::vector<bls12_381::Fq2> a(n), b(n), r(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = bls12_381::Fq2{G::random(rng), G::random(rng)};
      b[i] = bls12_381::Fq2{G::random(rng), G::random(rng)};
    }
    mont::ifma::mul_n_bls12_381_fq2(r.data(), a.data(), b.data(), n);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(r[i], a[i] * b[i]) << "BLS12-381 Fq2 n " << n << " i " << i;
  }
}

// The Fq2 kernels (Karatsuba and complex squaring, the additions between the products on the
// lanes too) against Fp2's operator* and square(). Components from the edge values, so the
// lane-wise additions and subtractions meet their carries, borrows and both sides of p in
// every lane.
void check8_fq2(const std::array<bn254::Fq2, 8>& a, const std::array<bn254::Fq2, 8>& b) {
  std::array<bn254::Fq2, 8> r, sq;
  mont::ifma::mul8_bn254_fq2_ifma(r.data(), a.data(), b.data());
  mont::ifma::square8_bn254_fq2_ifma(sq.data(), a.data());
  for (std::size_t i = 0; i < 8; ++i) {
    ASSERT_EQ(r[i], a[i] * b[i]) << "lane " << i << ": (" << a[i].c0.mont().to_hex() << ", " << a[i].c1.mont().to_hex()
                                 << ") * (" << b[i].c0.mont().to_hex() << ", " << b[i].c1.mont().to_hex() << ")";
    ASSERT_EQ(sq[i], a[i].square()) << "lane " << i << ": (" << a[i].c0.mont().to_hex() << ", "
                                    << a[i].c1.mont().to_hex() << ")^2";
  }
}

TEST(MontIfmaTest, Fq2EdgeComponentsInEveryLane) {
  if (!have_ifma()) GTEST_SKIP() << "CPU without AVX-512 IFMA";
  const auto e = edge_values();
  const std::size_t n = e.size();
  // Over all x, y every ordered pair of edge values is (c0, c1) of a in every lane, and b's
  // components run through them at other strides.
  for (std::size_t x = 0; x < n; ++x)
    for (std::size_t y = 0; y < n; ++y) {
      std::array<bn254::Fq2, 8> a, b;
      for (std::size_t i = 0; i < 8; ++i) {
        a[i] = {e[(x + i) % n], e[(y + 3 * i) % n]};
        b[i] = {e[(y + 5 * i) % n], e[(x + 7 * i + 1) % n]};
      }
      check8_fq2(a, b);
    }
}

TEST(MontIfmaTest, Fq2RandomOperandsAndAliasing) {
  if (!have_ifma()) GTEST_SKIP() << "CPU without AVX-512 IFMA";
  std::mt19937_64 rng(21);
  const auto e = edge_values();
  const auto draw = [&] { return rng() % 4 == 0 ? e[rng() % e.size()] : Fq::random(rng); };
  for (int call = 0; call < 10000; ++call) {
    std::array<bn254::Fq2, 8> a, b;
    for (std::size_t i = 0; i < 8; ++i) {
      a[i] = {draw(), draw()};
      b[i] = {draw(), draw()};
    }
    check8_fq2(a, b);
    // out aliasing a, then b, then the square in place
    const auto a0 = a, b0 = b;
    mont::ifma::mul8_bn254_fq2_ifma(a.data(), a.data(), b.data());
    mont::ifma::mul8_bn254_fq2_ifma(b.data(), a0.data(), b.data());
    for (std::size_t i = 0; i < 8; ++i) {
      ASSERT_EQ(a[i], a0[i] * b0[i]);
      ASSERT_EQ(b[i], a0[i] * b0[i]);
    }
    mont::ifma::square8_bn254_fq2_ifma(a.data(), a.data());
    for (std::size_t i = 0; i < 8; ++i) ASSERT_EQ(a[i], (a0[i] * b0[i]).square());
  }
}


// BLS12-381's product (eight 52-bit limbs, a shifted by 32 bits) against its Fq's operator*:
// every ordered pair of its edge values in every lane, then random operands.
TEST(MontIfmaTest, Bls12381ProductMatchesTheScalarProduct) {
  if (!have_ifma()) GTEST_SKIP() << "CPU without AVX-512 IFMA";
  using G = bls12_381::Fq;
  const auto e = edge_values<G>();
  const std::size_t n = e.size();
  std::mt19937_64 rng(31);
  for (std::size_t call = 0; call < n * n + 20000; ++call) {
    std::array<G, 8> a, b, r;
    for (std::size_t i = 0; i < 8; ++i) {
      if (call < n * n) {
        a[i] = e[(call / n + i) % n];
        b[i] = e[(call % n + 3 * i) % n];
      } else {
        a[i] = rng() % 4 == 0 ? e[rng() % n] : G::random(rng);
        b[i] = G::random(rng);
      }
    }
    mont::ifma::mul8_bls12_381_fq_ifma(r.data(), a.data(), b.data());
    for (std::size_t i = 0; i < 8; ++i)
      ASSERT_EQ(r[i], a[i] * b[i]) << "lane " << i << ": " << a[i].mont().to_hex() << " * " << b[i].mont().to_hex();
  }
}

// The batch passes of both curves: BucketSummer's flush_by_eight through mont_ifma.hpp.
struct Bn254Kernels {
  using Fq = bn254::Fq;
  using Fq2 = bn254::Fq2;
  static constexpr auto prefix_g1 = &mont::ifma::prefix_rows_bn254_fq_ifma;
  static constexpr auto add_g1 = &mont::ifma::add_rows_bn254_g1_ifma;
  static constexpr auto prefix_g2 = &mont::ifma::prefix_rows_bn254_fq2_norm_ifma;
  static constexpr auto add_g2 = &mont::ifma::add_rows_bn254_g2_ifma;
};
struct Bls12381Kernels {
  using Fq = bls12_381::Fq;
  using Fq2 = bls12_381::Fq2;
  static constexpr auto prefix_g1 = &mont::ifma::prefix_rows_bls12_381_fq_ifma;
  static constexpr auto add_g1 = &mont::ifma::add_rows_bls12_381_g1_ifma;
  static constexpr auto prefix_g2 = &mont::ifma::prefix_rows_bls12_381_fq2_norm_ifma;
  static constexpr auto add_g2 = &mont::ifma::add_rows_bls12_381_g2_ifma;
};
template <class K>
class BatchPassesTest : public ::testing::Test {};
struct KernelNames {
  template <class K>
  static std::string GetName(int) {
    return std::is_same_v<K, Bn254Kernels> ? "bn254" : "bls12_381";
  }
};
using Kernels = ::testing::Types<Bn254Kernels, Bls12381Kernels>;
TYPED_TEST_SUITE(BatchPassesTest, Kernels, KernelNames);

// The two passes of a G1 batch (prefix_rows_*_fq_ifma, add_rows_*_g1_ifma) against the scalar
// formulas over Fq. The formulas are algebraic, so the "points" need not be on the curve:
// coordinates are random field elements and edge values (the lanes' subtractions meet both
// sides of p), some additions double (den = 2·y1, numerator 3·x1²), batch sizes are ragged,
// and the destinations past n must stay untouched.
TYPED_TEST(BatchPassesTest, G1MatchesTheScalarFormulas) {
  if (!have_ifma()) GTEST_SKIP() << "CPU without AVX-512 IFMA";
  using K = TypeParam;
  using F = typename K::Fq;
  std::mt19937_64 rng(23);
  const auto e = edge_values<F>();
  const auto draw = [&] { return rng() % 3 == 0 ? e[rng() % e.size()] : F::random(rng); };
  for (const std::size_t n : {1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 100}) {
    const std::size_t rows = (n + 7) / 8;
    std::vector<std::array<F, 4>> pq(n);  // x1, y1, x2, y2
    std::vector<std::array<F, 2>> out(n + 1, {F::one(), F::one()});  // + a sentinel
    std::vector<mont::ifma::AffineAdd<F>> jobs(n);
    std::vector<std::uint8_t> dbl(rows, 0);
    std::vector<F> den(8 * rows, F::one()), prefix(8 * rows);
    for (std::size_t k = 0; k < n; ++k) {
      pq[k] = {draw(), draw(), draw(), draw()};
      const bool doubles = rng() % 5 == 0;
      if (doubles) dbl[k / 8] |= static_cast<std::uint8_t>(1u << (k % 8));
      den[k] = doubles ? pq[k][1] + pq[k][1] : pq[k][2] - pq[k][0];
      if (den[k].is_zero()) den[k] = F::one();  // the caller keeps zero denominators out
      jobs[k] = {pq[k].data(), out[k].data()};
    }
    std::array<F, 8> acc, acc_scalar;
    acc.fill(F::one());
    acc_scalar.fill(F::one());
    K::prefix_g1(prefix.data(), acc.data(), den.data(), rows);
    for (std::size_t k = 0; k < 8 * rows; ++k) {
      ASSERT_EQ(prefix[k], acc_scalar[k % 8]) << "n " << n << " prefix " << k;
      acc_scalar[k % 8] *= den[k];
    }
    ASSERT_EQ(acc, acc_scalar) << "n " << n;
    std::array<F, 8> inv;
    for (std::size_t l = 0; l < 8; ++l) inv[l] = acc[l].inverse();
    K::add_g1(jobs.data(), n, dbl.data(), prefix.data(), den.data(), inv.data());
    for (std::size_t k = 0; k < n; ++k) {
      const auto& [x1, y1, x2, y2] = pq[k];
      const bool doubles = (dbl[k / 8] >> (k % 8)) & 1;
      const F num = doubles ? x1.square().template mul_small<3>() : y2 - y1;
      const F lambda = num * den[k].inverse();
      const F x3 = lambda.square() - x1 - x2;
      ASSERT_EQ(out[k][0], x3) << "n " << n << " addition " << k;
      ASSERT_EQ(out[k][1], lambda * (x1 - x3) - y1) << "n " << n << " addition " << k;
    }
    EXPECT_EQ(out[n][0], F::one());
    EXPECT_EQ(out[n][1], F::one());
  }
}

// The G2 passes (prefix_rows_*_fq2_norm_ifma, add_rows_*_g2_ifma) the same way, against Fp2's
// operators: the forward pass's norms and prefix products, then every sum.
TYPED_TEST(BatchPassesTest, G2MatchesTheScalarFormulas) {
  if (!have_ifma()) GTEST_SKIP() << "CPU without AVX-512 IFMA";
  using K = TypeParam;
  using F = typename K::Fq;
  using F2 = typename K::Fq2;
  std::mt19937_64 rng(29);
  const auto e = edge_values<F>();
  const auto draw = [&] { return F2{rng() % 3 == 0 ? e[rng() % e.size()] : F::random(rng), F::random(rng)}; };
  for (const std::size_t n : {1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 100}) {
    const std::size_t rows = (n + 7) / 8;
    std::vector<std::array<F2, 4>> pq(n);  // x1, y1, x2, y2
    std::vector<std::array<F2, 2>> out(n + 1, {F2::one(), F2::one()});  // + a sentinel
    std::vector<mont::ifma::AffineAdd<F2>> jobs(n);
    std::vector<std::uint8_t> dbl(rows, 0);
    std::vector<F2> den(8 * rows, F2::one());
    std::vector<F> norm(8 * rows), prefix(8 * rows);
    for (std::size_t k = 0; k < n; ++k) {
      pq[k] = {draw(), draw(), draw(), draw()};
      const bool doubles = rng() % 5 == 0;
      if (doubles) dbl[k / 8] |= static_cast<std::uint8_t>(1u << (k % 8));
      den[k] = doubles ? pq[k][1] + pq[k][1] : pq[k][2] - pq[k][0];
      if (den[k].is_zero()) den[k] = F2::one();
      jobs[k] = {pq[k].data(), out[k].data()};
    }
    std::array<F, 8> acc, acc_scalar;
    acc.fill(F::one());
    acc_scalar.fill(F::one());
    K::prefix_g2(prefix.data(), norm.data(), acc.data(), den.data(), rows);
    for (std::size_t k = 0; k < 8 * rows; ++k) {
      ASSERT_EQ(norm[k], den[k].c0.square() + den[k].c1.square()) << "n " << n << " norm " << k;
      ASSERT_EQ(prefix[k], acc_scalar[k % 8]) << "n " << n << " prefix " << k;
      acc_scalar[k % 8] *= norm[k];
    }
    ASSERT_EQ(acc, acc_scalar) << "n " << n;
    std::array<F, 8> inv;
    for (std::size_t l = 0; l < 8; ++l) inv[l] = acc[l].inverse();
    K::add_g2(jobs.data(), n, dbl.data(), prefix.data(), norm.data(), den.data(), inv.data());
    for (std::size_t k = 0; k < n; ++k) {
      const auto& [x1, y1, x2, y2] = pq[k];
      const bool doubles = (dbl[k / 8] >> (k % 8)) & 1;
      const F2 num = doubles ? x1.square().template mul_small<3>() : y2 - y1;
      const F2 lambda = num * den[k].inverse();
      const F2 x3 = lambda.square() - x1 - x2;
      ASSERT_EQ(out[k][0], x3) << "n " << n << " addition " << k;
      ASSERT_EQ(out[k][1], lambda * (x1 - x3) - y1) << "n " << n << " addition " << k;
    }
    EXPECT_EQ(out[n][0], F2::one());
    EXPECT_EQ(out[n][1], F2::one());
  }
}

}  // namespace
}  // namespace zkp
