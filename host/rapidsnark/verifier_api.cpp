// rapidsnark's groth16_verify (include/verifier.h) with zkpipe's JSON readers and pairing.
// Malformed JSON is VERIFIER_ERROR with the reader's message (the file's part and what was
// expected); a well-formed proof that fails a point check or the equation is
// VERIFIER_INVALID_PROOF.
#include <verifier.h>

#include <string_view>
#include <vector>

#include "core/formats/error.hpp"
#include "core/formats/groth16_json.hpp"
#include "core/pairing/snarkjs_verify.hpp"
#include "error_message.hpp"

namespace {

using zkp::rapidsnark::Failure;

// rapidsnark's own prover writes "null" for a key without public signals; this library's writes
// [] (rapidsnark_json.hpp). Both are read as none.
std::vector<zkp::ByteVec> read_inputs(std::string_view text, zkp::Curve curve) {
  if (text == "null") return {};
  return zkp::read_public_json(text, "inputs", curve);
}

}  // namespace

extern "C" ZKP_RAPIDSNARK_EXPORT int groth16_verify(const char* proof, const char* inputs, const char* verification_key,
                              char* error_msg, unsigned long error_msg_maxsize) {
  return zkp::rapidsnark::guard(VERIFIER_ERROR, error_msg, error_msg_maxsize, [&] {
    if (proof == nullptr) throw Failure(VERIFIER_ERROR, "Null proof");
    if (inputs == nullptr) throw Failure(VERIFIER_ERROR, "Null inputs");
    if (verification_key == nullptr) throw Failure(VERIFIER_ERROR, "Null verification key");
    try {
      const zkp::VerificationKey vk = zkp::read_vkey_json(verification_key, "verification_key");
      zkp::JsonReadOptions options;
      options.curve_if_absent = vk.curve;
      const zkp::Groth16Proof p = zkp::read_proof_json(proof, "proof", options);
      // On the proof's curve, so that a proof of the other curve is VERIFIER_INVALID_PROOF.
      const std::vector<zkp::ByteVec> publics = read_inputs(inputs, p.curve);
      return zkp::groth16::verify_snarkjs(vk, publics, p).ok() ? VERIFIER_VALID_PROOF : VERIFIER_INVALID_PROOF;
    } catch (const zkp::FormatError& e) {
      throw Failure(VERIFIER_ERROR, e.what());
    }
  });
}
