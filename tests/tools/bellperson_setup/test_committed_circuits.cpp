// Parameter files for the committed BLS12-381 circuits, read back with the test's own reader and
// checked against what the r1cs says they must hold (expected_params.hpp).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>

#include "expected_params.hpp"

namespace {

using namespace zkp;
using namespace zkp::bellperson_setup;
using namespace zkp::bellperson_setup::test;

constexpr std::uint64_t kSeed = 11;

class CommittedCircuit : public ::testing::TestWithParam<const char*> {
 protected:
  // One file per circuit for the whole suite: generating is the slow part.
  static const std::string& file(const std::string& name) {
    static std::map<std::string, std::string> files;
    auto it = files.find(name);
    if (it == files.end()) it = files.emplace(name, generate(committed(name), kSeed)).first;
    return it->second;
  }
};

TEST_P(CommittedCircuit, QueryLengthsFollowTheR1cs) {
  const R1cs cs = committed(GetParam());
  ParsedParams p;
  ASSERT_NO_THROW(p = parse(file(GetParam())));  // every point finite, on the curve, in G1/G2
  const Shape s(cs);
  expect_counts(p, s);
  EXPECT_EQ(file(GetParam()).size(),
            params_file_bytes({p.ic.size(), p.h.size(), p.l.size(), p.a.size(), p.b_g1.size()}));
}

TEST_P(CommittedCircuit, PointsAreTheToxicWasteTimesTheGenerators) {
  const R1cs cs = committed(GetParam());
  const ParsedParams p = parse(file(GetParam()));
  const Shape s(cs);
  const auto n = static_cast<std::uint32_t>(s.num_vars);
  const auto first_aux = static_cast<std::uint32_t>(s.num_inputs);
  expect_values(cs, p, s, kSeed, {first_aux, first_aux + 1, (first_aux + n) / 2, n - 2, n - 1});
}

INSTANTIATE_TEST_SUITE_P(Bls12381, CommittedCircuit,
                         ::testing::Values("chain_bls12381", "poseidon_bls12381", "many_public_bls12381"));

// poseidon_bls12381 has aux variables in no A and others in no B (822 and 1065 of 1551): the
// a and b queries must leave exactly those out, and keep the order of the rest.
TEST(DensityFilter, PoseidonLeavesOutTheAuxMissingFromAAndFromB) {
  const R1cs cs = committed("poseidon_bls12381");
  const Shape s(cs);
  std::set<std::uint32_t> missing_a, missing_b;
  std::size_t inputs_missing_b = 0;
  for (std::uint32_t v = 0; v < s.num_vars; ++v) {
    if (v < s.num_inputs) {
      inputs_missing_b += s.in_b.contains(v) ? 0 : 1;
      continue;
    }
    if (!s.in_a.contains(v)) missing_a.insert(v);
    if (!s.in_b.contains(v)) missing_b.insert(v);
  }
  ASSERT_FALSE(missing_a.empty());
  ASSERT_FALSE(missing_b.empty());
  const std::string bytes = generate(cs, kSeed);
  const ParsedParams p = parse(bytes);
  EXPECT_EQ(p.a.size(), s.num_vars - missing_a.size());
  EXPECT_EQ(p.b_g1.size(), s.num_vars - missing_b.size() - inputs_missing_b);
  expect_counts(p, s);
  // Values at the edges of the gaps: the last variable missing from A and the one after it.
  const std::uint32_t gap_a = *missing_a.rbegin(), gap_b = *missing_b.rbegin();
  std::set<std::uint32_t> sample{gap_a, gap_b};
  if (gap_a + 1 < s.num_vars) sample.insert(gap_a + 1);
  if (gap_b + 1 < s.num_vars) sample.insert(gap_b + 1);
  expect_values(cs, p, s, kSeed, sample);
}

TEST(Determinism, SameSeedSameBytesOtherSeedOtherBytes) {
  const R1cs cs = committed("many_public_bls12381");
  const std::string a = generate(cs, 5), b = generate(cs, 5), c = generate(cs, 6);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.size(), c.size());
  EXPECT_NE(a, c);
}

TEST(Refusal, Bn254CircuitIsRefusedByName) {
  const R1cs cs = committed("chain_bn128");
  ThreadPool pool(1);
  std::ostringstream out;
  try {
    write_params(cs, draw_toxic_waste(kSeed), out, pool);
    FAIL() << "a BN254 circuit was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("only for BLS12-381"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("BN254"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(out.str().empty());
}

}  // namespace
