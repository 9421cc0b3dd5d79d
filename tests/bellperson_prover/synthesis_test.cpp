// Synthesis of committed circom circuits (BLS12-381) in bellperson's numbering.
#include "core/bellperson/synthesis.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "core/ff/bls12_381.hpp"
#include "core/formats/r1cs.hpp"
#include "core/formats/wtns.hpp"
#include "core/groth16/witness.hpp"

namespace zkp::bellperson {
namespace {

using Fr = bls12_381::Fr;

struct Circuit {
  R1cs r1cs;
  std::vector<Fr::Int> witness;
};

Circuit load(const std::string& name) {
  const std::string dir = std::string(ZKPIPE_VECTORS_DATA_DIR) + "/" + name + "/";
  R1cs r1cs = read_r1cs(ByteSource::from_file(dir + "circuit.r1cs"));
  const Wtns wtns = read_wtns(ByteSource::from_file(dir + "witness.wtns"));
  return {std::move(r1cs), groth16::load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name())};
}

class BellpersonSynthesis : public ::testing::TestWithParam<std::string> {};

TEST_P(BellpersonSynthesis, RowsHoldAndInputRowsAreAppended) {
  Circuit c = load(GetParam());
  const CircuitShape shape = shape_of(c.r1cs);
  const R1csHeader& h = c.r1cs.header();
  EXPECT_EQ(shape.num_inputs, 1u + h.n_pub_out + h.n_pub_in);
  EXPECT_EQ(shape.num_inputs + shape.num_aux, h.n_wires);
  EXPECT_EQ(shape.abc_size(), h.n_constraints + shape.num_inputs);
  ThreadPool pool(3);
  std::optional<std::uint64_t> bad;
  const std::vector<Fr::Int> w = c.witness;
  const Synthesis<Fr> s = synthesize<Fr>(c.r1cs, shape, c.witness, pool, bad);
  EXPECT_FALSE(bad.has_value());
  ASSERT_EQ(s.a.size(), shape.abc_size());
  EXPECT_EQ(s.variables, w);  // circom's wire order is bellperson's variable order
  for (std::size_t r = 0; r < h.n_constraints; ++r) ASSERT_EQ(s.a[r] * s.b[r], s.c[r]) << "row " << r;
  for (std::uint64_t i = 0; i < shape.num_inputs; ++i) {
    const std::size_t r = h.n_constraints + i;
    EXPECT_EQ(s.a[r], Fr::from_bigint_reduce(w[i])) << "input row " << i;
    EXPECT_TRUE(s.b[r].is_zero() && s.c[r].is_zero()) << "input row " << i;
  }
}

TEST_P(BellpersonSynthesis, DensitiesAreTheVariablesEachMatrixUses) {
  Circuit c = load(GetParam());
  const CircuitShape shape = shape_of(c.r1cs);
  std::set<std::uint32_t> in_a, in_b;
  for (std::uint32_t k = 0; k < c.r1cs.size(); ++k) {
    const R1csConstraint row = c.r1cs.constraint(k);
    for (std::uint32_t t = 0; t < row.a.size(); ++t) in_a.insert(row.a[t].wire);
    for (std::uint32_t t = 0; t < row.b.size(); ++t) in_b.insert(row.b[t].wire);
  }
  std::uint64_t a_aux = 0, b_in = 0, b_aux = 0;
  for (std::uint32_t wire = 0; wire < c.r1cs.header().n_wires; ++wire) {
    const bool input = wire < shape.num_inputs;
    if (input) {
      EXPECT_EQ(shape.b_input_density().test(wire), in_b.count(wire) == 1) << "input " << wire;
      b_in += in_b.count(wire);
    } else {
      const std::uint64_t j = wire - shape.num_inputs;
      EXPECT_EQ(shape.a_aux_density().test(j), in_a.count(wire) == 1) << "aux " << j;
      EXPECT_EQ(shape.b_aux_density().test(j), in_b.count(wire) == 1) << "aux " << j;
      a_aux += in_a.count(wire);
      b_aux += in_b.count(wire);
    }
  }
  EXPECT_EQ(shape.a_aux_density().popcount(), a_aux);
  EXPECT_EQ(shape.b_input_density().popcount(), b_in);
  EXPECT_EQ(shape.b_aux_density().popcount(), b_aux);
}

TEST_P(BellpersonSynthesis, ABrokenWitnessNamesTheFirstViolatedRow) {
  Circuit c = load(GetParam());
  const CircuitShape shape = shape_of(c.r1cs);
  std::vector<Fr::Int> w = c.witness;
  const std::uint32_t last = c.r1cs.header().n_wires - 1;
  w[last] = (Fr::from_bigint_reduce(w[last]) + Fr::one()).to_bigint();
  // The first row that mentions the changed wire is the first that can break.
  std::uint64_t expected = c.r1cs.size();
  for (std::uint32_t k = 0; k < c.r1cs.size() && expected == c.r1cs.size(); ++k) {
    const R1csConstraint row = c.r1cs.constraint(k);
    for (const LinearCombination* lc : {&row.a, &row.b, &row.c}) {
      for (std::uint32_t t = 0; t < lc->size(); ++t) {
        if ((*lc)[t].wire == last) expected = k;
      }
    }
  }
  ThreadPool pool(2);
  std::optional<std::uint64_t> bad;
  (void)synthesize<Fr>(c.r1cs, shape, w, pool, bad);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(*bad, expected);
}

INSTANTIATE_TEST_SUITE_P(Vectors, BellpersonSynthesis,
                         ::testing::Values("chain_bls12381", "many_public_bls12381", "poseidon_bls12381"));

}  // namespace
}  // namespace zkp::bellperson
