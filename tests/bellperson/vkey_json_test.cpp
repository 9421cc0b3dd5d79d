// verification_key.json from a bellperson verifying key (core/bellperson/vkey_json.hpp): for the
// committed snarkjs vectors (tests/vectors/data/*_bls12381), the key's points written back must
// be byte for byte the file `snarkjs zkey export verificationkey` wrote, e(α₁, β₂) included,
// and read_vkey_json must read the text back to the same points. And a bellperson proof, through
// its 192 bytes and then proof.json, verifies against that JSON key.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/bellperson/vkey_json.hpp"
#include "core/formats/decimal.hpp"
#include "core/formats/groth16_json.hpp"
#include "core/pairing/bls12_381.hpp"
#include "core/pairing/snarkjs_verify.hpp"
#include "support.hpp"

namespace zkp::bellperson::test {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

Fq fq(const ByteVec& le) {
  const auto v = Fq::from_bytes(
      std::span<const std::uint8_t, Fq::kBytes>(reinterpret_cast<const std::uint8_t*>(le.data()), Fq::kBytes));
  if (!v) throw std::invalid_argument("coordinate not below q");
  return *v;
}
Affine<G1> point(const zkp::G1Affine& p) {
  return p.infinity ? Affine<G1>::identity() : Affine<G1>::from_xy(fq(p.x), fq(p.y));
}
Affine<G2> point(const zkp::G2Affine& p) {
  return p.infinity ? Affine<G2>::identity()
                    : Affine<G2>::from_xy(Fq2{fq(p.x_c0), fq(p.x_c1)}, Fq2{fq(p.y_c0), fq(p.y_c1)});
}

// The points a bellperson file would hold for this key; beta_g1 and delta_g1 are not in the JSON.
VerifyingPoints points_of(const VerificationKey& vk) {
  VerifyingPoints v;
  v.alpha_g1 = point(vk.alpha1);
  v.beta_g1 = Affine<G1>::generator();
  v.delta_g1 = Affine<G1>::generator();
  v.beta_g2 = point(vk.beta2);
  v.gamma_g2 = point(vk.gamma2);
  v.delta_g2 = point(vk.delta2);
  for (const auto& p : vk.ic) v.ic.push_back(point(p));
  return v;
}

std::vector<fs::path> bls_vectors() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(ZKPIPE_VECTORS_DIR)) {
    if (e.path().filename().string().ends_with("_bls12381") && fs::exists(e.path() / "vkey.json"))
      out.push_back(e.path() / "vkey.json");
  }
  return out;
}

TEST(VkeyJson, SameBytesAsSnarkjsForTheCommittedVectors) {
  const auto files = bls_vectors();
  ASSERT_FALSE(files.empty()) << "no *_bls12381/vkey.json under " << ZKPIPE_VECTORS_DIR;
  for (const auto& path : files) {
    const std::string text = slurp(path);
    const VerificationKey vk = read_vkey_json(text, path.string());
    const std::string written = write_vkey_json(points_of(vk));
    EXPECT_EQ(written, text) << path;
  }
}

TEST(VkeyJson, ReadsBackToThePoints) {
  const auto files = bls_vectors();
  ASSERT_FALSE(files.empty());
  const VerificationKey vk = read_vkey_json(slurp(files[0]), files[0].string());
  const VerifyingPoints v = points_of(vk);
  const VerificationKey back = read_vkey_json(write_vkey_json(v), "written.json");
  EXPECT_EQ(back.curve, Curve::bls12_381);
  EXPECT_EQ(back.n_public, v.ic.size() - 1);
  EXPECT_EQ(point(back.alpha1), v.alpha_g1);
  EXPECT_EQ(point(back.beta2), v.beta_g2);
  EXPECT_EQ(point(back.gamma2), v.gamma_g2);
  EXPECT_EQ(point(back.delta2), v.delta_g2);
  ASSERT_EQ(back.ic.size(), v.ic.size());
  for (std::size_t i = 0; i < v.ic.size(); ++i) EXPECT_EQ(point(back.ic[i]), v.ic[i]) << i;
}

TEST(VkeyJson, AlphaBetaIsTheCubeOfThePairing) {
  // Independent of snarkjs's files: α = [2]G1, β = [3]G2 gives e(G1, G2)^6, cubed e(G1, G2)^18.
  VerifyingPoints v;
  v.alpha_g1 = multiples<G1>(1, 2)[0];
  v.beta_g2 = multiples<G2>(1, 3)[0];
  v.ic = {Affine<G1>::generator()};
  const auto ab = snarkjs_alphabeta(v);
  const auto e = pairing<bls12_381::Engine>(Affine<G1>::generator(), Affine<G2>::generator());
  const auto want = e.cyclotomic_pow(BigInt<1>::from_u64(18));
  EXPECT_EQ(le_to_decimal(ab[0]), want.c0.c0.c0.to_decimal());
  EXPECT_EQ(le_to_decimal(ab[3]), want.c0.c1.c1.to_decimal());
  EXPECT_EQ(le_to_decimal(ab[11]), want.c1.c2.c1.to_decimal());
}

