// Circuits: the committed r1cs files parse to snarkjs's numbers, the zkey's coefficient section
// is exactly the r1cs A and B matrices in snarkjs's R^2 encoding (decoded with the test-only
// field), a witness of another circuit is refused, and malformed circuits are refused. Whether a
// witness satisfies its circuit is the prover's r1cs check, tested in
// tests/groth16/r1cs_check_test.cpp.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "expect_error.hpp"
#include "fields.hpp"
#include "core/formats/r1cs.hpp"
#include "core/formats/wtns.hpp"
#include "core/formats/zkey.hpp"
#include "vectors.hpp"

namespace {

using namespace zkp;
using zkp::test::expect_format_error;
using zkp::test::VectorInfo;

class R1csVector : public ::testing::TestWithParam<VectorInfo> {
 protected:
  std::filesystem::path path(const char* name) const {
    return zkp::test::vector_dir(GetParam()) / name;
  }

  // zkey section 4 == the r1cs A and B terms (value = coefficient * R^2 mod r), plus snarkjs's
  // A[nConstraints + s][s] = 1 rows.
  template <class F>
  void expect_zkey_coefficients_match() {
    const VectorInfo& v = GetParam();
    const R1cs cs = read_r1cs(ByteSource::from_file(path("circuit.r1cs")));
    const Zkey key = read_zkey(ByteSource::from_file(path("circuit.zkey")));
    // R^2-encoded bytes -> the coefficient: two Montgomery reductions (x R^2 -> x R -> x).
    auto decode = [](ByteView v) {
      return F::from_montgomery_bytes(F::from_montgomery_bytes(v).to_bytes(32));
    };
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, F> zk;
    for (std::uint32_t i = 0; i < key.coefficients().size(); ++i) {
      const ZkeyCoefficient c = key.coefficients()[i];
      ASSERT_TRUE(zk.emplace(std::tuple{c.matrix, c.row, c.wire}, decode(c.value)).second);
    }
    std::size_t expected = 0;
    for (std::uint32_t i = 0; i < cs.size(); ++i) {
      const R1csConstraint c = cs.constraint(i);
      for (std::uint32_t m = 0; m < 2; ++m) {
        const LinearCombination& lc = m == 0 ? c.a : c.b;
        for (std::uint32_t t = 0; t < lc.size(); ++t) {
          const auto it = zk.find({m, i, lc[t].wire});
          ASSERT_NE(it, zk.end()) << "constraint " << i << " matrix " << m << " wire "
                                  << lc[t].wire;
          EXPECT_EQ(it->second, F::from_bytes(lc[t].coefficient));
          ++expected;
        }
      }
    }
    std::vector<std::byte> one(32);
    one[0] = std::byte{1};
    for (std::uint32_t s = 0; s <= v.n_public; ++s) {
      const auto it = zk.find({0u, v.n_constraints + s, s});
      ASSERT_NE(it, zk.end());
      EXPECT_EQ(it->second, F::from_bytes(one));
      ++expected;
    }
    EXPECT_EQ(zk.size(), expected);
  }
};

TEST_P(R1csVector, HeaderMatchesSnarkjs) {
  const VectorInfo& v = GetParam();
  const R1cs cs = read_r1cs(ByteSource::from_file(path("circuit.r1cs")));
  const R1csHeader& h = cs.header();
  EXPECT_EQ(h.curve, zkp::test::vector_curve(v));
  EXPECT_EQ(h.n8, 32u);
  EXPECT_EQ(h.n_wires, v.n_wires);
  EXPECT_EQ(h.n_pub_out, v.n_outputs);
  EXPECT_EQ(h.n_pub_in, v.n_pub_inputs);
  EXPECT_EQ(h.n_prv_in, v.n_prv_inputs);
  EXPECT_EQ(h.n_labels, v.n_labels);
  EXPECT_EQ(h.n_constraints, v.n_constraints);
  EXPECT_EQ(h.n_pub_out + h.n_pub_in, v.n_public);  // what the zkey calls nPublic
  EXPECT_EQ(cs.wire_label(0), 0u);                  // wire 0, the constant, is label 0
  for (std::uint32_t i = 0; i < h.n_wires; ++i) ASSERT_LT(cs.wire_label(i), h.n_labels);
}

TEST_P(R1csVector, ZkeyCoefficientsAreTheR1csMatrices) {
  if (zkp::test::vector_curve(GetParam()) == Curve::bn254) {
    expect_zkey_coefficients_match<zkp::test::Bn254Fr>();
  } else {
    expect_zkey_coefficients_match<zkp::test::Bls12381Fr>();
  }
}

INSTANTIATE_TEST_SUITE_P(Committed, R1csVector, ::testing::ValuesIn(zkp::test::all_vectors()),
                         [](const auto& info) { return std::string(info.param.dir); });

TEST(R1csCheck, WitnessOfAnotherCircuitIsRefusedBeforeEvaluation) {
  const auto& vs = zkp::test::all_vectors();
  const R1cs cs = read_r1cs(ByteSource::from_file(zkp::test::vector_dir(vs[2]) / "circuit.r1cs"));
  const Wtns w = read_wtns(ByteSource::from_file(zkp::test::vector_dir(vs[0]) / "witness.wtns"));
  expect_format_error([&] { check_witness_matches(cs, w); },
                      {"witness has 2003 values, the circuit expects 547"});
}

class R1csMutation : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_ =
        zkp::test::read_bytes(zkp::test::vector_dir(zkp::test::all_vectors()[0]) / "circuit.r1cs");
    ASSERT_FALSE(bytes_.empty());
    s1_ = zkp::test::section_header_at(bytes_, 1) + 12;
    s2_ = zkp::test::section_header_at(bytes_, 2) + 12;
  }
  R1cs parse() const { return read_r1cs(ByteSource::borrow(bytes_, "mutated.r1cs")); }

  std::vector<std::byte> bytes_;
  std::size_t s1_ = 0, s2_ = 0;
};

