#include "core/bellperson/domain.hpp"

#include <gtest/gtest.h>

namespace zkp::bellperson {
namespace {

TEST(BellpersonDomain, TwoAdicRootIsBlstrsRootOfUnity) {
  // The bls12_381 / blstrs crates' ROOT_OF_UNITY (= 7^t), standard form.
  const auto expected = Fr::Int::from_hex("0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
  EXPECT_EQ(two_adic_root().to_bigint(), expected);
}

TEST(BellpersonDomain, RootsArePrimitiveOfTheirOrder) {
  for (std::size_t k : {1u, 2u, 5u, 11u, 27u, 32u}) {
    Fr w = root_of_unity(k);
    for (std::size_t i = 0; i + 1 < k; ++i) w = w.square();
    EXPECT_NE(w, Fr::one()) << "2^" << k << ": order below 2^k";
    EXPECT_EQ(w.square(), Fr::one()) << "2^" << k;
  }
}

TEST(BellpersonDomain, DiffersFromSnarkjsRootsAndUsesCosetSeven) {
  const NttDomain<Fr> d = make_domain(10);
  EXPECT_EQ(d.omega(), root_of_unity(10));
  EXPECT_NE(d.omega(), Fr::root_of_unity(10));  // snarkjs's generator 5
  EXPECT_EQ(d.coset_generator(), Fr::from_u64(7));
}

}  // namespace
}  // namespace zkp::bellperson