TEST(VkeyJson, InfinityAndCounts) {
  VerifyingPoints v;
  v.alpha_g1 = Affine<G1>::generator();
  v.beta_g2 = Affine<G2>::generator();
  v.gamma_g2 = Affine<G2>::generator();
  v.delta_g2 = Affine<G2>::identity();
  v.ic = {Affine<G1>::generator(), Affine<G1>::identity(), Affine<G1>::generator()};
  const VerificationKey k = to_snarkjs_vkey(v);
  EXPECT_EQ(k.n_public, 2u);
  EXPECT_TRUE(k.ic[1].infinity);
  EXPECT_TRUE(k.delta2.infinity);
  const std::string text = write_vkey_json(v);
  EXPECT_NE(text.find("\"nPublic\": 2,"), std::string::npos);
  const VerificationKey back = read_vkey_json(text, "inf.json");
  EXPECT_TRUE(back.ic[1].infinity);
  EXPECT_TRUE(back.delta2.infinity);
  v.ic.clear();
  EXPECT_THROW(to_snarkjs_vkey(v), std::invalid_argument);
  VerificationKey bad = k;
  bad.n_public = 5;
  EXPECT_THROW(zkp::write_vkey_json(bad, snarkjs_alphabeta(v)), std::invalid_argument);
}

ByteVec scalar_bytes(const bls12_381::Fr& v) {
  ByteVec out(bls12_381::Fr::kBytes);
  v.to_bytes(std::span<std::uint8_t, bls12_381::Fr::kBytes>(reinterpret_cast<std::uint8_t*>(out.data()), out.size()));
  return out;
}

// A key with a known trapdoor, and a proof made from it. In the exponent, bellperson's check
// e(A, B) = e(α, β)·e(Σ xᵢ·icᵢ, γ)·e(C, δ) reads a·b = α·β + (Σ xᵢ·kᵢ)·γ + c·δ for icᵢ = [kᵢ]G1,
// so c = (a·b − α·β − (Σ xᵢ·kᵢ)·γ)/δ.
TEST(VkeyJson, ABellpersonProofVerifiesThroughTheJsonFiles) {
  using bls12_381::Fr;
  const Fr alpha = Fr::from_u64(11), beta = Fr::from_u64(13), gamma = Fr::from_u64(17), delta = Fr::from_u64(19);
  const std::vector<Fr> k = {Fr::from_u64(3), Fr::from_u64(5), Fr::from_u64(7)};
  const std::vector<Fr> x = {Fr::one(), Fr::from_u64(23), Fr::from_u64(29)};  // x₀ = 1, two public inputs
  const Fr a = Fr::from_u64(31), b = Fr::from_u64(37);
  Fr ic_sum;
  for (std::size_t i = 0; i < k.size(); ++i) ic_sum += x[i] * k[i];
  const Fr c = (a * b - alpha * beta - ic_sum * gamma) * delta.inverse();
  const auto g1 = [](const Fr& s) { return (Affine<G1>::generator() * s).to_affine(); };
  const auto g2 = [](const Fr& s) { return (Affine<G2>::generator() * s).to_affine(); };

  VerifyingPoints v;
  v.alpha_g1 = g1(alpha);
  v.beta_g1 = g1(beta);
  v.delta_g1 = g1(delta);
  v.beta_g2 = g2(beta);
  v.gamma_g2 = g2(gamma);
  v.delta_g2 = g2(delta);
  for (const Fr& ki : k) v.ic.push_back(g1(ki));

  std::array<std::uint8_t, kProofBytes> bytes;
  write_proof(Proof{g1(a), g2(b), g1(c)}, bytes);
  Proof proof;
  ASSERT_TRUE(read_proof(bytes, proof).ok());

  const VerificationKey vk = read_vkey_json(write_vkey_json(v), "vkey.json");
  const Groth16Proof json_proof = read_proof_json(write_proof_json(to_snarkjs_proof(proof)), "proof.json");
  std::vector<ByteVec> publics = {scalar_bytes(x[1]), scalar_bytes(x[2])};
  publics = read_public_json(write_public_json(publics), "public.json", Curve::bls12_381);
  const auto ok = groth16::verify_snarkjs(vk, publics, json_proof);
  EXPECT_TRUE(ok.ok()) << ok.message();

  publics[1] = scalar_bytes(x[2] + Fr::one());
  EXPECT_EQ(groth16::verify_snarkjs(vk, publics, json_proof).status, groth16::VerifyStatus::pairing_check_failed);
}

}  // namespace
}  // namespace zkp::bellperson::test
