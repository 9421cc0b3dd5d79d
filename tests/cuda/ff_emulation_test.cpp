// The device field and curve code, run on the CPU through the emulated carry flag
// (cuda/ff/ptx.cuh), against the host types it twins: every algorithm of cuda/ff and
// cuda/ec is checked here on any machine. The PTX instructions themselves are checked by
// the same comparisons on a GPU (device_ff_test, device_ec_test).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "cuda/ec/curves.cuh"
#include "cuda/ff/fields.cuh"
#include "cuda/ff/fp_f64.cuh"
#include "core/ec/scalar_mul.hpp"

namespace zkp::cuda {
namespace {

template <class D>
class EmulatedField : public ::testing::Test {};
using Fields = ::testing::Types<bn254::Fq, bn254::Fr, bn254::Fq2, bls12_381::Fq, bls12_381::Fr, bls12_381::Fq2>;
TYPED_TEST_SUITE(EmulatedField, Fields);

// Values where carries and final subtractions are most likely to go wrong.
template <class H>
std::vector<H> edge_values() {
  return {H::zero(), H::one(), -H::one(), H::one() + H::one(), -(H::one() + H::one())};
}

TYPED_TEST(EmulatedField, MatchesHostOnRandomAndEdgeInputs) {
  using D = TypeParam;
  using H = typename D::Host;
  std::mt19937_64 rng(0xf1e1d);
  std::vector<H> values = edge_values<H>();
  for (int i = 0; i < 400; ++i) values.push_back(H::random(rng));
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j : {i, (i * 7 + 3) % values.size(), (i + 1) % values.size()}) {
      const H a = values[i], b = values[j];
      const D da = D::from_host(a), db = D::from_host(b);
      ASSERT_EQ((da * db).to_host(), a * b) << "mul " << i << "," << j;
      ASSERT_EQ((da + db).to_host(), a + b) << "add " << i << "," << j;
      ASSERT_EQ((da - db).to_host(), a - b) << "sub " << i << "," << j;
      ASSERT_EQ(da.square().to_host(), a.square()) << "sqr " << i;
      ASSERT_EQ((-da).to_host(), -a) << "neg " << i;
      ASSERT_EQ(da.dbl().to_host(), a.dbl()) << "dbl " << i;
      ASSERT_EQ(da.is_zero(), a.is_zero());
      ASSERT_EQ(da == db, a == b);
    }
  }
}

TYPED_TEST(EmulatedField, InverseMatchesHost) {
  using D = TypeParam;
  using H = typename D::Host;
  std::mt19937_64 rng(0x1a1);
  std::vector<H> values = edge_values<H>();
  for (int i = 0; i < 20; ++i) values.push_back(H::random(rng));
  for (const H& a : values) ASSERT_EQ(D::from_host(a).inverse().to_host(), a.inverse());
}

TEST(EmulatedField, CondNegNegatesOnlyWhenAsked) {
  std::mt19937_64 rng(5);
  const auto a = zkp::bls12_381::Fq::random(rng);
  const auto d = bls12_381::Fq::from_host(a);
  EXPECT_EQ(d.cond_neg(true).to_host(), -a);
  EXPECT_EQ(d.cond_neg(false).to_host(), a);
  EXPECT_TRUE(bls12_381::Fq::zero().cond_neg(true).is_zero());
}

template <class C>
class EmulatedCurve : public ::testing::Test {};
using Curves = ::testing::Types<zkp::bn254::G1, zkp::bn254::G2, zkp::bls12_381::G1, zkp::bls12_381::G2>;
TYPED_TEST_SUITE(EmulatedCurve, Curves);

template <class C>
zkp::Affine<C> random_point(std::mt19937_64& rng) {
  return scalar_mul(zkp::Jacobian<C>::generator(), C::Scalar::random(rng).to_bigint()).to_affine();
}

// Bit-exact agreement (same formulas, same reduced representation), including the
// special cases P = Q, P = −Q and the identity on either side.
TYPED_TEST(EmulatedCurve, XyzzOpsMatchHostBitForBit) {
  using C = TypeParam;
  using HX = zkp::Xyzz<C>;
  std::mt19937_64 rng(0xec);
  for (int i = 0; i < 24; ++i) {
    const zkp::Affine<C> a = random_point<C>(rng);
    zkp::Affine<C> b = random_point<C>(rng);
    if (i % 4 == 1) b = a;
    if (i % 4 == 2) b = -a;
    if (i % 8 == 3) b = zkp::Affine<C>::identity();
    HX p = HX::from_affine(a).dbl();  // a point with ZZ ≠ 1
    if (i % 8 == 7) p = HX::identity();
    const HX q = HX::from_affine(b);
    const auto dp = to_device<C>(p), dq = to_device<C>(q);
    const auto same = [](const auto& d, const HX& h) { return std::memcmp(&d, &h, sizeof(h)) == 0 || (d.is_identity() && h.is_identity()); };
    EXPECT_TRUE(same(dp.dbl(), p.dbl())) << "dbl " << i;
    EXPECT_TRUE(same(dp + dq, p + q)) << "add " << i;
    EXPECT_TRUE(same(dq + dq, q + q)) << "add P+P " << i;
    EXPECT_TRUE(same(dp.add_mixed(to_device<C>(b)), p.add_mixed(b))) << "madd " << i;
    const HX pa = HX::from_affine(a);
    EXPECT_TRUE(same(to_device<C>(pa).add_mixed(to_device<C>(a)), pa.add_mixed(a))) << "madd P+P " << i;
    EXPECT_TRUE(same(to_device<C>(pa).add_mixed(to_device<C>(-a)), pa.add_mixed(-a))) << "madd P-P " << i;
    EXPECT_TRUE(to_device<C>(pa).add_mixed(to_device<C>(-a)).is_identity());
  }
}

// The FP64-pipe product (cuda/ff/fp_f64.cuh): exact double arithmetic, so the host runs
// the device's algorithm bit for bit. Products of reduced values, and long chains of
// products of its own lazy (signed-limb, |value| < p) outputs, against the host field.
TEST(EmulatedFieldF64, ProductsMatchTheHostField) {
  using H = zkp::bls12_381::Fq;
  using D = FpF64<zkp::bls12_381::FqParams>;
  std::mt19937_64 rng(0xd0f64);
  std::vector<H> values = edge_values<H>();
  for (int i = 0; i < 2000; ++i) values.push_back(H::random(rng));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const H a = values[i], b = values[(i * 13 + 5) % values.size()];
    ASSERT_EQ(D::from_host(a).to_host(), a) << i;
    ASSERT_EQ((D::from_host(a) * D::from_host(b)).to_host(), a * b) << i;
    ASSERT_EQ((D::from_host(a) * D::from_host(a)).to_host(), a * a) << i;
  }
}

TEST(EmulatedFieldF64, LazyChainsStayExact) {
  using H = zkp::bls12_381::Fq;
  using D = FpF64<zkp::bls12_381::FqParams>;
  std::mt19937_64 rng(0xc4a1);
  for (int chain = 0; chain < 20; ++chain) {
    H h = H::random(rng), m = chain == 0 ? -H::one() : H::random(rng);
    D d = D::from_host(h);
    const D dm = D::from_host(m);
    for (int i = 0; i < 500; ++i) {
      h = h * m;
      d = d * dm;
      if (i % 3 == 0) d = d * d, h = h * h;
      for (double limb : d.l) ASSERT_LE(std::fabs(limb), 281474976710656.0) << "limb out of range at " << i;
    }
    ASSERT_EQ(d.to_host(), h) << "chain " << chain;
  }
}

}  // namespace
}  // namespace zkp::cuda
