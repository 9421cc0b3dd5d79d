// Curve test suites shared by ec_bn254_test.cpp and ec_bls12_381_test.cpp (one translation
// unit per curve family, so the heavy template instantiations build in parallel):
// generators and [k]G against gen_known_vectors.py (affine arithmetic in plain Python),
// agreement of every addition and doubling formula (Jacobian, XYZZ, mixed, affine+affine,
// and their P = ±Q cases), batch normalisation, linearity of scalar multiplication,
// subgroup and curve checks, and the snarkjs byte encodings.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/ec/batch_normalize.hpp"
#include "core/ec/encoding.hpp"
#include "core/ec/scalar_mul.hpp"
#include "test_support.hpp"

namespace zkp::test {

namespace tv = test_vectors;

template <class Curve, const auto& kGen, const auto& kMul>
struct CurveCase {
  using C = Curve;
  static constexpr const auto& generator = kGen;
  static constexpr const auto& scalar_mul = kMul;
};
struct CurveNames {
  template <class T>
  static std::string GetName(int) {
    return T::C::kName;
  }
};
template <class T>
class CurveTest : public ::testing::Test {
 protected:
  using C = typename T::C;
  using Fr = typename C::Scalar;
  std::mt19937_64 rng{31};
  Jacobian<C> random_point() { return Jacobian<C>::generator() * Fr::random(rng); }
};
TYPED_TEST_SUITE_P(CurveTest);

TYPED_TEST_P(CurveTest, GeneratorMatchesSpecAndIsOnCurve) {
  using C = typename TypeParam::C;
  const Affine<C> g = Affine<C>::generator();
  EXPECT_EQ(g, test::point<C>(TypeParam::generator));
  EXPECT_TRUE(g.is_on_curve());
  EXPECT_TRUE(Jacobian<C>::generator().is_on_curve());
  EXPECT_FALSE(g.is_identity());
}

TYPED_TEST_P(CurveTest, GeneratorHasOrderR) {
  using C = typename TypeParam::C;
  const auto g = Jacobian<C>::generator();
  EXPECT_TRUE(scalar_mul(g, C::Scalar::kModulus).is_identity());
  EXPECT_TRUE(is_in_subgroup_by_order(g));
  EXPECT_TRUE(in_prime_subgroup(g));
  EXPECT_TRUE(in_prime_subgroup(Affine<C>::generator()));
  // (r − 1)G = −G, so the order is exactly r (prime), not a proper divisor.
  EXPECT_EQ(g * -C::Scalar::one(), -g);
}

TYPED_TEST_P(CurveTest, ScalarMulMatchesReference) {
  using C = typename TypeParam::C;
  for (const auto& v : TypeParam::scalar_mul) {
    const auto k = test::fe<typename C::Scalar>(v.k);
    EXPECT_EQ((Jacobian<C>::generator() * k).to_affine(), test::point<C>(v.kg)) << v.k;
    EXPECT_EQ(Affine<C>::generator() * k, Jacobian<C>::from_affine(test::point<C>(v.kg))) << v.k;
  }
  EXPECT_TRUE((Jacobian<C>::generator() * C::Scalar::zero()).is_identity());
  EXPECT_TRUE((Jacobian<C>::identity() * C::Scalar::from_u64(5)).is_identity());
}

TYPED_TEST_P(CurveTest, AllAdditionFormulasAgree) {
  using C = typename TypeParam::C;
  using J = Jacobian<C>;
  using X = Xyzz<C>;
  for (int i = 0; i < 10; ++i) {
    const J p = this->random_point(), q = this->random_point();  // non-trivial Z from the ladder
    const Affine<C> pa = p.to_affine(), qa = q.to_affine();
    const Affine<C> sum = (p + q).to_affine();
    const Affine<C> twice = p.dbl().to_affine();
    ASSERT_TRUE((p + q).is_on_curve());
    ASSERT_EQ(p.add_mixed(qa).to_affine(), sum);
    ASSERT_EQ((X::from_jacobian(p) + X::from_jacobian(q)).to_affine(), sum);
    ASSERT_EQ(X::from_jacobian(p).add_mixed(qa).to_affine(), sum);
    ASSERT_EQ(X::add_affine(pa, qa).to_affine(), sum);
    ASSERT_EQ((X::from_jacobian(p) + X::from_jacobian(q)).to_jacobian(), p + q);
    ASSERT_EQ(X::from_jacobian(p).dbl().to_affine(), twice);
    ASSERT_EQ(X::dbl_affine(pa).to_affine(), twice);
    ASSERT_EQ(p.dbl(), p + p);
    ASSERT_EQ(p - q + q, p);
    auto xs = X::from_affine(pa);
    xs -= qa;
    ASSERT_EQ(xs.to_affine(), (p - q).to_affine());
    // Sum of two points through the scalars: aG + bG = (a + b)G is checked in ScalarMulIsLinear.
  }
}

TYPED_TEST_P(CurveTest, AdditionHandlesEqualAndOppositeOperands) {
  using C = typename TypeParam::C;
  using J = Jacobian<C>;
  using X = Xyzz<C>;
  const J p = this->random_point();
  const Affine<C> pa = p.to_affine();
  const J p_other_z = J::from_affine(pa);  // same point, different representation
  ASSERT_NE(p.Z, p_other_z.Z);
  const J twice = p.dbl();
  EXPECT_EQ(p + p_other_z, twice);
  EXPECT_EQ(p.add_mixed(pa), twice);
  EXPECT_EQ((X::from_jacobian(p) + X::from_affine(pa)).to_jacobian(), twice);
  EXPECT_EQ(X::from_jacobian(p).add_mixed(pa).to_jacobian(), twice);
  EXPECT_EQ(X::add_affine(pa, pa).to_jacobian(), twice);
  EXPECT_TRUE((p + (-p_other_z)).is_identity());
  EXPECT_TRUE(p.add_mixed(-pa).is_identity());
  EXPECT_TRUE((X::from_jacobian(p) + X::from_affine(-pa)).is_identity());
  EXPECT_TRUE(X::from_jacobian(p).add_mixed(-pa).is_identity());
  EXPECT_TRUE(X::add_affine(pa, -pa).is_identity());
}

TYPED_TEST_P(CurveTest, IdentityIsNeutral) {
  using C = typename TypeParam::C;
  using J = Jacobian<C>;
  using X = Xyzz<C>;
  const J p = this->random_point();
  const Affine<C> pa = p.to_affine(), o = Affine<C>::identity();
  EXPECT_EQ(p + J::identity(), p);
  EXPECT_EQ(J::identity() + p, p);
  EXPECT_EQ(p.add_mixed(o), p);
  EXPECT_EQ(J::identity().add_mixed(pa), p);
  EXPECT_TRUE(J::identity().dbl().is_identity());
  EXPECT_EQ((X::from_jacobian(p) + X::identity()).to_jacobian(), p);
  EXPECT_EQ(X::identity().add_mixed(pa).to_jacobian(), p);
  EXPECT_EQ(X::add_affine(o, pa).to_jacobian(), p);
  EXPECT_TRUE(X::identity().dbl().is_identity());
  EXPECT_TRUE(X::dbl_affine(o).is_identity());
  EXPECT_TRUE(J::identity().to_affine().is_identity());
  EXPECT_TRUE(X::identity().to_affine().is_identity());
  EXPECT_TRUE(X::from_jacobian(J::identity()).is_identity());
  EXPECT_TRUE(X::identity().to_jacobian().is_identity());
  EXPECT_NE(p, J::identity());
  EXPECT_EQ(-o, o);
}

TYPED_TEST_P(CurveTest, BatchNormalizationMatchesOneByOne) {
  using C = typename TypeParam::C;
  std::vector<Jacobian<C>> js;
  std::vector<Xyzz<C>> xs;
  for (int i = 0; i < 12; ++i) {
    const auto p = i % 5 == 2 ? Jacobian<C>::identity() : this->random_point();
    js.push_back(p);
    xs.push_back(Xyzz<C>::from_jacobian(p).dbl());
  }
  std::vector<Affine<C>> out(js.size());
  batch_to_affine(std::span<const Jacobian<C>>(js), std::span<Affine<C>>(out));
  for (std::size_t i = 0; i < js.size(); ++i) EXPECT_EQ(out[i], js[i].to_affine()) << i;
  batch_to_affine(std::span<const Xyzz<C>>(xs), std::span<Affine<C>>(out));
  for (std::size_t i = 0; i < xs.size(); ++i) EXPECT_EQ(out[i], xs[i].to_affine()) << i;
  EXPECT_TRUE(out[2].is_identity());
  std::vector<Affine<C>> short_out(3);
  EXPECT_THROW(batch_to_affine(std::span<const Jacobian<C>>(js), std::span<Affine<C>>(short_out)),
               std::invalid_argument);
}

TYPED_TEST_P(CurveTest, ScalarMulIsLinear) {
  using C = typename TypeParam::C;
  using Fr = typename C::Scalar;
  const auto g = Jacobian<C>::generator();
  for (int i = 0; i < 5; ++i) {
    const Fr a = Fr::random(this->rng), b = Fr::random(this->rng);
    ASSERT_EQ(g * (a + b), g * a + g * b);
    ASSERT_EQ(g * (a * b), (g * a) * b);
    ASSERT_EQ(g * (-a), -(g * a));
  }
  EXPECT_EQ(g * Fr::from_u64(2), g.dbl());
  EXPECT_EQ(g * Fr::from_u64(3), g.dbl() + g);
  EXPECT_EQ(g * Fr::one(), g);
}

TYPED_TEST_P(CurveTest, PointOffTheCurveIsRejected) {
  using C = typename TypeParam::C;
  const Affine<C> g = Affine<C>::generator();
  const Affine<C> bad = Affine<C>::from_xy(g.x, g.y + C::Field::one());
  EXPECT_FALSE(bad.is_on_curve());
  EXPECT_FALSE(Jacobian<C>::from_affine(bad).is_on_curve());
  std::array<std::uint8_t, kAffineBytes<C>> buf{};
  encode_affine_mont(bad, std::span(buf));
  Affine<C> out = g;
  EXPECT_EQ(decode_affine_mont(std::span<const std::uint8_t, kAffineBytes<C>>(buf), out), PointStatus::not_on_curve);
  EXPECT_EQ(out, g);  // untouched on failure
  EXPECT_EQ(decode_affine_mont(std::span<const std::uint8_t, kAffineBytes<C>>(buf), out, PointCheck::canonical),
            PointStatus::ok);
}

TYPED_TEST_P(CurveTest, EncodingRoundTripsInBothForms) {
  using C = typename TypeParam::C;
  using F = typename C::Field;
  using Span = std::span<const std::uint8_t, kAffineBytes<C>>;
  std::array<std::uint8_t, kAffineBytes<C>> buf{};
  std::array<std::uint8_t, F::kBytes> coord{};
  for (int i = 0; i < 5; ++i) {
    const Affine<C> p = this->random_point().to_affine();
    Affine<C> back;
    encode_affine_mont(p, std::span(buf));
    p.x.to_mont_bytes(coord);  // snarkjs layout: x then y, Montgomery, little-endian
    EXPECT_TRUE(std::equal(coord.begin(), coord.end(), buf.begin()));
    p.y.to_mont_bytes(coord);
    EXPECT_TRUE(std::equal(coord.begin(), coord.end(), buf.begin() + F::kBytes));
    ASSERT_EQ(decode_affine_mont(Span(buf), back, PointCheck::subgroup), PointStatus::ok);
    EXPECT_EQ(back, p);
    encode_affine(p, std::span(buf));
    p.x.to_bytes(coord);
    EXPECT_TRUE(std::equal(coord.begin(), coord.end(), buf.begin()));
    ASSERT_EQ(decode_affine(Span(buf), back, PointCheck::subgroup), PointStatus::ok);
    EXPECT_EQ(back, p);
  }
  // Infinity is all zero bytes in both forms.
  buf.fill(0xaa);
  encode_affine_mont(Affine<C>::identity(), std::span(buf));
  EXPECT_TRUE(std::all_of(buf.begin(), buf.end(), [](std::uint8_t b) { return b == 0; }));
  Affine<C> back = Affine<C>::generator();
  EXPECT_EQ(decode_affine(Span(buf), back), PointStatus::ok);
  EXPECT_TRUE(back.is_identity());
  // A coordinate equal to q is not canonical.
  encode_affine(Affine<C>::generator(), std::span(buf));
  std::fill(buf.begin(), buf.begin() + F::kBytes, std::uint8_t{0xff});
  EXPECT_EQ(decode_affine(Span(buf), back), PointStatus::non_canonical);
  EXPECT_EQ(decode_affine_mont(Span(buf), back), PointStatus::non_canonical);
}

REGISTER_TYPED_TEST_SUITE_P(CurveTest, GeneratorMatchesSpecAndIsOnCurve, GeneratorHasOrderR, ScalarMulMatchesReference, AllAdditionFormulasAgree, AdditionHandlesEqualAndOppositeOperands, IdentityIsNeutral, BatchNormalizationMatchesOneByOne, ScalarMulIsLinear, PointOffTheCurveIsRejected, EncodingRoundTripsInBothForms);

// ---------------------------------------------------------------------------- cofactor > 1

template <class Curve, const auto& kOff, const auto& kOffTimesH>
struct CofactorCase {
  using C = Curve;
  static constexpr const auto& off = kOff;
  static constexpr const auto& off_times_h = kOffTimesH;
};
template <class T>
class CofactorCurveTest : public ::testing::Test {};
TYPED_TEST_SUITE_P(CofactorCurveTest);

TYPED_TEST_P(CofactorCurveTest, PointOutsideTheSubgroupIsDetected) {
  using C = typename TypeParam::C;
  const Affine<C> off = test::point<C>(TypeParam::off);
  ASSERT_TRUE(off.is_on_curve());
  EXPECT_FALSE(in_prime_subgroup(off));
  EXPECT_FALSE(is_in_subgroup_by_order(Jacobian<C>::from_affine(off)));
  std::array<std::uint8_t, kAffineBytes<C>> buf{};
  encode_affine_mont(off, std::span(buf));
  Affine<C> out;
  const std::span<const std::uint8_t, kAffineBytes<C>> in(buf);
  EXPECT_EQ(decode_affine_mont(in, out, PointCheck::subgroup), PointStatus::not_in_subgroup);
  EXPECT_TRUE(out.is_identity());  // untouched
  EXPECT_EQ(decode_affine_mont(in, out, PointCheck::on_curve), PointStatus::ok);
}

TYPED_TEST_P(CofactorCurveTest, CofactorClearingLandsInTheSubgroup) {
  using C = typename TypeParam::C;
  const auto off = Jacobian<C>::from_affine(test::point<C>(TypeParam::off));
  const auto cleared = scalar_mul(off, C::kCofactor);
  EXPECT_EQ(cleared.to_affine(), test::point<C>(TypeParam::off_times_h));
  EXPECT_TRUE(in_prime_subgroup(cleared));
  EXPECT_TRUE(is_in_subgroup_by_order(cleared));
}

// The endomorphism checks must agree with [r]P = O on points with every mix of torsion
// components we can reach: small multiples of the off-subgroup point, plus subgroup noise.
TYPED_TEST_P(CofactorCurveTest, FastSubgroupCheckAgreesWithOrderCheck) {
  using C = typename TypeParam::C;
  std::mt19937_64 rng(41);
  const auto off = Jacobian<C>::from_affine(test::point<C>(TypeParam::off));
  int outside = 0;
  for (std::uint64_t m = 1; m <= 12; ++m) {
    const auto p = scalar_mul(off, BigInt<1>::from_u64(m)) + Jacobian<C>::generator() * C::Scalar::random(rng);
    const bool expected = is_in_subgroup_by_order(p);
    outside += !expected;
    EXPECT_EQ(in_prime_subgroup(p), expected) << "m = " << m;
    EXPECT_EQ(in_prime_subgroup(p.to_affine()), expected) << "m = " << m;
  }
  EXPECT_GT(outside, 0);
}

REGISTER_TYPED_TEST_SUITE_P(CofactorCurveTest, PointOutsideTheSubgroupIsDetected, CofactorClearingLandsInTheSubgroup, FastSubgroupCheckAgreesWithOrderCheck);

}  // namespace zkp::test
