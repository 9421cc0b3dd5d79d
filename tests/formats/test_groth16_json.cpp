// snarkjs JSON: byte-identical rewrite of snarkjs's own proof.json / public.json, the vkey read
// back and cross-checked against the zkey's (Montgomery) points, and malformed files refused.
#include <gtest/gtest.h>

#include "expect_error.hpp"
#include "fields.hpp"
#include "core/formats/groth16_json.hpp"
#include "core/formats/wtns.hpp"
#include "core/formats/zkey.hpp"
#include "vectors.hpp"

namespace {

using namespace zkp;
using zkp::test::expect_format_error;
using zkp::test::VectorInfo;

class JsonVector : public ::testing::TestWithParam<VectorInfo> {
 protected:
  std::filesystem::path path(const char* name) const {
    return zkp::test::vector_dir(GetParam()) / name;
  }

  // zkey coordinates are x*R mod q: decode with the base field to compare with the JSON.
  template <class Fq>
  void expect_vkey_matches_zkey() {
    const VectorInfo& v = GetParam();
    const VerificationKey vk = read_vkey_json(zkp::test::read_text(path("vkey.json")), "vkey.json");
    const Zkey key = read_zkey(ByteSource::from_file(path("circuit.zkey")));
    const std::size_t n8 = v.n8q;
    auto coord = [&](ByteView point, std::size_t i) {
      return Fq::from_montgomery_bytes(point.subspan(i * n8, n8)).to_bytes(n8);
    };
    EXPECT_EQ(coord(key.header().alpha1, 0), vk.alpha1.x);
    EXPECT_EQ(coord(key.header().alpha1, 1), vk.alpha1.y);
    const std::pair<ByteView, const G2Affine*> g2s[] = {{key.header().beta2, &vk.beta2},
                                                        {key.header().gamma2, &vk.gamma2},
                                                        {key.header().delta2, &vk.delta2}};
    for (const auto& [zk, js] : g2s) {
      EXPECT_EQ(coord(zk, 0), js->x_c0);
      EXPECT_EQ(coord(zk, 1), js->x_c1);
      EXPECT_EQ(coord(zk, 2), js->y_c0);
      EXPECT_EQ(coord(zk, 3), js->y_c1);
    }
    ASSERT_EQ(vk.ic.size(), std::size_t{v.n_public} + 1);
    for (std::size_t i = 0; i < vk.ic.size(); ++i) {
      const ByteView p = key.points().ic.subspan(i * 2 * n8, 2 * n8);
      EXPECT_EQ(coord(p, 0), vk.ic[i].x) << "IC " << i;
      EXPECT_EQ(coord(p, 1), vk.ic[i].y) << "IC " << i;
    }
  }
};

TEST_P(JsonVector, ProofRewritesByteIdentically) {
  const std::string original = zkp::test::read_text(path("proof.json"));
  const Groth16Proof proof = read_proof_json(original, "proof.json");
  EXPECT_EQ(proof.curve, zkp::test::vector_curve(GetParam()));
  EXPECT_EQ(proof.a.x.size(), GetParam().n8q);
  EXPECT_FALSE(proof.a.infinity);
  const std::string written = write_proof_json(proof);
  EXPECT_EQ(written, original);
  // write -> read -> same bytes
  const Groth16Proof again = read_proof_json(written, "written");
  EXPECT_EQ(again.a.x, proof.a.x);
  EXPECT_EQ(again.b.y_c1, proof.b.y_c1);
  EXPECT_EQ(again.c.y, proof.c.y);
  EXPECT_EQ(write_proof_json(again), written);
}

TEST_P(JsonVector, PublicSignalsAreTheWitnessAndRewriteIdentically) {
  const VectorInfo& v = GetParam();
  const std::string original = zkp::test::read_text(path("public.json"));
  const std::vector<ByteVec> signals =
      read_public_json(original, "public.json", zkp::test::vector_curve(v));
  ASSERT_EQ(signals.size(), v.n_public);
  EXPECT_EQ(write_public_json(signals), original);
  const Wtns w = read_wtns(ByteSource::from_file(path("witness.wtns")));
  EXPECT_EQ(public_signals(w, v.n_public), signals);
  EXPECT_EQ(write_public_json(public_signals(w, v.n_public)), original);
}

TEST_P(JsonVector, VerificationKeyMatchesTheZkey) {
  const VerificationKey vk = read_vkey_json(zkp::test::read_text(path("vkey.json")), "vkey.json");
  EXPECT_EQ(vk.curve, zkp::test::vector_curve(GetParam()));
  EXPECT_EQ(vk.n_public, GetParam().n_public);
  if (vk.curve == Curve::bn254) {
    expect_vkey_matches_zkey<zkp::test::Bn254Fq>();
  } else {
    expect_vkey_matches_zkey<zkp::test::Bls12381Fq>();
  }
}

INSTANTIATE_TEST_SUITE_P(Committed, JsonVector, ::testing::ValuesIn(zkp::test::all_vectors()),
                         [](const auto& info) { return std::string(info.param.dir); });

// ---- malformed JSON, each an edit of the committed BN254 chain files ------------------------

class JsonMutation : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto dir = zkp::test::vector_dir(zkp::test::all_vectors()[0]);
    proof_ = zkp::test::read_text(dir / "proof.json");
    vkey_ = zkp::test::read_text(dir / "vkey.json");
    pub_ = zkp::test::read_text(dir / "public.json");
  }
  static std::string replace(std::string s, const std::string& from, const std::string& to) {
    const std::size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? s : s.replace(at, from.size(), to);
  }
  std::string proof_, vkey_, pub_;
};

