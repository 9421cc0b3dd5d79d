// BN254 G1 and G2 through the shared curve suites (ec_suites.hpp), plus the BN254 twist
// constants: b' = 3/(9 + u) and the ψ coefficients of the G2 subgroup check.
#include <gtest/gtest.h>

#include "core/ec/curves_bn254.hpp"
#include "core/ec/twist_frobenius.hpp"
#include "ec_suites.hpp"
#include "known_vectors.hpp"
#include "test_support.hpp"

namespace zkp::test {
namespace {

using Bn254Curves =
    ::testing::Types<CurveCase<bn254::G1, tv::k_bn254_g1_generator, tv::k_bn254_g1_scalar_mul>,
                     CurveCase<bn254::G2, tv::k_bn254_g2_generator, tv::k_bn254_g2_scalar_mul>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Bn254, CurveTest, Bn254Curves, CurveNames);

// G1 has cofactor 1: every point on the curve is in the subgroup.
using Bn254CofactorCurves =
    ::testing::Types<CofactorCase<bn254::G2, tv::k_bn254_g2_off_subgroup, tv::k_bn254_g2_off_subgroup_times_h>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Bn254, CofactorCurveTest, Bn254CofactorCurves, CurveNames);

TEST(Bn254ConstantsTest, TwistBIsThreeOverXi) {
  using bn254::Fq;
  using bn254::Fq2;
  const Fq2 three{Fq::from_u64(3), Fq::zero()};
  EXPECT_EQ(bn254::G2::kB, three * Fq2::xi().inverse());
  EXPECT_EQ(bn254::G2::kB, fe2<Fq2>(tv::k_bn254_g2_b));
}

TEST(Bn254ConstantsTest, PsiCoefficientsMatchTheirDefinition) {
  const auto [cx, cy] = psi_coefficients<bn254::Fq2>(TwistType::d_type);
  EXPECT_EQ(bn254::G2::kPsiCx, cx);
  EXPECT_EQ(bn254::G2::kPsiCy, cy);
  EXPECT_EQ(bn254::G2::kPsiCx, fe2<bn254::Fq2>(tv::k_bn254_g2_psi_cx));
  EXPECT_EQ(bn254::G2::kPsiCy, fe2<bn254::Fq2>(tv::k_bn254_g2_psi_cy));
}

TEST(Bn254ConstantsTest, PsiActsAsSixSeedSquared) {
  // q ≡ 6x² (mod r), and ψ acts on G2 as multiplication by q.
  const bn254::Fr q_mod_r = bn254::Fr::from_bigint_reduce(bn254::Fq::kModulus);
  EXPECT_EQ(q_mod_r.to_bigint(), bn254::kSixSeedSquared.resize<4>());
  EXPECT_EQ(bn254::G2Jacobian::from_affine(psi(bn254::G2Affine::generator())),
            bn254::G2Jacobian::generator() * q_mod_r);
}

}  // namespace
}  // namespace zkp::test
