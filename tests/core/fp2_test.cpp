// Fq2 = Fq[u]/(u² + 1) tests for both curves: known values from gen_known_vectors.py,
// the algebra (Karatsuba and complex squaring against the schoolbook product, Frobenius
// against q-th power, norm), and the c0|c1 byte layout.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "known_vectors.hpp"
#include "test_support.hpp"

namespace zkp {
namespace {

namespace tv = test_vectors;
using test::fe2;

template <class Field, const auto& kVectors>
struct Fq2Case {
  using F = Field;
  static constexpr const auto& vectors = kVectors;
};
using Fq2Cases = ::testing::Types<Fq2Case<bn254::Fq2, tv::k_bn254_fq2_vectors>,
                                  Fq2Case<bls12_381::Fq2, tv::k_bls12_381_fq2_vectors>>;
struct Fq2CaseNames {
  template <class T>
  static std::string GetName(int) {
    return std::string(T::F::Base::Params::kName) + "2";
  }
};
template <class T>
class Fq2Test : public ::testing::Test {};
TYPED_TEST_SUITE(Fq2Test, Fq2Cases, Fq2CaseNames);

TYPED_TEST(Fq2Test, KnownValuesMatchReference) {
  using F = typename TypeParam::F;
  for (const auto& v : TypeParam::vectors) {
    const F a = fe2<F>(v.a), b = fe2<F>(v.b);
    EXPECT_EQ(a * b, fe2<F>(v.prod));
    EXPECT_EQ(a.square(), fe2<F>(v.sqr));
    EXPECT_EQ(a.inverse(), fe2<F>(v.inv_a));
    EXPECT_EQ(a.mul_by_nonresidue(), fe2<F>(v.a_times_xi));
  }
}

TYPED_TEST(Fq2Test, AlgebraOnRandomElements) {
  using F = typename TypeParam::F;
  using Fq = typename F::Base;
  std::mt19937_64 rng(21);
  for (int i = 0; i < 100; ++i) {
    const F a = F::random(rng), b = F::random(rng), c = F::random(rng);
    // Schoolbook (a0 + a1 u)(b0 + b1 u) with u² = −1.
    ASSERT_EQ(a * b, F(a.c0 * b.c0 - a.c1 * b.c1, a.c0 * b.c1 + a.c1 * b.c0));
    ASSERT_EQ(a.square(), a * a);
    ASSERT_EQ(a * (b + c), a * b + a * c);
    ASSERT_EQ((a * b) * c, a * (b * c));
    ASSERT_EQ(a.mul_by_nonresidue(), a * F::xi());
    ASSERT_EQ(a.mul_by_fp(b.c0), a * F(b.c0, Fq::zero()));
    ASSERT_EQ(a.dbl(), a + a);
    ASSERT_EQ(a - a, F::zero());
    ASSERT_EQ(a + (-a), F::zero());
    // a·conj(a) is the norm a0² + a1², an element of Fq.
    ASSERT_EQ(a * a.conjugate(), F(a.c0.square() + a.c1.square(), Fq::zero()));
    if (!a.is_zero()) {
      ASSERT_TRUE((a * a.inverse()).is_one());
    }
  }
  EXPECT_EQ(F::zero().inverse(), F::zero());
  const F u(Fq::zero(), Fq::one());
  EXPECT_EQ(u.square(), -F::one());
}

TYPED_TEST(Fq2Test, FrobeniusIsTheQthPower) {
  using F = typename TypeParam::F;
  std::mt19937_64 rng(22);
  const F a = F::random(rng);
  EXPECT_EQ(a.frobenius(1), a.pow(F::Base::kModulus));
  EXPECT_EQ(a.frobenius(2), a);
  EXPECT_EQ(a.frobenius(3), a.conjugate());
  EXPECT_NE(a.conjugate(), a);
}

TYPED_TEST(Fq2Test, BytesAreC0ThenC1) {
  using F = typename TypeParam::F;
  using Fq = typename F::Base;
  std::mt19937_64 rng(23);
  const F a = F::random(rng);
  std::array<std::uint8_t, F::kBytes> buf{};
  std::array<std::uint8_t, Fq::kBytes> half{};
  a.to_mont_bytes(buf);
  a.c0.to_mont_bytes(half);
  EXPECT_TRUE(std::equal(half.begin(), half.end(), buf.begin()));
  a.c1.to_mont_bytes(half);
  EXPECT_TRUE(std::equal(half.begin(), half.end(), buf.begin() + Fq::kBytes));
  EXPECT_EQ(F::from_mont_bytes(buf).value(), a);
  a.to_bytes(buf);
  EXPECT_EQ(F::from_bytes(buf).value(), a);
  Fq::kModulus.to_le_bytes(std::span<std::uint8_t, Fq::kBytes>(buf.data() + Fq::kBytes, Fq::kBytes));
  EXPECT_FALSE(F::from_bytes(buf).has_value());  // c1 = q is not canonical
  EXPECT_FALSE(F::from_mont_bytes(buf).has_value());
}

}  // namespace
}  // namespace zkp
