// The end-to-end check that the generator's files are working Groth16 keys: a proof made from the
// file and the committed snarkjs witness by the reference prover (reference_prover.hpp) passes
// zkpipe's pairing verifier with the file's own vk, and fails with a changed public input.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/formats/wtns.hpp"
#include "core/pairing/verify.hpp"
#include "reference_prover.hpp"

namespace {

using namespace zkp;
using namespace zkp::bellperson_setup;
using namespace zkp::bellperson_setup::test;
using Engine = bls12_381::Engine;

std::vector<Fr> witness(const std::string& name) {
  const Wtns wtns = read_wtns(ByteSource::from_file(std::filesystem::path(ZKPIPE_SOURCE_DIR) / "tests/vectors/data" /
                                                    name / "witness.wtns"));
  std::vector<Fr> w;
  for (std::uint32_t i = 0; i < wtns.size(); ++i)
    w.push_back(*Fr::from_bytes(std::span<const std::uint8_t, 32>(
        reinterpret_cast<const std::uint8_t*>(wtns.value(i).data()), 32)));
  return w;
}

groth16::VerifyResult verify(const ParsedParams& p, const std::vector<Fr>& publics, const ReferenceProof& proof) {
  const groth16::VerifyingKey<Engine> vk{p.alpha_g1, p.beta_g2, p.gamma_g2, p.delta_g2, p.ic};
  std::vector<groth16::PublicInput<Engine>> in;
  for (const Fr& x : publics) in.push_back(x.to_bigint());
  return groth16::verify<Engine>(vk, in, {proof.a, proof.b, proof.c});
}

class ProveVerify : public ::testing::TestWithParam<const char*> {};

TEST_P(ProveVerify, ProofFromTheFileVerifiesWithItsVkAndNotWithAnotherInput) {
  const R1cs cs = committed(GetParam());
  const std::vector<Fr> w = witness(GetParam());
  ASSERT_EQ(w.size(), cs.header().n_wires);
  const ParsedParams p = parse(generate(cs, 21));
  std::mt19937_64 rng(22);
  const Fr r = Fr::random(rng), s = Fr::random(rng);
  const ReferenceProof proof = reference_prove(cs, p, w, r, s);
  std::vector<Fr> publics(w.begin() + 1, w.begin() + static_cast<std::ptrdiff_t>(p.ic.size()));
  const groth16::VerifyResult ok = verify(p, publics, proof);
  EXPECT_TRUE(ok.ok()) << ok.message();
  publics.back() += Fr::one();
  EXPECT_EQ(verify(p, publics, proof).status, groth16::VerifyStatus::pairing_check_failed);
}

INSTANTIATE_TEST_SUITE_P(Bls12381, ProveVerify,
                         ::testing::Values("chain_bls12381", "poseidon_bls12381", "many_public_bls12381"));

// Parameters of one seed do not verify a proof made from another seed's file.
TEST(ProveVerifyMismatch, ProofFromOneSeedFailsAnotherSeedsVk) {
  const R1cs cs = committed("many_public_bls12381");
  const std::vector<Fr> w = witness("many_public_bls12381");
  const ParsedParams p1 = parse(generate(cs, 1)), p2 = parse(generate(cs, 2));
  const ReferenceProof proof = reference_prove(cs, p1, w, Fr::from_u64(3), Fr::from_u64(4));
  const std::vector<Fr> publics(w.begin() + 1, w.begin() + static_cast<std::ptrdiff_t>(p1.ic.size()));
  EXPECT_TRUE(verify(p1, publics, proof).ok());
  EXPECT_FALSE(verify(p2, publics, proof).ok());
}

}  // namespace