TEST_F(R1csMutation, Unmodified) { EXPECT_EQ(parse().size(), 2000u); }

TEST_F(R1csMutation, Truncated) {
  bytes_.resize(100);
  expect_format_error([&] { parse(); }, {"mutated.r1cs", "runs past the end of the file"});
}

TEST_F(R1csMutation, WireOutOfRange) {
  // Constraint 0's A combination: u32 nTerms, then {u32 wire, 32-byte coefficient}.
  ASSERT_GT(load_u32le(bytes_.data() + s2_), 0u);
  zkp::test::put_u32(bytes_, s2_ + 4, 2003);
  expect_format_error([&] { parse(); }, {"section 2 (constraints): constraint 0 A term 0",
                                         "wire 2003 out of range (nWires 2003)"});
}

TEST_F(R1csMutation, CoefficientNotBelowPrime) {
  for (std::size_t i = 0; i < 32; ++i) bytes_[s2_ + 8 + i] = std::byte{0xff};
  expect_format_error([&] { parse(); },
                      {"constraint 0 A term 0", "coefficient is not below the prime"});
}

TEST_F(R1csMutation, ConstraintCountTooLarge) {
  zkp::test::put_u32(bytes_, s1_ + 4 + 32 + 4 * 4 + 8, 2001);
  expect_format_error([&] { parse(); },
                      {"section 2 (constraints)", "truncated reading term count"});
  zkp::test::put_u32(bytes_, s1_ + 4 + 32 + 4 * 4 + 8, 0xFFFFFFF0u);
  expect_format_error([&] { parse(); }, {"nConstraints 4294967280 cannot fit"});
}

TEST_F(R1csMutation, MoreNamedWiresThanWires) {
  zkp::test::put_u32(bytes_, s1_ + 4 + 32 + 4 * 3, 5000);  // nPrvIn
  expect_format_error([&] { parse(); },
                      {"1 + nPubOut + nPubIn + nPrvIn = 5003 exceeds nWires 2003"});
}

TEST_F(R1csMutation, CustomGatesAreRefused) {
  zkp::test::put_u32(bytes_, zkp::test::section_header_at(bytes_, 3), 4);
  expect_format_error([&] { parse(); }, {"uses custom gates", "Groth16 cannot prove them"});
}

}  // namespace
