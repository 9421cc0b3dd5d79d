// Groth16 verification on hand-built instances: with known scalars α, β, γ, δ, ICᵢ, the public
// inputs xᵢ and a, b, the proof A = [a]G1, B = [b]G2, C = [c]G1 with
//     c = (a·b − α·β − γ·(ic₀ + Σ xᵢ·icᵢ)) / δ
// satisfies e(−A, B)·e(ΣIC, γ₂)·e(C, δ₂)·e(α₁, β₂) = e(G1, G2)^(−ab + γS + cδ + αβ) = 1.
// Then every component is altered in turn and must be rejected, with the right reason.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/pairing/verify.hpp"
#include "pairing_test_support.hpp"

namespace zkp {
namespace {

using groth16::VerifyStatus;
using test::Instance;
using test::make_instance;
using test::rng;

// Both entry points: the plain key (4-pair product) and the prepared one (3 pairs + e(α, β)).
template <PairingEngine E>
groth16::VerifyResult verify_both(const Instance<E>& in) {
  const auto plain = groth16::verify<E>(in.vk, in.publics, in.proof);
  groth16::PreparedVerifyingKey<E> pvk;
  const auto prep = groth16::prepare<E>(in.vk, pvk);
  if (!prep.ok()) {
    EXPECT_EQ(plain.status, prep.status);
    EXPECT_EQ(plain.where, prep.where);
    return plain;
  }
  const auto prepared = groth16::verify<E>(pvk, in.publics, in.proof);
  EXPECT_EQ(plain.status, prepared.status) << plain.message() << " vs " << prepared.message();
  EXPECT_EQ(plain.where, prepared.where);
  return plain;
}

template <class P>
P off_curve(P p) {
  p.y += P::Field::one();  // y² = x³ + b can no longer hold (y ≠ ±old y for the +1 shift)
  return p;
}

template <class E>
class VerifyTest : public ::testing::Test {};
using Engines = ::testing::Types<bn254::Engine, bls12_381::Engine>;
TYPED_TEST_SUITE(VerifyTest, Engines);

TYPED_TEST(VerifyTest, ValidProofVerifies) {
  for (std::size_t n : {0, 1, 3}) {
    const auto in = make_instance<TypeParam>(n);
    const auto r = verify_both(in);
    EXPECT_TRUE(r.ok()) << "n_public = " << n << ": " << r.message();
    EXPECT_EQ(r.message(), "ok");
  }
}

TYPED_TEST(VerifyTest, AlteredProofFailsThePairingCheck) {
  using E = TypeParam;
  const auto base = make_instance<E>(2);
  const auto g1 = Affine<typename E::G1>::generator();
  const auto g2 = Affine<typename E::G2>::generator();
  const auto plus = [](const auto& p, const auto& q) {
    using C = typename std::decay_t<decltype(p)>::Curve;
    return (Jacobian<C>::from_affine(p) + Jacobian<C>::from_affine(q)).to_affine();
  };
  auto in = base;
  in.proof.a = plus(in.proof.a, g1);
  EXPECT_EQ(verify_both(in).status, VerifyStatus::pairing_check_failed);
  in = base;
  in.proof.b = plus(in.proof.b, g2);
  EXPECT_EQ(verify_both(in).status, VerifyStatus::pairing_check_failed);
  in = base;
  in.proof.c = plus(in.proof.c, g1);
  EXPECT_EQ(verify_both(in).status, VerifyStatus::pairing_check_failed);
  in = base;
  in.proof.a = -in.proof.a;
  EXPECT_EQ(verify_both(in).status, VerifyStatus::pairing_check_failed);
  in = base;
  std::swap(in.proof.a, in.proof.c);
  EXPECT_EQ(verify_both(in).status, VerifyStatus::pairing_check_failed);
  in = base;
  in.proof.a = Affine<typename E::G1>::identity();  // a group element, so it reaches the pairing
  EXPECT_EQ(verify_both(in).status, VerifyStatus::pairing_check_failed);
}

TYPED_TEST(VerifyTest, AlteredKeyFailsThePairingCheck) {
  using E = TypeParam;
  const auto base = make_instance<E>(2);
  auto in = base;
  in.vk.alpha1 = -in.vk.alpha1;
  EXPECT_EQ(verify_both(in).status, VerifyStatus::pairing_check_failed);
  in = base;
  std::swap(in.vk.gamma2, in.vk.delta2);
  EXPECT_EQ(verify_both(in).status, VerifyStatus::pairing_check_failed);
  in = base;
  in.vk.beta2 = Affine<typename E::G2>::generator();
  EXPECT_EQ(verify_both(in).status, VerifyStatus::pairing_check_failed);
  in = base;
  std::swap(in.vk.ic[1], in.vk.ic[2]);
  EXPECT_EQ(verify_both(in).status, VerifyStatus::pairing_check_failed);
}

TYPED_TEST(VerifyTest, WrongPublicInputFails) {
  using E = TypeParam;
  const auto base = make_instance<E>(3);
  for (std::size_t i = 0; i < base.publics.size(); ++i) {
    auto in = base;
    in.publics[i].add_in_place(groth16::PublicInput<E>::from_u64(1));
    EXPECT_EQ(verify_both(in).status, VerifyStatus::pairing_check_failed) << "public " << i;
  }
  auto in = base;
  std::swap(in.publics[0], in.publics[1]);
  EXPECT_EQ(verify_both(in).status, VerifyStatus::pairing_check_failed);
}

// x and x + r are the same element of Fr; the verifier must not accept the alias.
TYPED_TEST(VerifyTest, PublicInputNotBelowRIsRejected) {
  using E = TypeParam;
  const auto base = make_instance<E>(2);
  auto in = base;
  in.publics[1].add_in_place(E::Fr::kModulus);
  auto r = verify_both(in);
  EXPECT_EQ(r.status, VerifyStatus::public_input_out_of_range);
  EXPECT_EQ(r.where, "public[1]");
  in = base;
  in.publics[0] = E::Fr::kModulus;
  EXPECT_EQ(verify_both(in).status, VerifyStatus::public_input_out_of_range);
}

TYPED_TEST(VerifyTest, WrongNumberOfPublicInputs) {
  const auto base = make_instance<TypeParam>(2);
  auto in = base;
  in.publics.pop_back();
  EXPECT_EQ(verify_both(in).status, VerifyStatus::wrong_public_count);
  in = base;
  in.publics.push_back({});
  EXPECT_EQ(verify_both(in).status, VerifyStatus::wrong_public_count);
  in = base;
  in.vk.ic.clear();
  in.publics.clear();
  EXPECT_EQ(verify_both(in).status, VerifyStatus::wrong_public_count);
}

TYPED_TEST(VerifyTest, PointsOffTheCurveAreNamed) {
  const auto base = make_instance<TypeParam>(2);
  const auto expect = [](const auto& in, const char* where) {
    const auto r = verify_both(in);
    EXPECT_EQ(r.status, VerifyStatus::not_on_curve) << where;
    EXPECT_EQ(r.where, where);
    EXPECT_NE(r.message().find("not on the curve"), std::string::npos) << r.message();
  };
  auto in = base;
  in.proof.a = off_curve(in.proof.a);
  expect(in, "proof.A");
  in = base;
  in.proof.b = off_curve(in.proof.b);
  expect(in, "proof.B");
  in = base;
  in.proof.c = off_curve(in.proof.c);
  expect(in, "proof.C");
  in = base;
  in.vk.ic[2] = off_curve(in.vk.ic[2]);
  expect(in, "vk.IC[2]");
  in = base;
  in.vk.gamma2 = off_curve(in.vk.gamma2);
  expect(in, "vk.gamma2");
}

// Points of the curve (or twist) outside the order-r subgroup, from the Python reference.
TYPED_TEST(VerifyTest, PointsOutsideTheSubgroupAreNamed) {
  using E = TypeParam;
  const auto& off = test::Vectors<E>::off_subgroup;
  const auto bad_g2 = test::g2_point<typename E::G2>(off.g2);
  ASSERT_TRUE(bad_g2.is_on_curve());
  const auto base = make_instance<E>(1);
  const auto expect = [](const auto& in, const char* where) {
    const auto r = verify_both(in);
    EXPECT_EQ(r.status, VerifyStatus::not_in_subgroup) << where;
    EXPECT_EQ(r.where, where);
  };
  auto in = base;
  in.proof.b = bad_g2;
  expect(in, "proof.B");
  in = base;
  in.vk.delta2 = bad_g2;
  expect(in, "vk.delta2");
  if (off.has_g1) {  // BN254's G1 is all of E(Fq): no such point exists there
    const auto bad_g1 = test::g1_point<typename E::G1>(off.g1);
    ASSERT_TRUE(bad_g1.is_on_curve());
    in = base;
    in.proof.c = bad_g1;
    expect(in, "proof.C");
    in = base;
    in.vk.alpha1 = bad_g1;
    expect(in, "vk.alpha1");
  }
}

TEST(VerifyMessages, NameTheFailure) {
  const groth16::VerifyResult r{VerifyStatus::not_in_subgroup, "proof.B"};
  EXPECT_EQ(r.message(), "proof.B: point not in the prime-order subgroup");
  EXPECT_FALSE(r.ok());
  const groth16::VerifyResult p{VerifyStatus::pairing_check_failed, {}};
  EXPECT_NE(p.message().find("pairing check failed"), std::string::npos);
}

}  // namespace
}  // namespace zkp
