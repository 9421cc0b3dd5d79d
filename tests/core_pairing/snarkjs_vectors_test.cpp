// Verification of the committed snarkjs vectors (tests/vectors/data/*: vkey.json, public.json,
// proof.json made by `snarkjs groth16 prove` and accepted by `snarkjs groth16 verify`), read by
// provers/core/formats: every proof verifies; one changed digit, one wrong public input, or the
// other curve's key is rejected; and e(α₁, β₂) agrees with the vk_alphabeta_12 snarkjs stores.
// Skipped (not passed) when the data folder holds no vectors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/formats/decimal.hpp"
#include "core/formats/error.hpp"
#include "core/formats/groth16_json.hpp"
#include "core/formats/json.hpp"
#include "core/pairing/snarkjs_verify.hpp"
#include "pairing_test_support.hpp"

namespace zkp {
namespace {

namespace fs = std::filesystem;
using groth16::VerifyStatus;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Vector {
  std::string name;  // e.g. "chain_bn128"
  fs::path dir;
  std::string vkey_text, proof_text, public_text;
  VerificationKey vk;
  Groth16Proof proof;
  std::vector<ByteVec> publics;
};

Vector load(const fs::path& dir) {
  Vector v{dir.filename().string(), dir, slurp(dir / "vkey.json"), slurp(dir / "proof.json"),
           slurp(dir / "public.json"), {}, {}, {}};
  v.vk = read_vkey_json(v.vkey_text, (dir / "vkey.json").string());
  v.proof = read_proof_json(v.proof_text, (dir / "proof.json").string());
  v.publics = read_public_json(v.public_text, (dir / "public.json").string(), v.vk.curve);
  return v;
}

const std::vector<Vector>& vectors() {
  static const std::vector<Vector> all = [] {
    std::vector<Vector> out;
    const fs::path root{ZKPIPE_VECTORS_DIR};
    if (!fs::is_directory(root)) return out;
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(root)) {
      if (e.is_directory() && fs::exists(e.path() / "vkey.json") && fs::exists(e.path() / "proof.json") &&
          fs::exists(e.path() / "public.json"))
        dirs.push_back(e.path());
    }
    std::sort(dirs.begin(), dirs.end());
    for (const auto& d : dirs) out.push_back(load(d));
    return out;
  }();
  return all;
}

constexpr const char* kNoVectors = "no snarkjs vectors under " ZKPIPE_VECTORS_DIR;

// Verifies a proof.json text against a vector's key and public inputs. A reader rejection
// (FormatError) counts as a rejection too, reported as "format: <message>".
std::string verdict(const Vector& v, const std::string& proof_text, const std::vector<ByteVec>& publics) {
  try {
    const auto proof = read_proof_json(proof_text, "proof.json (altered)");
    const auto r = groth16::verify_snarkjs(v.vk, publics, proof);
    return r.ok() ? "ok" : r.message();
  } catch (const FormatError& e) {
    return std::string("format: ") + e.what();
  }
}

TEST(SnarkjsVectors, EveryProofVerifies) {
  if (vectors().empty()) GTEST_SKIP() << kNoVectors;
  std::map<Curve, int> per_curve;
  for (const auto& v : vectors()) {
    const auto r = groth16::verify_snarkjs(v.vk, v.publics, v.proof);
    EXPECT_TRUE(r.ok()) << v.name << ": " << r.message();
    ++per_curve[v.vk.curve];
  }
  EXPECT_GT(per_curve[Curve::bn254], 0);
  EXPECT_GT(per_curve[Curve::bls12_381], 0);
}

// One decimal digit of a proof coordinate changed: pi_a x, pi_b x.c1, pi_c y in turn. The point
// leaves the curve (its y no longer matches), so the rejection is not_on_curve, not the pairing.
TEST(SnarkjsVectors, OneChangedDigitIsRejected) {
  if (vectors().empty()) GTEST_SKIP() << kNoVectors;
  for (const auto& v : vectors()) {
    const JsonValue root = parse_json(v.proof_text, "proof.json");
    const std::string coords[] = {root.find("pi_a")->as_array()[0].as_string(),
                                  root.find("pi_b")->as_array()[0].as_array()[1].as_string(),
                                  root.find("pi_c")->as_array()[1].as_string()};
    const char* where[] = {"proof.A", "proof.B", "proof.C"};
    for (int k = 0; k < 3; ++k) {
      const auto pos = v.proof_text.find('"' + coords[k] + '"');
      ASSERT_NE(pos, std::string::npos);
      std::string altered = v.proof_text;
      char& digit = altered[pos + coords[k].size()];  // the last digit of the number
      digit = digit == '9' ? '8' : static_cast<char>(digit + 1);
      EXPECT_EQ(verdict(v, altered, v.publics), std::string(where[k]) + ": point not on the curve") << v.name;
    }
  }
}

TEST(SnarkjsVectors, WrongPublicInputIsRejected) {
  if (vectors().empty()) GTEST_SKIP() << kNoVectors;
  for (const auto& v : vectors()) {
    ASSERT_FALSE(v.publics.empty()) << v.name;
    for (std::size_t i : {std::size_t{0}, v.publics.size() - 1}) {
      auto publics = v.publics;
      publics[i][0] = std::byte{static_cast<std::uint8_t>(std::to_integer<std::uint8_t>(publics[i][0]) ^ 1)};
      const auto r = groth16::verify_snarkjs(v.vk, publics, v.proof);
      EXPECT_EQ(r.status, VerifyStatus::pairing_check_failed) << v.name << " public " << i << ": " << r.message();
    }
    auto fewer = v.publics;
    fewer.pop_back();
    EXPECT_EQ(groth16::verify_snarkjs(v.vk, fewer, v.proof).status, VerifyStatus::wrong_public_count) << v.name;
  }
}

// The same circuit's key for the other curve: rejected as a mismatch; and a proof relabelled to
// the key's curve is rejected on its bytes (BLS12-381 coordinates do not fit BN254's 32 bytes)
// or on its points (BN254 coordinates, zero-extended, are not BLS12-381 curve points).
TEST(SnarkjsVectors, OtherCurvesKeyIsRejected) {
  if (vectors().empty()) GTEST_SKIP() << kNoVectors;
  std::map<std::string, const Vector*> by_name;
  for (const auto& v : vectors()) by_name[v.name] = &v;
  int pairs = 0;
  for (const auto& v : vectors()) {
    const auto cut = v.name.rfind("_bn128");
    if (cut == std::string::npos) continue;
    const auto it = by_name.find(v.name.substr(0, cut) + "_bls12381");
    if (it == by_name.end()) continue;
    const Vector& bn = v;
    const Vector& bls = *it->second;
    ++pairs;
    EXPECT_EQ(groth16::verify_snarkjs(bls.vk, bn.publics, bn.proof).status, VerifyStatus::curve_mismatch);
    EXPECT_EQ(groth16::verify_snarkjs(bn.vk, bls.publics, bls.proof).status, VerifyStatus::curve_mismatch);

    Groth16Proof bn_as_bls = bn.proof;
    bn_as_bls.curve = Curve::bls12_381;
    for (ByteVec* c : {&bn_as_bls.a.x, &bn_as_bls.a.y, &bn_as_bls.b.x_c0, &bn_as_bls.b.x_c1, &bn_as_bls.b.y_c0,
                       &bn_as_bls.b.y_c1, &bn_as_bls.c.x, &bn_as_bls.c.y})
      c->resize(bls12_381::Fq::kBytes);  // zero-extend: the same integers, now as BLS12-381 Fq
    const auto r1 = groth16::verify_snarkjs(bls.vk, bls.publics, bn_as_bls);
    EXPECT_EQ(r1.status, VerifyStatus::not_on_curve) << r1.message();

    Groth16Proof bls_as_bn = bls.proof;
    bls_as_bn.curve = Curve::bn254;
    const auto r2 = groth16::verify_snarkjs(bn.vk, bn.publics, bls_as_bn);
    EXPECT_EQ(r2.status, VerifyStatus::malformed_encoding) << r2.message();
  }
  EXPECT_GT(pairs, 0) << "no circuit has vectors for both curves";
}

// snarkjs stores e(α₁, β₂) as vk_alphabeta_12, computed by ffjavascript, whose final
// exponentiation is a fixed multiple of ours (pairing_test.cpp): 2x(6x² + 3x + 1) for BN254, 3 for
// BLS12-381. A check of our pairing against snarkjs on keys it generated.
template <PairingEngine E>
void expect_alphabeta(const Vector& v, const BigInt<4>& multiple) {
  using Fq2 = typename E::Fq2;
  using Fq = typename E::Fq;
  const JsonValue root = parse_json(v.vkey_text, "vkey.json");
  const auto& ab = root.find("vk_alphabeta_12")->as_array();
  typename E::Fq12 expected;
  const auto fq2 = [&](int half, int i) {
    const auto& c = ab[half].as_array()[i].as_array();
    return Fq2{test::fe<Fq>(c[0].as_string()), test::fe<Fq>(c[1].as_string())};
  };
  expected.c0 = {fq2(0, 0), fq2(0, 1), fq2(0, 2)};
  expected.c1 = {fq2(1, 0), fq2(1, 1), fq2(1, 2)};
  const auto to_point1 = [](const G1Affine& p) {
    return Affine<typename E::G1>::from_xy(test::fe<Fq>(le_to_decimal(p.x)), test::fe<Fq>(le_to_decimal(p.y)));
  };
  const auto to_point2 = [](const G2Affine& p) {
    return Affine<typename E::G2>::from_xy(
        Fq2{test::fe<Fq>(le_to_decimal(p.x_c0)), test::fe<Fq>(le_to_decimal(p.x_c1))},
        Fq2{test::fe<Fq>(le_to_decimal(p.y_c0)), test::fe<Fq>(le_to_decimal(p.y_c1))});
  };
  const auto e = pairing<E>(to_point1(v.vk.alpha1), to_point2(v.vk.beta2));
  EXPECT_EQ(e.cyclotomic_pow(multiple), expected) << v.name;
}

TEST(SnarkjsVectors, AlphaBetaMatchesSnarkjs) {
  if (vectors().empty()) GTEST_SKIP() << kNoVectors;
  const std::uint64_t x = bn254::kSeed.limbs[0];
  BigInt<4> bn_multiple = BigInt<4>::from_u64(x);
  bn_multiple.mul_add_small(6, 3);      // 6x + 3
  bn_multiple.mul_add_small(x, 1);      // 6x² + 3x + 1
  bn_multiple.mul_add_small(2 * x, 0);  // 2x(6x² + 3x + 1)
  for (const auto& v : vectors()) {
    if (v.vk.curve == Curve::bn254) expect_alphabeta<bn254::Engine>(v, bn_multiple);
    else expect_alphabeta<bls12_381::Engine>(v, BigInt<4>::from_u64(3));
  }
}

}  // namespace
}  // namespace zkp