TEST_F(JsonMutation, WrongProtocol) {
  expect_format_error(
      [&] { read_proof_json(replace(proof_, "\"groth16\"", "\"plonk\""), "p.json"); },
      {"p.json: protocol: expected \"groth16\", found \"plonk\""});
}

TEST_F(JsonMutation, UnknownCurve) {
  expect_format_error([&] { read_proof_json(replace(proof_, "\"bn128\"", "\"bn254\""), "p.json"); },
                      {"curve: unknown curve \"bn254\" (expected \"bn128\" or \"bls12381\")"});
}

TEST_F(JsonMutation, MissingKey) {
  expect_format_error([&] { read_proof_json(replace(proof_, "\"pi_c\"", "\"pi_d\""), "p.json"); },
                      {"p.json: top level: missing key \"pi_c\""});
}

TEST_F(JsonMutation, CoordinateNotBelowQ) {
  const std::string q =
      "21888242871839275222246405745257275088696311157297823662689037894645226208583";
  const std::size_t at = proof_.find("\"pi_b\"");
  std::string bad = proof_;
  const std::size_t s = bad.find("\"", bad.find("[", bad.find("[", at) + 1)) + 1;  // pi_b[0][0]
  bad.replace(s, bad.find("\"", s) - s, q);
  expect_format_error([&] { read_proof_json(bad, "p.json"); },
                      {"pi_b[0][0]: ", " is not below q "});
}

TEST_F(JsonMutation, NotADecimalString) {
  expect_format_error(
      [&] {
        read_proof_json(replace(proof_, "\"1\"\n ],\n \"pi_b\"", "\"01\"\n ],\n \"pi_b\""),
                        "p.json");
      },
      {"pi_a[2]: z = \"01\": only affine points"});
  std::string bad = proof_;
  bad.insert(bad.find("\"", bad.find("[")) + 1, "x");
  expect_format_error([&] { read_proof_json(bad, "p.json"); },
                      {"pi_a[0]: \"x", "not a decimal number"});
}

TEST_F(JsonMutation, WrongShape) {
  expect_format_error(
      [&] { read_proof_json(replace(proof_, "\"pi_a\": [", "\"pi_a\": [\"1\","), "p.json"); },
      {"pi_a: expected 3 elements, found 4"});
  expect_format_error([&] { read_proof_json("[]", "p.json"); },
                      {"top level: expected an object, found array"});
}

TEST_F(JsonMutation, ProjectivePointRefused) {
  std::string bad = proof_;
  const std::size_t pi_c = bad.find("\"pi_c\"");
  const std::size_t one = bad.find("\"1\"", pi_c);
  bad.replace(one, 3, "\"2\"");
  expect_format_error([&] { read_proof_json(bad, "p.json"); },
                      {"pi_c[2]: z = \"2\": only affine points"});
}

TEST_F(JsonMutation, VkeyIcCountMustMatchNPublic) {
  expect_format_error(
      [&] { read_vkey_json(replace(vkey_, "\"nPublic\": 2", "\"nPublic\": 3"), "v.json"); },
      {"v.json: IC: 3 points, but nPublic 3 needs 4"});
  expect_format_error(
      [&] { read_vkey_json(replace(vkey_, "\"nPublic\": 2", "\"nPublic\": -2"), "v.json"); },
      {"nPublic: -2 is not an integer"});
}

TEST_F(JsonMutation, PublicSignalNotBelowR) {
  const std::string r =
      "21888242871839275222246405745257275088548364400416034343698204186575808495617";
  expect_format_error([&] { read_public_json("[\n \"" + r + "\"\n]", "pub.json", Curve::bn254); },
                      {"pub.json: [0]: ", "is not below r"});
  EXPECT_NO_THROW(read_public_json("[\n \"" + r + "\"\n]", "pub.json", Curve::bls12_381));
}

TEST(ProofJson, InfinityUsesSnarkjsEncoding) {
  Groth16Proof p;
  p.curve = Curve::bn254;
  p.a.infinity = true;
  p.b.infinity = true;
  p.c.infinity = true;
  const std::string text = write_proof_json(p);
  EXPECT_NE(text.find("\"pi_a\": [\n  \"0\",\n  \"1\",\n  \"0\"\n ]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"pi_b\": [\n  [\n   \"0\",\n   \"0\"\n  ],\n  [\n   \"1\",\n   \"0\"\n  "
                      "],\n  [\n   \"0\",\n   \"0\"\n  ]\n ]"),
            std::string::npos)
      << text;
  const Groth16Proof back = read_proof_json(text, "inf.json");
  EXPECT_TRUE(back.a.infinity);
  EXPECT_TRUE(back.b.infinity);
  EXPECT_TRUE(back.c.infinity);
  EXPECT_EQ(write_proof_json(back), text);
}

TEST(ProofJson, PointValidatorRunsOnStandardForm) {
  const auto dir = zkp::test::vector_dir(zkp::test::all_vectors()[1]);  // BLS chain
  JsonReadOptions o;
  int batches = 0;
  o.validate_points = [&](const PointBatch& b) -> std::optional<std::size_t> {
    EXPECT_EQ(b.encoding, CoordEncoding::standard);
    EXPECT_EQ(b.points.size(), b.count * (b.group == PointGroup::g1 ? 96u : 192u));
    ++batches;
    return b.what == "pi_b" ? std::optional<std::size_t>(0) : std::nullopt;
  };
  expect_format_error(
      [&] { read_proof_json(zkp::test::read_text(dir / "proof.json"), "p.json", o); },
      {"p.json: pi_b: point 0 of 1 is not a valid BLS12-381 G2 point"});
  EXPECT_EQ(batches, 2);  // pi_a, then pi_b rejected
}

}  // namespace
