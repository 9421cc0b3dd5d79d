// Prime-field tests: derived constants and known values against tests/core/gen_known_vectors.py
// (plain Python integers), field laws on random elements, encodings, batch inversion,
// and the snarkjs roots of unity.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "core/ff/fp_batch.hpp"
#include "known_vectors.hpp"
#include "test_support.hpp"

namespace zkp {
namespace {

namespace tv = test_vectors;
using test::fe;

template <class Field, const auto& kVectors, const auto& kConstants>
struct FieldCase {
  using F = Field;
  static constexpr const auto& vectors = kVectors;
  static constexpr const auto& constants = kConstants;
};

using FieldCases = ::testing::Types<
    FieldCase<bn254::Fq, tv::k_bn254_fq_vectors, tv::k_bn254_fq_constants>,
    FieldCase<bn254::Fr, tv::k_bn254_fr_vectors, tv::k_bn254_fr_constants>,
    FieldCase<bls12_381::Fq, tv::k_bls12_381_fq_vectors, tv::k_bls12_381_fq_constants>,
    FieldCase<bls12_381::Fr, tv::k_bls12_381_fr_vectors, tv::k_bls12_381_fr_constants>>;

struct FieldCaseNames {
  template <class T>
  static std::string GetName(int) {
    return T::F::Params::kName;
  }
};

template <class T>
class FieldTest : public ::testing::Test {};
TYPED_TEST_SUITE(FieldTest, FieldCases, FieldCaseNames);

template <class F>
typename F::Int big(std::string_view dec) {
  return F::Int::from_decimal(dec);
}

TYPED_TEST(FieldTest, DerivedMontgomeryConstantsMatchReference) {
  using F = typename TypeParam::F;
  const auto& c = TypeParam::constants;
  EXPECT_EQ(F::kR1, big<F>(c.r1));
  EXPECT_EQ(F::kR2, big<F>(c.r2));
  EXPECT_EQ(F::kR3, big<F>(c.r3));
  EXPECT_EQ(F::kInv, c.inv);
  EXPECT_EQ(F::one().mont(), F::kR1);
}

TYPED_TEST(FieldTest, KnownValuesMatchReference) {
  using F = typename TypeParam::F;
  for (const auto& v : TypeParam::vectors) {
    SCOPED_TRACE(std::string(v.a) + " , " + std::string(v.b));
    const F a = fe<F>(v.a), b = fe<F>(v.b);
    EXPECT_EQ(a + b, fe<F>(v.sum));
    EXPECT_EQ(a - b, fe<F>(v.diff));
    EXPECT_EQ(a * b, fe<F>(v.prod));
    EXPECT_EQ(a.square(), fe<F>(v.sqr));
    EXPECT_EQ(a.inverse(), fe<F>(v.inv_a));
    EXPECT_EQ(a.pow(big<F>(v.e)), fe<F>(v.pow_a_e));
    // Montgomery form a·R mod p, and back.
    EXPECT_EQ(a.mont(), F::Int::from_hex(v.a_mont_hex));
    EXPECT_EQ(a.to_bigint(), big<F>(v.a));
    EXPECT_EQ(a.to_decimal(), v.a);
  }
}

TYPED_TEST(FieldTest, FieldLawsOnRandomElements) {
  using F = typename TypeParam::F;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200; ++i) {
    const F a = F::random(rng), b = F::random(rng), c = F::random(rng);
    ASSERT_EQ((a + b) + c, a + (b + c));
    ASSERT_EQ((a * b) * c, a * (b * c));
    ASSERT_EQ(a * b, b * a);
    ASSERT_EQ(a * (b + c), a * b + a * c);
    ASSERT_EQ((a - b) + b, a);
    ASSERT_EQ(a + (-a), F::zero());
    ASSERT_EQ(a.square(), a * a);
    ASSERT_EQ(a.dbl(), a + a);
    ASSERT_EQ(a.template mul_small<9>(), a * F::from_u64(9));
    ASSERT_EQ(a.template mul_small<1>(), a);
    ASSERT_EQ(a * F::one(), a);
    ASSERT_EQ(a * F::zero(), F::zero());
    if (!a.is_zero()) {
      ASSERT_TRUE((a * a.inverse()).is_one());
      ASSERT_EQ(a.inverse().inverse(), a);
    }
    ASSERT_EQ(a.pow(std::uint64_t{3}), a * a * a);
  }
}

TYPED_TEST(FieldTest, FermatAndEdgeCases) {
  using F = typename TypeParam::F;
  std::mt19937_64 rng(8);
  typename F::Int p_minus_1 = F::kModulus;
  p_minus_1.limbs[0] -= 1;
  const F a = F::random(rng);
  EXPECT_TRUE(a.pow(p_minus_1).is_one());
  EXPECT_EQ(a.pow(F::kModulus), a);
  EXPECT_EQ(F::zero().inverse(), F::zero());
  EXPECT_TRUE(F::one().inverse().is_one());
  EXPECT_EQ(-F::zero(), F::zero());
  EXPECT_EQ(F::from_bigint(p_minus_1).value() + F::one(), F::zero());
  EXPECT_FALSE(F::from_bigint(F::kModulus).has_value());
  EXPECT_TRUE(F::from_bigint_reduce(F::kModulus).is_zero());
  EXPECT_TRUE(F::zero().is_zero() && !F::one().is_zero() && F::one().is_one());
}

TYPED_TEST(FieldTest, StandardAndMontgomeryBytesRoundTrip) {
  using F = typename TypeParam::F;
  std::mt19937_64 rng(9);
  std::array<std::uint8_t, F::kBytes> buf{};
  for (int i = 0; i < 20; ++i) {
    const F a = F::random(rng);
    a.to_bytes(buf);
    EXPECT_EQ(F::Int::from_le_bytes(buf), a.to_bigint());
    EXPECT_EQ(F::from_bytes(buf).value(), a);
    EXPECT_EQ(F::from_bytes_reduce(buf), a);
    a.to_mont_bytes(buf);
    EXPECT_EQ(F::Int::from_le_bytes(buf), a.mont());
    EXPECT_EQ(F::from_mont_bytes(buf).value(), a);
  }
  // 5 in standard form is the byte 5 followed by zeros.
  F::from_u64(5).to_bytes(buf);
  EXPECT_EQ(buf[0], 5);
  EXPECT_EQ(std::count(buf.begin(), buf.end(), 0), static_cast<long>(F::kBytes - 1));
}

TYPED_TEST(FieldTest, NonCanonicalBytesAreRejectedOrReduced) {
  using F = typename TypeParam::F;
  std::array<std::uint8_t, F::kBytes> buf{};
  F::kModulus.to_le_bytes(buf);
  EXPECT_FALSE(F::from_bytes(buf).has_value());
  EXPECT_FALSE(F::from_mont_bytes(buf).has_value());
  EXPECT_TRUE(F::from_bytes_reduce(buf).is_zero());
  buf.fill(0xff);  // 2^(64N) − 1, several multiples of p
  EXPECT_FALSE(F::from_bytes(buf).has_value());
  EXPECT_FALSE(F::from_mont_bytes(buf).has_value());
  // (2^(64N) − 1) mod p = R − 1 mod p.
  EXPECT_EQ(F::from_bytes_reduce(buf), F::from_bigint(F::kR1).value() - F::one());
}

TYPED_TEST(FieldTest, DecimalTextRoundTripAndRejectsBadInput) {
  using F = typename TypeParam::F;
  std::mt19937_64 rng(10);
  for (int i = 0; i < 20; ++i) {
    const F a = F::random(rng);
    EXPECT_EQ(F::from_decimal(a.to_decimal()).value(), a);
  }
  EXPECT_EQ(F::zero().to_decimal(), "0");
  EXPECT_EQ(F::from_u64(1234567890123456789ULL).to_decimal(), "1234567890123456789");
  EXPECT_EQ(F::from_decimal("00042").value(), F::from_u64(42));
  EXPECT_FALSE(F::from_decimal(F::kModulus.to_decimal()).has_value());  // p itself
  EXPECT_FALSE(F::from_decimal("").has_value());
  EXPECT_FALSE(F::from_decimal("-1").has_value());
  EXPECT_FALSE(F::from_decimal("12a").has_value());
  EXPECT_FALSE(F::from_decimal(" 1").has_value());
  EXPECT_FALSE(F::from_decimal(std::string(200, '9')).has_value());  // overflows the integer
}

TYPED_TEST(FieldTest, BatchInverseMatchesOneByOneAndSkipsZeros) {
  using F = typename TypeParam::F;
  std::mt19937_64 rng(11);
  std::vector<F> xs;
  for (int i = 0; i < 33; ++i) xs.push_back(i % 7 == 3 ? F::zero() : F::random(rng));
  std::vector<F> inv = xs;
  batch_inverse(std::span<F>(inv));
  for (std::size_t i = 0; i < xs.size(); ++i) EXPECT_EQ(inv[i], xs[i].inverse()) << i;
  std::vector<F> empty;
  batch_inverse(std::span<F>(empty));  // must not touch anything
  EXPECT_TRUE(empty.empty());
}

TYPED_TEST(FieldTest, RandomElementsAreCanonicalAndVary) {
  using F = typename TypeParam::F;
  std::mt19937_64 rng(12);
  const F first = F::random(rng);
  int distinct = 0;
  for (int i = 0; i < 50; ++i) {
    const F a = F::random(rng);
    EXPECT_LT(a.mont(), F::kModulus);
    distinct += a != first;
  }
  EXPECT_EQ(distinct, 50);
}

// ---------------------------------------------------------------------------- roots of unity

template <class Fr, std::size_t kS, const std::string_view& kWs, const std::string_view& kW10>
struct FrCase {
  using F = Fr;
  static constexpr std::size_t s = kS;
  static constexpr const std::string_view& w_s = kWs;
  static constexpr const std::string_view& w_10 = kW10;
};
using FrCases = ::testing::Types<FrCase<bn254::Fr, 28, tv::k_bn254_fr_w_s, tv::k_bn254_fr_w_10>,
                                 FrCase<bls12_381::Fr, 32, tv::k_bls12_381_fr_w_s, tv::k_bls12_381_fr_w_10>>;
template <class T>
class RootOfUnityTest : public ::testing::Test {};
TYPED_TEST_SUITE(RootOfUnityTest, FrCases, FieldCaseNames);

TYPED_TEST(RootOfUnityTest, MatchesFfjavascript) {
  using F = typename TypeParam::F;
  EXPECT_EQ(F::two_adicity(), TypeParam::s);
  EXPECT_EQ(F::two_adic_root(), fe<F>(TypeParam::w_s));
  EXPECT_EQ(F::root_of_unity(TypeParam::s), fe<F>(TypeParam::w_s));
  EXPECT_EQ(F::root_of_unity(10), fe<F>(TypeParam::w_10));
  EXPECT_TRUE(F::root_of_unity(0).is_one());
  EXPECT_EQ(F::root_of_unity(1), -F::one());
  EXPECT_THROW((void)F::root_of_unity(TypeParam::s + 1), std::invalid_argument);
}

TYPED_TEST(RootOfUnityTest, LiteralIsBasePowerAndPrimitive) {
  using F = typename TypeParam::F;
  typename F::Int t = F::kModulus, half = F::kModulus;
  t.limbs[0] -= 1;
  for (std::size_t i = 0; i < F::two_adicity(); ++i) t.shr1();
  half.shr1();
  const F g = F::from_u64(F::Params::kRootOfUnityBase);
  EXPECT_EQ(g.pow(half), -F::one());  // g is a non-residue ...
  for (std::uint64_t c = 2; c < F::Params::kRootOfUnityBase; ++c)  // ... and the smallest one (ffjavascript's nqr)
    EXPECT_TRUE(F::from_u64(c).pow(half).is_one()) << c;
  EXPECT_EQ(g.pow(t), F::two_adic_root());
  F w = F::two_adic_root();
  for (std::size_t i = 0; i + 1 < F::two_adicity(); ++i) w = w.square();
  EXPECT_EQ(w, -F::one());  // order exactly 2^s
}

// ---------------------------------------------------------------------------- BigInt

TEST(BigIntTest, BitsAndTextHelpers) {
  const auto x = BigInt<2>::from_hex("0x8000000000000001ff00000000000000");
  EXPECT_EQ(x.num_bits(), 128u);
  EXPECT_EQ(x.bits(56, 8), 0xffu);
  EXPECT_EQ(x.bits(60, 8), 0x1fu);  // straddles the limb boundary
  EXPECT_EQ(x.bits(127, 8), 1u);    // bits past the top read as zero
  EXPECT_EQ(x.bits(200, 8), 0u);
  EXPECT_TRUE(x.bit(127) && !x.bit(126) && !x.bit(500));
  EXPECT_EQ(x.to_hex(), "0x8000000000000001ff00000000000000");
  EXPECT_EQ(BigInt<2>{}.to_hex(), "0x0");
  EXPECT_EQ(BigInt<2>{}.num_bits(), 0u);
  EXPECT_EQ(BigInt<2>::from_decimal("340282366920938463463374607431768211455"),
            BigInt<2>::from_hex("0xffffffffffffffffffffffffffffffff"));
  EXPECT_FALSE(BigInt<2>::parse_decimal("340282366920938463463374607431768211456").has_value());
  EXPECT_EQ(BigInt<2>::from_hex("0xffffffffffffffffffffffffffffffff").to_decimal(),
            "340282366920938463463374607431768211455");
  EXPECT_EQ(BigInt<1>::from_u64(10000000000000000000ULL).to_decimal(), "10000000000000000000");
  EXPECT_THROW((void)BigInt<1>::from_hex("0x1g"), std::invalid_argument);
  EXPECT_THROW((void)BigInt<1>::from_hex("0x10000000000000000"), std::invalid_argument);
  auto y = x;
  EXPECT_EQ(y.div_small(10), 4u);
  EXPECT_EQ(y, BigInt<2>::from_decimal("17014118346046923176850873426926528102"));
  EXPECT_LT(BigInt<2>::from_u64(5), x);
}

}  // namespace
}  // namespace zkp
