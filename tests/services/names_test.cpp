// The one table of curve and key-format names (host/services/names.hpp): each spelling names its
// curve, each writer's spelling is the one its contract fixes, and nothing else is accepted.
#include <gtest/gtest.h>

#include "services/names.hpp"

namespace {

using namespace zkp;

TEST(Names, EitherSpellingNamesTheCurve) {
  EXPECT_EQ(services::curve_from_name("bn128"), ZKP_CURVE_BN254);
  EXPECT_EQ(services::curve_from_name("bn254"), ZKP_CURVE_BN254);
  EXPECT_EQ(services::curve_from_name("bls12381"), ZKP_CURVE_BLS12_381);
  EXPECT_EQ(services::curve_from_name("bls12_381"), ZKP_CURVE_BLS12_381);
  for (const char* other : {"", "BN254", "bls12-381", "bn", "unknown", "bn254 "}) {
    EXPECT_FALSE(services::curve_from_name(other).has_value()) << other;
  }
}

TEST(Names, TheFleetsFlagsTakeTheFleetsSpellingOnly) {
  EXPECT_EQ(services::curve_from_fleet_name("bn254"), ZKP_CURVE_BN254);
  EXPECT_EQ(services::curve_from_fleet_name("bls12_381"), ZKP_CURVE_BLS12_381);
  EXPECT_FALSE(services::curve_from_fleet_name("bn128").has_value());
  EXPECT_FALSE(services::curve_from_fleet_name("bls12381").has_value());
}

TEST(Names, EachContractKeepsItsSpelling) {
  // serve's wire and proof.json: snarkjs's names.
  EXPECT_EQ(services::snarkjs_curve_name(ZKP_CURVE_BN254), "bn128");
  EXPECT_EQ(services::snarkjs_curve_name(ZKP_CURVE_BLS12_381), "bls12381");
  // the fleet's store: jobs.curve and the workers' curves.
  EXPECT_EQ(services::fleet_curve_name(ZKP_CURVE_BN254), "bn254");
  EXPECT_EQ(services::fleet_curve_name(ZKP_CURVE_BLS12_381), "bls12_381");
  EXPECT_EQ(services::snarkjs_curve_name(ZKP_CURVE_UNKNOWN), "unknown");
  EXPECT_EQ(services::fleet_curve_name(99), "unknown");
}

TEST(Names, TheRowsAgreeWithTheFormatsLibrary) {
  for (const services::CurveName& row : services::curve_names()) {
    EXPECT_EQ(curve_info(row.curve).snarkjs_name, row.snarkjs);
    EXPECT_EQ(services::formats_curve(row.abi), row.curve);
    EXPECT_EQ(services::find_curve(row.abi), &row);
  }
  EXPECT_FALSE(services::formats_curve(ZKP_CURVE_UNKNOWN).has_value());
  EXPECT_EQ(services::find_curve(ZKP_CURVE_UNKNOWN), nullptr);
}

TEST(Names, KeyFormats) {
  EXPECT_EQ(services::key_format_from_name("zkey"), ZKP_KEY_FORMAT_ZKEY);
  EXPECT_EQ(services::key_format_from_name("bellperson"), ZKP_KEY_FORMAT_BELLPERSON);
  EXPECT_FALSE(services::key_format_from_name("params").has_value());
  EXPECT_FALSE(services::key_format_from_name("").has_value());
  EXPECT_EQ(services::key_format_name(ZKP_KEY_FORMAT_ZKEY), "zkey");
  EXPECT_EQ(services::key_format_name(ZKP_KEY_FORMAT_BELLPERSON), "bellperson");
}

}  // namespace
