// The one completion -> snarkjs files encoder (host/services/snarkjs_result.hpp): snarkjs's own
// proof.json and public.json come back byte for byte from the ABI's bytes, on both curves; a
// failure, a simulation and bytes of the wrong length are told apart.
#include <gtest/gtest.h>

#include <zkpipe/sdk/error.hpp>

#include "core/formats/groth16_json.hpp"
#include "core/formats/proof_bytes.hpp"
#include "services/snarkjs_result.hpp"
#include "vectors.hpp"

#include <string>
#include <vector>

namespace {

using namespace zkp;

struct Encoded {
  ByteVec proof;
  ByteVec publics;
};

Encoded encode(const std::filesystem::path& dir, Curve curve) {
  Encoded e;
  e.proof = proof_to_bytes(read_proof_json(test::read_text(dir / "proof.json"), "proof.json"));
  for (const ByteVec& s : read_public_json(test::read_text(dir / "public.json"), "public.json", curve)) {
    e.publics.insert(e.publics.end(), s.begin(), s.end());
  }
  return e;
}

zkp_completion_t completion(const Encoded& e, zkp_curve_t curve) {
  zkp_completion_t c{};
  c.status = ZKP_OK;
  c.curve = curve;
  c.proof = reinterpret_cast<const uint8_t*>(e.proof.data());
  c.proof_size = e.proof.size();
  c.public_inputs = reinterpret_cast<const uint8_t*>(e.publics.data());
  c.public_size = e.publics.size();
  return c;
}

TEST(SnarkjsResult, GivesSnarkjsFilesBackByteForByte) {
  const std::pair<const char*, zkp_curve_t> cases[] = {{"many_public_bn128", ZKP_CURVE_BN254},
                                                       {"many_public_bls12381", ZKP_CURVE_BLS12_381}};
  for (const auto& [name, curve] : cases) {
    SCOPED_TRACE(name);
    const std::filesystem::path dir = std::filesystem::path(ZKPIPE_SOURCE_DIR) / "tests/vectors/data" / name;
    const Encoded e = encode(dir, curve == ZKP_CURVE_BN254 ? Curve::bn254 : Curve::bls12_381);
    const std::optional<services::SnarkjsFiles> files = services::snarkjs_files(completion(e, curve));
    ASSERT_TRUE(files.has_value());
    EXPECT_EQ(files->proof_json, test::read_text(dir / "proof.json"));
    EXPECT_EQ(files->public_json, test::read_text(dir / "public.json"));
  }
}

TEST(SnarkjsResult, NothingToWriteForAFailureOrASimulation) {
  const std::filesystem::path dir = std::filesystem::path(ZKPIPE_SOURCE_DIR) / "tests/vectors/data/chain_bn128";
  const Encoded e = encode(dir, Curve::bn254);
  zkp_completion_t failed = completion(e, ZKP_CURVE_BN254);
  failed.status = ZKP_ERR_BAD_INPUT;
  EXPECT_FALSE(services::snarkjs_files(failed).has_value());
  zkp_completion_t simulated = completion(e, ZKP_CURVE_UNKNOWN);
  EXPECT_FALSE(services::snarkjs_files(simulated).has_value());
  zkp_completion_t no_bytes = completion(e, ZKP_CURVE_BN254);
  no_bytes.proof = nullptr;
  EXPECT_FALSE(services::snarkjs_files(no_bytes).has_value());
}

TEST(SnarkjsResult, ProofBytesOfTheWrongCurveAreAnInternalError) {
  const std::filesystem::path dir = std::filesystem::path(ZKPIPE_SOURCE_DIR) / "tests/vectors/data/chain_bn128";
  const Encoded e = encode(dir, Curve::bn254);
  try {
    (void)services::snarkjs_files(completion(e, ZKP_CURVE_BLS12_381));  // 256 bytes, not 384
    FAIL() << "a BN254 proof read as a BLS12-381 one was accepted";
  } catch (const sdk::Error& err) {
    EXPECT_EQ(err.status(), ZKP_ERR_INTERNAL);
    EXPECT_NE(std::string(err.what()).find("do not convert to snarkjs JSON"), std::string::npos) << err.what();
  }
}

TEST(SnarkjsResult, PublicScalarsSplitWholeScalarsOnly) {
  std::vector<uint8_t> bytes(2 * ZKP_SCALAR_SIZE + 5);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i);
  const std::vector<ByteVec> scalars = services::public_scalars(bytes.data(), bytes.size());
  ASSERT_EQ(scalars.size(), 2u);
  EXPECT_EQ(scalars[1].front(), std::byte{ZKP_SCALAR_SIZE});
  EXPECT_EQ(scalars[1].size(), size_t{ZKP_SCALAR_SIZE});
  EXPECT_TRUE(services::public_scalars(nullptr, 64).empty());
}

}  // namespace
