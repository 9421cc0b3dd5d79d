// The optimal ate pairings: known answers (Python reference, plus the values zkcrypto and
// ffjavascript publish, which are fixed powers of ours), bilinearity, non-degeneracy, order r,
// multi-pairing = product, points at infinity, and the Miller-loop point updates.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <vector>

#include "pairing_test_support.hpp"

namespace zkp {
namespace {

using test::fe12;
using test::mul_gen;
using test::rng;

template <class E>
class PairingTest : public ::testing::Test {};
using Engines = ::testing::Types<bn254::Engine, bls12_381::Engine>;
TYPED_TEST_SUITE(PairingTest, Engines);

template <class E>
using G1A = Affine<typename E::G1>;
template <class E>
using G2A = Affine<typename E::G2>;

TYPED_TEST(PairingTest, GeneratorsKnownAnswer) {
  using E = TypeParam;
  const auto& v = test::Vectors<E>::pairing;
  EXPECT_EQ(pairing<E>(G1A<E>::generator(), G2A<E>::generator()), fe12<typename E::Fq2>(v.e_gen));
}

TYPED_TEST(PairingTest, ScalarMultiplesKnownAnswer) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const auto& v = test::Vectors<E>::pairing;
  const auto p = test::g1_point<typename E::G1>(v.p);
  const auto q = test::g2_point<typename E::G2>(v.q);
  // The vector's points are [a]G1 and [b]G2 (ties the text to the ec layer's scalar mul).
  EXPECT_EQ(p, mul_gen<typename E::G1>(test::fe<Fr>(v.a)));
  EXPECT_EQ(q, mul_gen<typename E::G2>(test::fe<Fr>(v.b)));
  EXPECT_EQ(pairing<E>(p, q), fe12<typename E::Fq2>(v.e_ab));
}

// Other libraries raise to a multiple of (q¹² − 1)/r; their published e(G1, G2) must be that
// power of ours (the Python reference asserts the same relation on the exact value).
TEST(PairingOtherLibraries, Bn254FfjavascriptIsFuentesCastanedaPower) {
  using E = bn254::Engine;
  const std::uint64_t x = bn254::kSeed.limbs[0];
  BigInt<4> m = BigInt<4>::from_u64(x);
  m.mul_add_small(6, 3);      // 6x + 3
  m.mul_add_small(x, 1);      // 6x² + 3x + 1
  m.mul_add_small(2 * x, 0);  // 2x(6x² + 3x + 1), 191 bits (2x < 2⁶⁴)
  const auto e = pairing<E>(G1A<E>::generator(), G2A<E>::generator());
  EXPECT_EQ(e.cyclotomic_pow(m), fe12<bn254::Fq2>(test_vectors::k_bn254_ffjavascript_gt_generator));
}

TEST(PairingOtherLibraries, Bls12381ZkcryptoIsTheCube) {
  using E = bls12_381::Engine;
  const auto e = pairing<E>(G1A<E>::generator(), G2A<E>::generator());
  EXPECT_EQ(e.square() * e, fe12<bls12_381::Fq2>(test_vectors::k_bls12_381_zkcrypto_gt_generator));
}

TYPED_TEST(PairingTest, NonDegenerateAndOfOrderR) {
  using E = TypeParam;
  const auto e = pairing<E>(G1A<E>::generator(), G2A<E>::generator());
  EXPECT_FALSE(e.is_one());
  EXPECT_TRUE(e.cyclotomic_pow(E::Fr::kModulus).is_one());
  EXPECT_TRUE((e * e.conjugate()).is_one());  // unitary: in the cyclotomic subgroup
}

TYPED_TEST(PairingTest, Bilinear) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const auto e = pairing<E>(G1A<E>::generator(), G2A<E>::generator());
  for (int i = 0; i < 3; ++i) {
    const Fr a = Fr::random(rng()), b = Fr::random(rng());
    const auto pa = mul_gen<typename E::G1>(a);
    const auto qb = mul_gen<typename E::G2>(b);
    const auto eab = pairing<E>(pa, qb);
    EXPECT_EQ(eab, e.cyclotomic_pow((a * b).to_bigint()));
    EXPECT_EQ(eab, pairing<E>(mul_gen<typename E::G1>(a * b), G2A<E>::generator()));
    EXPECT_EQ(eab, pairing<E>(G1A<E>::generator(), mul_gen<typename E::G2>(a * b)));
  }
}

TYPED_TEST(PairingTest, NegationInverts) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const auto p = mul_gen<typename E::G1>(Fr::random(rng()));
  const auto q = mul_gen<typename E::G2>(Fr::random(rng()));
  const auto e = pairing<E>(p, q);
  EXPECT_EQ(pairing<E>(-p, q), e.conjugate());
  EXPECT_EQ(pairing<E>(p, -q), e.conjugate());
  EXPECT_EQ(pairing<E>(-p, -q), e);
}

TYPED_TEST(PairingTest, MultiPairingIsTheProduct) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  std::vector<PairingInput<E>> pairs;
  auto product = E::Fq12::one();
  for (int i = 0; i < 4; ++i) {
    pairs.push_back({mul_gen<typename E::G1>(Fr::random(rng())), mul_gen<typename E::G2>(Fr::random(rng()))});
    product *= pairing<E>(pairs.back().p, pairs.back().q);
  }
  EXPECT_EQ(multi_pairing<E>(pairs), product);
  EXPECT_EQ(final_exponentiation<E>(multi_miller_loop<E>(pairs)), product);
  EXPECT_TRUE(multi_pairing<E>(std::span<const PairingInput<E>>{}).is_one());
  // e(P, Q)·e(−P, Q) = 1: the shape of every pairing-product check.
  const PairingInput<E> cancel[] = {pairs[0], {-pairs[0].p, pairs[0].q}};
  EXPECT_TRUE(multi_pairing<E>(cancel).is_one());
}

TYPED_TEST(PairingTest, InfinityPairsToOne) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  const auto p = mul_gen<typename E::G1>(Fr::random(rng()));
  const auto q = mul_gen<typename E::G2>(Fr::random(rng()));
  EXPECT_TRUE(pairing<E>(G1A<E>::identity(), q).is_one());
  EXPECT_TRUE(pairing<E>(p, G2A<E>::identity()).is_one());
  const PairingInput<E> with_inf[] = {{p, q}, {G1A<E>::identity(), q}, {p, G2A<E>::identity()}};
  EXPECT_EQ(multi_pairing<E>(with_inf), pairing<E>(p, q));
}

// The projective doubling and addition steps move T exactly as the group law does.
TYPED_TEST(PairingTest, MillerStepsFollowTheGroupLaw) {
  using E = TypeParam;
  using G2 = typename E::G2;
  using Fr = typename E::Fr;
  for (int i = 0; i < 4; ++i) {
    const auto t0 = mul_gen<G2>(Fr::random(rng()));
    const auto q = mul_gen<G2>(Fr::random(rng()));
    auto t = G2Homogeneous<G2>::from_affine(t0);
    t.double_step();
    const auto t2 = Jacobian<G2>::from_affine(t0).dbl();
    EXPECT_EQ(t.to_affine(), t2.to_affine());
    t.add_step(q);
    EXPECT_EQ(t.to_affine(), (t2 + Jacobian<G2>::from_affine(q)).to_affine());
    EXPECT_TRUE(t.to_affine().is_on_curve());
  }
}

}  // namespace
}  // namespace zkp
