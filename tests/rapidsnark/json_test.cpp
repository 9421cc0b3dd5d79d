// rapidsnark_json (host/services): the edges the end-to-end tests do not reach. The layout of
// real proofs is judged by rapidsnark_cli.sh against an independent serialiser (python's
// json.dumps as nlohmann's dump() writes); here: [] for no signals (not rapidsnark's "null", which snarkjs cannot read), the capacities are the
// length of the widest proof, infinity, and a wrong-sized proof refused.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "core/formats/curve.hpp"
#include "core/formats/error.hpp"
#include "core/formats/groth16_json.hpp"
#include "core/formats/proof_bytes.hpp"
#include "services/rapidsnark_json.hpp"

namespace zkp::rapidsnark {
namespace {

ByteVec scalar(unsigned value) {
  ByteVec s(32, std::byte{0});
  s[0] = static_cast<std::byte>(value & 0xff);
  s[1] = static_cast<std::byte>(value >> 8);
  return s;
}

// A proof whose every coordinate is q - 1, the widest a coordinate can be.
ByteVec widest_proof(Curve curve) {
  const CurveInfo& c = curve_info(curve);
  ByteVec q_minus_1(c.q.begin(), c.q.end());
  q_minus_1[0] = static_cast<std::byte>(static_cast<unsigned>(q_minus_1[0]) - 1);  // q is odd
  ByteVec proof;
  for (int i = 0; i < 8; ++i) proof.insert(proof.end(), q_minus_1.begin(), q_minus_1.end());
  return proof;
}

TEST(RapidsnarkJson, PublicSignalsAreCompactAndNoneIsAnEmptyArray) {
  const std::vector<ByteVec> two{scalar(1), scalar(258)};
  EXPECT_EQ(public_json(two), R"(["1","258"])");
  // A circuit without public signals: an empty array, as snarkjs writes and reads it (issue 39:
  // "null" made `snarkjs groth16 verify` fail), from both overloads.
  EXPECT_EQ(public_json(std::vector<ByteVec>{}), "[]");
  EXPECT_EQ(public_json(ByteView{}, 32), "[]");
  EXPECT_EQ(read_public_json(public_json(std::vector<ByteVec>{}), "public", Curve::bn254).size(), 0u);
  EXPECT_LE(public_json(std::vector<ByteVec>{}).size() + 1, public_capacity(0));
  EXPECT_EQ(public_capacity(0), 4u);
  EXPECT_EQ(public_capacity(1), 86u);  // rapidsnark's test_public_size on its own testdata
}

TEST(RapidsnarkJson, ProofCapacityIsTheWidestProofPlusItsNul) {
  for (const Curve curve : {Curve::bn254, Curve::bls12_381}) {
    const std::string widest = proof_json(curve, widest_proof(curve));
    EXPECT_EQ(widest.size() + 1, proof_capacity(curve)) << curve_info(curve).name;
    EXPECT_EQ(widest.find(' '), std::string::npos);
    EXPECT_EQ(widest.find("curve"), std::string::npos);
  }
  EXPECT_LT(proof_capacity(Curve::bn254), proof_capacity(Curve::bls12_381));
}

TEST(RapidsnarkJson, InfinityIsSnarkjsInfinity) {
  const ByteVec zeros(proof_byte_size(Curve::bn254), std::byte{0});
  EXPECT_EQ(proof_json(Curve::bn254, zeros),
            R"({"pi_a":["0","1","0"],"pi_b":[["0","0"],["1","0"],["0","0"]],"pi_c":["0","1","0"],"protocol":"groth16"})");
}

TEST(RapidsnarkJson, AProofOfTheWrongSizeIsRefused) {
  const ByteVec short_proof(proof_byte_size(Curve::bls12_381) - 1, std::byte{0});
  EXPECT_THROW(proof_json(Curve::bls12_381, short_proof), FormatError);
}

}  // namespace
}  // namespace zkp::rapidsnark
