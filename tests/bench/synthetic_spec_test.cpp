// `--synthetic CURVE:LOG2` parsing: both curves and the range ends accepted; every bad spec
// is a UsageError naming the flag and what is wrong.
#include "bench/synthetic_spec.hpp"
#include "services/command/command.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace zkp::cli::bench {
namespace {

std::string usage_message(const std::string& text) {
  try {
    parse_synthetic_spec("--synthetic", text);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(BenchSyntheticSpec, ParsesBothCurvesAndTheRangeEnds) {
  const SyntheticSpec bn = parse_synthetic_spec("--synthetic", "bn254:16");
  EXPECT_EQ(bn.curve, SyntheticCurve::bn254);
  EXPECT_EQ(bn.log2, 16u);
  const SyntheticSpec bls = parse_synthetic_spec("--synthetic", "bls12-381:" + std::to_string(kMinSyntheticLog2));
  EXPECT_EQ(bls.curve, SyntheticCurve::bls12_381);
  EXPECT_EQ(bls.log2, kMinSyntheticLog2);
  EXPECT_EQ(parse_synthetic_spec("--synthetic", "bn254:" + std::to_string(kMaxSyntheticLog2)).log2, kMaxSyntheticLog2);
  EXPECT_EQ(to_string(bls), "bls12-381:" + std::to_string(kMinSyntheticLog2));
  EXPECT_EQ(to_string(bn), "bn254:16");
}

TEST(BenchSyntheticSpec, BadSpecsNameTheFlagAndTheProblem) {
  EXPECT_NE(usage_message("bn254").find("--synthetic: 'bn254' is not CURVE:LOG2"), std::string::npos);
  EXPECT_NE(usage_message("bn128:10").find("--synthetic: unknown curve 'bn128'"), std::string::npos);
  EXPECT_NE(usage_message(":10").find("unknown curve ''"), std::string::npos);
  const std::vector<std::string> bad{"x", "", "-1", "16x", std::to_string(kMinSyntheticLog2 - 1),
                                     std::to_string(kMaxSyntheticLog2 + 1), "99999999999"};
  for (const std::string& log2 : bad) {
    EXPECT_NE(usage_message("bn254:" + log2).find("--synthetic: LOG2 '" + log2 + "' is not a whole number"),
              std::string::npos)
        << log2;
  }
}

}  // namespace
}  // namespace zkp::cli::bench
