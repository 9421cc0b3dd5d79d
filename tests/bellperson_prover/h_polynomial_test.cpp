// bellperson's H against the identity it must satisfy: with c = a∘b on the domain (every row
// satisfied), A(x)·B(x) − C(x) = H(x)·(x^m − 1) at a random x, where A, B, C interpolate a, b, c
// on bellperson's domain (checked by Horner from their coefficients, not through the coset).
#include "core/bellperson/h_polynomial.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/bellperson/domain.hpp"

namespace zkp::bellperson {
namespace {

Fr horner(const std::vector<Fr>& coefficients, const Fr& x) {
  Fr acc;
  for (std::size_t i = coefficients.size(); i-- > 0;) acc = acc * x + coefficients[i];
  return acc;
}

void check_identity(std::size_t log_m, std::size_t rows, std::size_t threads) {
  std::mt19937_64 rng(log_m * 131 + rows);
  ThreadPool pool(threads);
  const NttDomain<Fr> d = make_domain(log_m);
  const std::size_t m = d.size();
  std::vector<Fr> a(rows), b(rows), c(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    a[i] = Fr::random(rng);
    b[i] = Fr::random(rng);
    c[i] = a[i] * b[i];
  }
  const auto coefficients = [&](std::vector<Fr> v) {
    v.resize(m);
    intt<Fr>(v, d, pool);
    return v;
  };
  const std::vector<Fr> ca = coefficients(a), cb = coefficients(b), cc = coefficients(c);
  std::vector<Fr> h_a = a, h_b = b, h_c = c;
  h_coefficients_in_place<Fr>(h_a, h_b, h_c, d, pool);
  ASSERT_EQ(h_a.size(), m - 1);
  EXPECT_TRUE(h_b.empty() && h_c.empty());
  for (int trial = 0; trial < 3; ++trial) {
    const Fr x = Fr::random(rng);
    const Fr lhs = horner(ca, x) * horner(cb, x) - horner(cc, x);
    const Fr rhs = horner(h_a, x) * (x.pow(static_cast<std::uint64_t>(m)) - Fr::one());
    EXPECT_EQ(lhs, rhs) << "m = " << m << ", rows = " << rows << ", threads = " << threads;
  }
}

TEST(BellpersonH, QuotientIdentityHoldsOnFullAndPaddedDomains) {
  check_identity(2, 4, 1);
  check_identity(6, 64, 2);
  check_identity(10, 1000, 3);  // abc_size < m: the rest are zero rows
  check_identity(13, 8192, 4);  // past the NTT's block size
}

TEST(BellpersonH, SameCoefficientsOnEveryThreadCount) {
  std::mt19937_64 rng(7);
  const NttDomain<Fr> d = make_domain(12);
  std::vector<Fr> a(3000), b(3000), c(3000);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = Fr::random(rng), b[i] = Fr::random(rng), c[i] = a[i] * b[i];
  std::vector<Fr> first;
  for (std::size_t threads : {1u, 2u, 5u}) {
    ThreadPool pool(threads);
    std::vector<Fr> ta = a, tb = b, tc = c;
    h_coefficients_in_place<Fr>(ta, tb, tc, d, pool);
    if (first.empty()) first = ta;
    EXPECT_EQ(ta, first) << threads << " threads";
  }
}

TEST(BellpersonH, RefusesInputsLongerThanTheDomain) {
  ThreadPool pool(1);
  const NttDomain<Fr> d = make_domain(3);
  std::vector<Fr> a(9), b(8), c(8);
  EXPECT_THROW(h_coefficients_in_place<Fr>(a, b, c, d, pool), std::invalid_argument);
}

}  // namespace
}  // namespace zkp::bellperson
