// The transforms against the definition: a naive O(n²) DFT for small n, Horner evaluation at
// sampled points for sizes past the cache block (where the parallel stages run), round trips,
// and identical results for every thread count.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "core/ntt/ntt.hpp"

namespace zkp {
namespace {

template <class F>
std::vector<F> random_vector(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<F> v(n);
  for (auto& x : v) x = F::random(rng);
  return v;
}

// p(x) for coefficients c, by Horner's rule.
template <class F>
F horner(const std::vector<F>& c, const F& x) {
  F acc;
  for (std::size_t i = c.size(); i-- > 0;) acc = acc * x + c[i];
  return acc;
}

template <class F>
std::vector<F> naive_dft(const std::vector<F>& c, const F& root) {
  std::vector<F> out(c.size());
  F x = F::one();
  for (auto& y : out) y = horner(c, x), x *= root;
  return out;
}

template <class F>
class NttTest : public ::testing::Test {};
using Fields = ::testing::Types<bn254::Fr, bls12_381::Fr>;
TYPED_TEST_SUITE(NttTest, Fields);

TYPED_TEST(NttTest, DomainRootsHaveTheRightOrder) {
  using F = TypeParam;
  for (std::size_t log_n : {1u, 4u, 10u}) {
    NttDomain<F> d(log_n);
    EXPECT_EQ(d.omega().pow(d.size()), F::one());
    EXPECT_NE(d.omega().pow(d.size() / 2), F::one());
    // g is a primitive 2n-th root of unity with g² = ω.
    EXPECT_EQ(d.coset_generator().square(), d.omega());
    EXPECT_EQ(d.coset_generator().pow(d.size()), -F::one());
    EXPECT_EQ(d.n_inv() * F::from_u64(d.size()), F::one());
  }
  EXPECT_THROW(NttDomain<F>(F::two_adicity() + 1), std::invalid_argument);
}

TYPED_TEST(NttTest, ForwardAndInverseMatchTheNaiveDft) {
  using F = TypeParam;
  ThreadPool pool(2);
  for (std::size_t log_n = 0; log_n <= 6; ++log_n) {
    NttDomain<F> d(log_n);
    const auto coeffs = random_vector<F>(d.size(), 100 + log_n);
    auto values = coeffs;
    ntt<F>(values, d, pool);
    EXPECT_EQ(values, naive_dft(coeffs, d.omega())) << "n = " << d.size();
    // The inverse DFT is the DFT with ω^{-1}, divided by n.
    auto back = values;
    intt<F>(back, d, pool);
    EXPECT_EQ(back, coeffs) << "n = " << d.size();
    auto expected = naive_dft(values, d.omega().inverse());
    for (auto& e : expected) e *= d.n_inv();
    EXPECT_EQ(back, expected);
  }
}

TYPED_TEST(NttTest, OddCosetMatchesTheNaiveEvaluation) {
  using F = TypeParam;
  ThreadPool pool(2);
  for (std::size_t log_n = 0; log_n <= 6; ++log_n) {
    NttDomain<F> d(log_n);
    const auto coeffs = random_vector<F>(d.size(), 200 + log_n);
    auto a = naive_dft(coeffs, d.omega());  // evaluations on the domain
    odd_coset<F>(a, d, pool);
    F x = d.coset_generator();
    for (std::size_t i = 0; i < d.size(); ++i, x *= d.omega()) {
      ASSERT_EQ(a[i], horner(coeffs, x)) << "n = " << d.size() << ", i = " << i;
    }
  }
}

TYPED_TEST(NttTest, LargeSizesMatchHornerAtSampledPoints) {
  using F = TypeParam;
  ThreadPool pool(2);
  // Past the 2^13 cache block, so the whole-array parallel stages run too.
  for (std::size_t log_n : {14u, 15u}) {
    NttDomain<F> d(log_n);
    const auto coeffs = random_vector<F>(d.size(), 300 + log_n);
    auto values = coeffs;
    ntt<F>(values, d, pool);
    auto coset = values;
    odd_coset<F>(coset, d, pool);
    std::mt19937_64 rng(log_n);
    for (int t = 0; t < 12; ++t) {
      const std::size_t i = rng() % d.size();
      const F x = d.omega().pow(i);
      ASSERT_EQ(values[i], horner(coeffs, x)) << "n = " << d.size() << ", i = " << i;
      ASSERT_EQ(coset[i], horner(coeffs, d.coset_generator() * x)) << "n = " << d.size() << ", i = " << i;
    }
    intt<F>(values, d, pool);
    EXPECT_EQ(values, coeffs) << "round trip, n = " << d.size();
  }
}

TYPED_TEST(NttTest, DifThenDitIsTheIdentityUpToN) {
  using F = TypeParam;
  ThreadPool pool(2);
  NttDomain<F> d(14);
  const auto x = random_vector<F>(d.size(), 7);
  auto y = x;
  ntt_dif<NttDirection::forward>(std::span<F>(y), d, pool);
  ntt_dit<NttDirection::inverse>(std::span<F>(y), d, pool);
  for (auto& e : y) e *= d.n_inv();
  EXPECT_EQ(y, x);
}

TYPED_TEST(NttTest, ResultsDoNotDependOnTheThreadCount) {
  using F = TypeParam;
  NttDomain<F> d(15);
  const auto x = random_vector<F>(d.size(), 9);
  std::vector<F> reference;
  for (unsigned threads : {1u, 2u, 3u, 5u}) {
    ThreadPool pool(threads);
    auto y = x;
    odd_coset<F>(y, d, pool);
    if (reference.empty()) reference = y;
    else EXPECT_EQ(y, reference) << threads << " threads";
  }
}

TYPED_TEST(NttTest, RejectsAWrongLength) {
  using F = TypeParam;
  ThreadPool pool(1);
  NttDomain<F> d(4);
  std::vector<F> a(8);
  EXPECT_THROW(ntt<F>(a, d, pool), std::invalid_argument);
  EXPECT_THROW(odd_coset<F>(a, d, pool), std::invalid_argument);
}

TEST(BitReverse, PermutationIsAnInvolution) {
  ThreadPool pool(2);
  std::vector<std::uint64_t> v(1 << 12);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = i;
  bit_reverse_permute(std::span<std::uint64_t>(v), pool);
  EXPECT_EQ(v[1], 1u << 11);
  EXPECT_EQ(v[3], 3u << 10);
  for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], bit_reverse(i, 12));
  bit_reverse_permute(std::span<std::uint64_t>(v), pool);
  for (std::size_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], i);
}

}  // namespace
}  // namespace zkp
