// Groth16 verification: messages, and the one instantiation per curve (declared extern in verify.hpp).
#include "core/pairing/verify.hpp"

namespace zkp::groth16 {

const char* to_string(VerifyStatus s) {
  switch (s) {
    case VerifyStatus::ok: return "ok";
    case VerifyStatus::wrong_public_count: return "number of public inputs does not match the verifying key";
    case VerifyStatus::public_input_out_of_range: return "public input not below the scalar field modulus r";
    case VerifyStatus::not_on_curve: return "point not on the curve";
    case VerifyStatus::not_in_subgroup: return "point not in the prime-order subgroup";
    case VerifyStatus::pairing_check_failed: return "pairing check failed: e(-A, B)·e(IC, gamma)·e(C, delta)·e(alpha, beta) != 1";
    case VerifyStatus::curve_mismatch: return "proof and verifying key are for different curves";
    case VerifyStatus::malformed_encoding: return "field element of the wrong size or not below its modulus";
  }
  return "unknown verify status";
}

std::string VerifyResult::message() const {
  if (where.empty()) return to_string(status);
  return where + ": " + to_string(status);
}

template VerifyResult check_verifying_key<bn254::Engine>(const VerifyingKey<bn254::Engine>&);
template VerifyResult prepare<bn254::Engine>(const VerifyingKey<bn254::Engine>&, PreparedVerifyingKey<bn254::Engine>&);
template VerifyResult verify<bn254::Engine>(const PreparedVerifyingKey<bn254::Engine>&,
                                            std::span<const PublicInput<bn254::Engine>>, const Proof<bn254::Engine>&);
template VerifyResult verify<bn254::Engine>(const VerifyingKey<bn254::Engine>&,
                                            std::span<const PublicInput<bn254::Engine>>, const Proof<bn254::Engine>&);
template VerifyResult check_verifying_key<bls12_381::Engine>(const VerifyingKey<bls12_381::Engine>&);
template VerifyResult prepare<bls12_381::Engine>(const VerifyingKey<bls12_381::Engine>&,
                                                 PreparedVerifyingKey<bls12_381::Engine>&);
template VerifyResult verify<bls12_381::Engine>(const PreparedVerifyingKey<bls12_381::Engine>&,
                                                std::span<const PublicInput<bls12_381::Engine>>,
                                                const Proof<bls12_381::Engine>&);
template VerifyResult verify<bls12_381::Engine>(const VerifyingKey<bls12_381::Engine>&,
                                                std::span<const PublicInput<bls12_381::Engine>>,
                                                const Proof<bls12_381::Engine>&);

}  // namespace zkp::groth16
