// The device field and curve arithmetic on a GPU against the host types it twins: the
// PTX carry chains are exercised here (ff_emulation_test checks the algorithms on the CPU).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "device_ops.hpp"
#include "device_test_support.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"

namespace zkp::cuda::test {
namespace {

template <class F>
class DeviceField : public DeviceTest {};
using HostFields = ::testing::Types<zkp::bn254::Fq, zkp::bn254::Fr, zkp::bn254::Fq2, zkp::bls12_381::Fq,
                                    zkp::bls12_381::Fr, zkp::bls12_381::Fq2>;
TYPED_TEST_SUITE(DeviceField, HostFields);

TYPED_TEST(DeviceField, MatchesHostOnRandomAndEdgeInputs) {
  using F = TypeParam;
  std::mt19937_64 rng(0xdef1e1d);
  std::vector<F> a = {F::zero(), F::one(), -F::one(), F::zero(), -F::one()};
  std::vector<F> b = {F::one(), F::zero(), -F::one(), F::zero(), F::one()};
  for (int i = 0; i < 4096; ++i) {
    a.push_back(F::random(rng));
    b.push_back(F::random(rng));
  }
  const FieldResults<F> r = device_field_ops<F>(kTestGpu, a, b);
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(r.mul[i], a[i] * b[i]) << "mul " << i;
    ASSERT_EQ(r.sqr[i], a[i].square()) << "sqr " << i;
    ASSERT_EQ(r.add[i], a[i] + b[i]) << "add " << i;
    ASSERT_EQ(r.sub[i], a[i] - b[i]) << "sub " << i;
    ASSERT_EQ(r.neg[i], -a[i]) << "neg " << i;
    ASSERT_EQ(r.dbl[i], a[i].dbl()) << "dbl " << i;
    ASSERT_EQ(r.inv[i], a[i].inverse()) << "inv " << i;
  }
}

// The experimental FP64-pipe product (issue 18 item 1): the DFMAs' rounding on the GPU
// must agree with the host's IEEE arithmetic, single products and chains of 64.
class DeviceFieldF64 : public DeviceTest {};
TEST_F(DeviceFieldF64, ProductsAndChainsMatchHost) {
  using F = zkp::bls12_381::Fq;
  std::mt19937_64 rng(0xf64f64);
  std::vector<F> a = {F::zero(), F::one(), -F::one(), -F::one()};
  std::vector<F> b = {F::one(), F::zero(), -F::one(), F::one()};
  for (int i = 0; i < 4096; ++i) {
    a.push_back(F::random(rng));
    b.push_back(F::random(rng));
  }
  for (unsigned chain : {1u, 64u}) {
    const std::vector<F> r = device_f64_products(kTestGpu, a, b, chain);
    for (std::size_t i = 0; i < a.size(); ++i) {
      F want = a[i];
      for (unsigned k = 0; k < chain; ++k) want = want * b[i];
      ASSERT_EQ(r[i], want) << "chain " << chain << ", input " << i;
    }
  }
}

template <class C>
class DeviceCurve : public DeviceTest {};
using Curves = ::testing::Types<zkp::bn254::G1, zkp::bn254::G2, zkp::bls12_381::G1, zkp::bls12_381::G2>;
TYPED_TEST_SUITE(DeviceCurve, Curves);

// add-2008-s, dbl-2008-s-1 and madd-2008-s on the device equal the host's, including
// P = Q, P = −Q and the identity on either side.
TYPED_TEST(DeviceCurve, XyzzOpsMatchHost) {
  using C = TypeParam;
  using HX = zkp::Xyzz<C>;
  std::mt19937_64 rng(0xc0ffee);
  const auto random_point = [&] {
    return scalar_mul(zkp::Jacobian<C>::generator(), C::Scalar::random(rng).to_bigint()).to_affine();
  };
  std::vector<HX> p, q;
  std::vector<zkp::Affine<C>> a;
  for (int i = 0; i < 256; ++i) {
    const zkp::Affine<C> x = random_point();
    const zkp::Affine<C> y = random_point();
    const HX px = HX::from_affine(x).dbl();  // ZZ ≠ 1
    switch (i % 8) {
      case 0: p.push_back(px); q.push_back(HX::from_affine(y)); a.push_back(y); break;
      case 1: p.push_back(px); q.push_back(px); a.push_back(x); break;                      // P = Q
      case 2: p.push_back(px); q.push_back(-px); a.push_back(-x); break;                    // P = −Q
      case 3: p.push_back(HX::identity()); q.push_back(px); a.push_back(y); break;          // O + Q
      case 4: p.push_back(px); q.push_back(HX::identity()); a.push_back(zkp::Affine<C>::identity()); break;
      case 5: p.push_back(HX::from_affine(x)); q.push_back(HX::from_affine(x)); a.push_back(x); break;  // madd P + P
      case 6: p.push_back(HX::from_affine(x)); q.push_back(px); a.push_back(-x); break;     // madd P − P
      default: p.push_back(px.dbl()); q.push_back(HX::from_affine(y).dbl()); a.push_back(y); break;
    }
  }
  const CurveResults<C> r = device_curve_ops<C>(kTestGpu, p, q, a);
  for (std::size_t i = 0; i < p.size(); ++i) {
    ASSERT_EQ(r.add[i], p[i] + q[i]) << "add " << i;
    ASSERT_EQ(r.dbl[i], p[i].dbl()) << "dbl " << i;
    ASSERT_EQ(r.madd[i], p[i].add_mixed(a[i])) << "madd " << i;
  }
}

}  // namespace
}  // namespace zkp::cuda::test
