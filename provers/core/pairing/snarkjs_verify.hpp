// Groth16 verification of snarkjs's verification_key.json, public.json and proof.json, as
// provers/core/formats reads them (groth16_json.hpp: curve-tagged structs of little-endian
// standard-form bytes). This file only decodes those bytes into field elements and points and
// dispatches on the curve; the checks and the pairing equation are verify.hpp's.
//
// Beyond verify.hpp's statuses it reports curve_mismatch (the key and the proof name different
// curves) and malformed_encoding (a coordinate or input whose byte length is not the curve's
// n8q / n8r, or whose value is not below its modulus).
#pragma once

#include <span>

#include "core/formats/bytes.hpp"
#include "core/formats/groth16_json.hpp"
#include "core/pairing/verify.hpp"

namespace zkp::groth16 {

// `publics` as read_public_json returns them (n8r bytes each), for the key's curve.
VerifyResult verify_snarkjs(const VerificationKey& vk, std::span<const ByteVec> publics, const Groth16Proof& proof);

}  // namespace zkp::groth16
