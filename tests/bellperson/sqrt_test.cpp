// Square roots in Fq and Fq2 (ff/fp.hpp, ff/fp2.hpp), which zcash point decompression needs.
#include <gtest/gtest.h>

#include <random>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"

namespace zkp {
namespace {

using bls12_381::Fq;
using bls12_381::Fq2;

constexpr int kTrials = 64;

// Euler's criterion: a^((q−1)/2) is 1 for non-zero squares, −1 for non-squares.
template <class F>
bool is_square(const F& a) {
  auto e = F::kModulus;
  e.shr1();
  const F t = a.pow(e);
  return a.is_zero() || t.is_one();
}

template <class F>
void expect_roots_of_squares(std::mt19937_64& rng) {
  for (int i = 0; i < kTrials; ++i) {
    const F a = F::random(rng);
    const auto r = a.square().sqrt();
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(*r == a || *r == -a);
  }
}

TEST(SqrtFq, SquaresHaveTheirRootsBack) {
  std::mt19937_64 rng(1);
  expect_roots_of_squares<Fq>(rng);
  expect_roots_of_squares<bn254::Fq>(rng);  // the other p ≡ 3 (mod 4) base field
}

TEST(SqrtFq, ZeroAndOne) {
  EXPECT_EQ(Fq::zero().sqrt(), Fq::zero());
  const auto r = Fq::one().sqrt();
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->is_one() || *r == -Fq::one());
}

TEST(SqrtFq, NonSquaresHaveNone) {
  // q ≡ 3 (mod 4): −1 is not a square, and so −a² is not either.
  EXPECT_FALSE((-Fq::one()).sqrt().has_value());
  std::mt19937_64 rng(2);
  int non_squares = 0;
  for (int i = 0; i < kTrials; ++i) {
    const Fq a = Fq::random(rng);
    EXPECT_FALSE((-a.square()).sqrt().has_value());
    const bool square = is_square(a);
    EXPECT_EQ(a.sqrt().has_value(), square);
    non_squares += square ? 0 : 1;
  }
  EXPECT_GT(non_squares, 0);
}

TEST(SqrtFq, ExponentIsQPlusOneOverFour) {
  auto four_e = Fq::sqrt_exponent();
  four_e.add_in_place(four_e);
  four_e.add_in_place(four_e);
  auto q_plus_1 = Fq::kModulus;
  q_plus_1.add_in_place(Fq::Int::from_u64(1));
  EXPECT_EQ(four_e, q_plus_1);
}

TEST(SqrtFq2, SquaresHaveTheirRootsBack) {
  std::mt19937_64 rng(3);
  expect_roots_of_squares<Fq2>(rng);
}

TEST(SqrtFq2, ElementsOfFqThatAreNotSquaresThere) {
  // a ∈ Fq not a square in Fq is a square in Fq2 (root b·u with b² = −a): the α = −1 branch.
  std::mt19937_64 rng(4);
  for (int i = 0; i < kTrials; ++i) {
    const Fq b = Fq::random(rng);
    const Fq2 a{-b.square(), Fq::zero()};
    const auto r = a.sqrt();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->square(), a);
    EXPECT_TRUE(r->c0.is_zero());
  }
  const auto u = Fq2{-Fq::one(), Fq::zero()}.sqrt();
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(*u == Fq2(Fq::zero(), Fq::one()) || *u == Fq2(Fq::zero(), -Fq::one()), true);
}

TEST(SqrtFq2, NonSquaresHaveNone) {
  // a is a square in Fq2 exactly when its norm c0² + c1² is a square in Fq.
  std::mt19937_64 rng(5);
  int non_squares = 0;
  for (int i = 0; i < kTrials; ++i) {
    const Fq2 a = Fq2::random(rng);
    const bool square = is_square(a.c0.square() + a.c1.square());
    EXPECT_EQ(a.sqrt().has_value(), square);
    non_squares += square ? 0 : 1;
  }
  EXPECT_GT(non_squares, 0);
  EXPECT_EQ(Fq2::zero().sqrt(), Fq2::zero());
}

}  // namespace
}  // namespace zkp
