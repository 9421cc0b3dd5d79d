// A bellperson verifying key as snarkjs's verification_key.json (curve "bls12381"), and its
// proofs as proof.json, so that `snarkjs groth16 verify` and every snarkjs-compatible verifier
// can check bellperson proofs. beta_g1 and delta_g1 have no place there and are dropped.
#pragma once

#include <string>

#include "core/bellperson/params.hpp"
#include "core/bellperson/proof.hpp"
#include "core/formats/groth16_json.hpp"

namespace zkp::bellperson {

// The points as formats' curve-tagged bytes: nPublic = ic.size() − 1 (ic must not be empty).
VerificationKey to_snarkjs_vkey(const VerifyingPoints& vk);

// e(α₁, β₂) as snarkjs computes it: ffjavascript's final exponentiation for BLS12-381 is the
// cube of the standard one (checked on snarkjs's own keys by tests/core_pairing's
// AlphaBetaMatchesSnarkjs and by tests/bellperson against the committed vkey.json files).
AlphaBeta12 snarkjs_alphabeta(const VerifyingPoints& vk);

// The file's text, byte for byte what `snarkjs zkey export verificationkey` writes for a zkey
// holding the same points.
std::string write_vkey_json(const VerifyingPoints& vk);

// A bellperson proof (proof.hpp) as proof.json's structs, for write_proof_json: bellperson's
// check e(A, B) = e(α, β)·e(Σ xᵢ·icᵢ, γ)·e(C, δ) is snarkjs's, so with the key above
// `snarkjs groth16 verify` accepts exactly the proofs bellperson does.
Groth16Proof to_snarkjs_proof(const Proof& proof);

}  // namespace zkp::bellperson
