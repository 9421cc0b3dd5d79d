// The tower Fq6 = Fq2[v]/(v³ − ξ), Fq12 = Fq6[w]/(w² − v): known answers from the Python
// reference (a single polynomial ring there, so the tower's formulas are checked, not copied),
// field laws on random elements, sparse products against dense ones, and the cyclotomic
// squaring against the general one.
#include <gtest/gtest.h>

#include <cstddef>

#include "pairing_test_support.hpp"

namespace zkp {
namespace {

using test::fe12;
using test::rng;

template <class E>
class TowerTest : public ::testing::Test {};
using Engines = ::testing::Types<bn254::Engine, bls12_381::Engine>;
TYPED_TEST_SUITE(TowerTest, Engines);

TYPED_TEST(TowerTest, KnownAnswersFromReference) {
  using Fq2 = typename TypeParam::Fq2;
  for (const auto& v : test::Vectors<TypeParam>::fq12) {
    const auto a = fe12<Fq2>(v.a);
    const auto b = fe12<Fq2>(v.b);
    EXPECT_EQ(a * b, fe12<Fq2>(v.prod));
    EXPECT_EQ(a.square(), fe12<Fq2>(v.sqr));
    EXPECT_EQ(a.inverse(), fe12<Fq2>(v.inv));
    EXPECT_EQ(a.frobenius(1), fe12<Fq2>(v.frob1));
    EXPECT_EQ(a.frobenius(2), fe12<Fq2>(v.frob2));
    EXPECT_EQ(a.frobenius(3), fe12<Fq2>(v.frob3));
    EXPECT_EQ(a.frobenius(6), fe12<Fq2>(v.frob6));
    EXPECT_EQ(a.conjugate(), fe12<Fq2>(v.frob6));
  }
}

TYPED_TEST(TowerTest, Fq6FieldLaws) {
  using Fq6 = Fp6<typename TypeParam::Fq2>;
  for (int i = 0; i < 8; ++i) {
    const auto a = Fq6::random(rng()), b = Fq6::random(rng()), c = Fq6::random(rng());
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a.square(), a * a);
    EXPECT_TRUE((a * a.inverse()).is_one());
    EXPECT_EQ(a.mul_by_nonresidue(), (a * Fq6{{}, TypeParam::Fq2::one(), {}}));  // ·v
    EXPECT_EQ(a.mul_by_fq2(b.c0), (a * Fq6{b.c0, {}, {}}));
    EXPECT_EQ(a.mul_by_01(b.c0, b.c1), (a * Fq6{b.c0, b.c1, {}}));
    EXPECT_EQ(a.mul_by_1(b.c1), (a * Fq6{{}, b.c1, {}}));
  }
  EXPECT_TRUE(Fq6::zero().inverse().is_zero());
}

TYPED_TEST(TowerTest, Fq12FieldLaws) {
  using Fq12 = typename TypeParam::Fq12;
  for (int i = 0; i < 8; ++i) {
    const auto a = Fq12::random(rng()), b = Fq12::random(rng()), c = Fq12::random(rng());
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a.square(), a * a);
    EXPECT_TRUE((a * a.inverse()).is_one());
    EXPECT_EQ((a * b).frobenius(1), a.frobenius(1) * b.frobenius(1));  // a field automorphism
  }
  EXPECT_TRUE(Fq12::zero().inverse().is_zero());
}

// frobenius(k) is the k-th power of frobenius(1), has order 12, and frobenius(1) is a ↦ a^q.
TYPED_TEST(TowerTest, FrobeniusIsThePowerQ) {
  using Fq12 = typename TypeParam::Fq12;
  const auto a = Fq12::random(rng());
  EXPECT_EQ(a.frobenius(1), a.pow(TypeParam::Fq::kModulus));
  Fq12 iter = a;
  for (std::size_t k = 1; k <= 12; ++k) {
    iter = iter.frobenius(1);
    EXPECT_EQ(a.frobenius(k), iter) << "k = " << k;
  }
  EXPECT_EQ(iter, a);  // q¹² acts as the identity
  EXPECT_NE(a.frobenius(1), a);
  // Fq6 ⊂ Fq12 (the c0 half): its own Frobenius agrees.
  const Fq12 even{a.c0, {}};
  EXPECT_EQ(even.frobenius(1).c0, a.c0.frobenius(1));
  EXPECT_TRUE(even.frobenius(1).c1.is_zero());
}

// Sparse line products against the dense product with the line written out as an Fq12.
TYPED_TEST(TowerTest, SparseLineProducts) {
  using Fq2 = typename TypeParam::Fq2;
  using Fq12 = typename TypeParam::Fq12;
  for (int i = 0; i < 8; ++i) {
    const auto f = Fq12::random(rng());
    const auto l0 = Fq2::random(rng()), l1 = Fq2::random(rng()), l2 = Fq2::random(rng());
    // 034: w⁰, w¹, w³ = c0.c0, c1.c0, c1.c1.
    EXPECT_EQ(f.mul_by_034(l0, l1, l2), (f * Fq12{{l0, {}, {}}, {l1, l2, {}}}));
    // 014: w⁰, w², w³ = c0.c0, c0.c1, c1.c1.
    EXPECT_EQ(f.mul_by_014(l0, l1, l2), (f * Fq12{{l0, l1, {}}, {{}, l2, {}}}));
  }
}

// After the easy part of the final exponentiation, a lies in the cyclotomic subgroup: it is
// unitary (ā = a⁻¹) and Granger–Scott squaring agrees with general squaring. On a random
// element the shortcut is wrong, which shows the comparison has teeth.
TYPED_TEST(TowerTest, CyclotomicSquare) {
  using Fq12 = typename TypeParam::Fq12;
  for (int i = 0; i < 4; ++i) {
    const auto a = Fq12::random(rng());
    Fq12 c = a.conjugate() * a.inverse();  // a^(q⁶ − 1)
    c = c.frobenius(2) * c;                // ·^(q² + 1)
    EXPECT_TRUE((c * c.conjugate()).is_one());
    EXPECT_EQ(c.cyclotomic_square(), c.square());
    EXPECT_EQ(c.cyclotomic_square().cyclotomic_square(), c.square().square());
    const auto e = TypeParam::Fr::random(rng()).to_bigint();
    EXPECT_EQ(c.cyclotomic_pow(e), c.pow(e));
    EXPECT_NE(a.cyclotomic_square(), a.square());
  }
}

}  // namespace
}  // namespace zkp
