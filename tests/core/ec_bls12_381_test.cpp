// BLS12-381 G1 and G2 through the shared curve suites (ec_suites.hpp), plus the
// endomorphism constants of the subgroup checks: β for φ on G1, ψ's coefficients on G2.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/twist_frobenius.hpp"
#include "ec_suites.hpp"
#include "known_vectors.hpp"
#include "test_support.hpp"

namespace zkp::test {
namespace {

using Bls12381Curves =
    ::testing::Types<CurveCase<bls12_381::G1, tv::k_bls12_381_g1_generator, tv::k_bls12_381_g1_scalar_mul>,
                     CurveCase<bls12_381::G2, tv::k_bls12_381_g2_generator, tv::k_bls12_381_g2_scalar_mul>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Bls12381, CurveTest, Bls12381Curves, CurveNames);

using Bls12381CofactorCurves = ::testing::Types<
    CofactorCase<bls12_381::G1, tv::k_bls12_381_g1_off_subgroup, tv::k_bls12_381_g1_off_subgroup_times_h>,
    CofactorCase<bls12_381::G2, tv::k_bls12_381_g2_off_subgroup, tv::k_bls12_381_g2_off_subgroup_times_h>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Bls12381, CofactorCurveTest, Bls12381CofactorCurves, CurveNames);

TEST(Bls12381ConstantsTest, TwistBIsFourXi) {
  using bls12_381::Fq;
  EXPECT_EQ(bls12_381::G2::kB, bls12_381::Fq2(Fq::from_u64(4), Fq::zero()) * bls12_381::Fq2::xi());
  EXPECT_EQ(bls12_381::G2::kB, bls12_381::Fq2(Fq::from_u64(4), Fq::from_u64(4)));
}

TEST(Bls12381ConstantsTest, PsiCoefficientsMatchTheirDefinition) {
  const auto [cx, cy] = psi_coefficients<bls12_381::Fq2>(TwistType::m_type);
  EXPECT_EQ(bls12_381::G2::kPsiCx, cx);
  EXPECT_EQ(bls12_381::G2::kPsiCy, cy);
  EXPECT_EQ(bls12_381::G2::kPsiCx, fe2<bls12_381::Fq2>(tv::k_bls12_381_g2_psi_cx));
  EXPECT_EQ(bls12_381::G2::kPsiCy, fe2<bls12_381::Fq2>(tv::k_bls12_381_g2_psi_cy));
}

TEST(Bls12381ConstantsTest, PsiActsAsTheSeed) {
  // q ≡ z (mod r) with z < 0, so ψ(G) = −[|z|]G.
  const auto g2 = bls12_381::G2Jacobian::generator();
  EXPECT_EQ(psi(g2), -scalar_mul(g2, bls12_381::kSeedAbs));
}

TEST(Bls12381ConstantsTest, BetaIsACubeRootOfUnityActingAsMinusZSquared) {
  using bls12_381::Fq;
  const Fq beta = bls12_381::kBeta;
  EXPECT_FALSE(beta.is_one());
  EXPECT_TRUE(beta.pow(std::uint64_t{3}).is_one());
  EXPECT_EQ(beta, Fq::from_hex_or_throw(tv::k_bls12_381_beta));
  const auto g = bls12_381::G1Jacobian::generator();
  const bls12_381::G1Jacobian phi{g.X * beta, g.Y, g.Z};
  EXPECT_EQ(phi, -scalar_mul(g, bls12_381::kSeedSquared));
}

}  // namespace
}  // namespace zkp::test
