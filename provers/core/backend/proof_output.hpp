// ProofOutput<E>: what every Groth16 key does at the ABI with a finished proof, whatever its
// format (zkey or bellperson): check the caller's buffers (check), self-check and encode the
// proof and its public inputs (write), and verify a proof handed back (verify). It needs only
// the key's verifying half, its public-input count and its name.
#pragma once

#include <zkpipe/sdk/prover.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend/errors.hpp"
#include "core/groth16/proof_codec.hpp"
#include "core/groth16/prover.hpp"
#include "core/pairing/verify.hpp"

namespace zkp::backend {

template <PairingEngine E>
class ProofOutput {
 public:
  using Int = typename E::Fr::Int;
  static constexpr std::size_t kProofSize = groth16::kProofBytes<E>;

  // The referenced key parts outlive this object (they are members of the same key).
  ProofOutput(const groth16::PreparedVerifyingKey<E>& vk, std::uint32_t n_public, const std::string& name)
      : vk_(vk), n_public_(n_public), name_(name) {}

  std::size_t public_bytes() const { return std::size_t{n_public_} * ZKP_SCALAR_SIZE; }

  // Sets the sizes a proof needs in `out` and throws ZKP_ERR_SHORT_BUFFER unless it has them.
  void check(zkp_prove_output_t& out) const {
    const std::size_t public_size = public_bytes();
    out.proof_size = kProofSize;
    out.public_size = public_size;
    if (out.proof_capacity < kProofSize || out.public_capacity < public_size || out.proof == nullptr ||
        (out.public_inputs == nullptr && public_size != 0)) {
      throw sdk::Error(ZKP_ERR_SHORT_BUFFER, "prove_finish needs " + std::to_string(kProofSize) + " proof bytes and " +
                                                 std::to_string(public_size) + " public-input bytes; the output has " +
                                                 std::to_string(out.proof_capacity) + " and " +
                                                 std::to_string(out.public_capacity));
    }
  }

  // With `self_check`, verifies `proof` against the public inputs (variables 1..n_public of
  // `variables`) and throws ZKP_ERR_UNSATISFIED_WITNESS if it fails (`from` names where it was
  // made: "" or " from device 0 (...)"); then writes proof and public inputs into `out`, which
  // check() has checked, and says in out.flags whether the proof was verified
  // (ZKP_PROVE_OUTPUT_VERIFIED), so the host's self-check does not repeat it.
  void write(const groth16::Proof<E>& proof, std::span<const Int> variables, bool self_check, std::string_view from,
             zkp_prove_output_t& out) const {
    if (self_check) {
      const groth16::VerifyResult v = groth16::verify<E>(vk_, variables.subspan(1, n_public_), proof);
      if (!v.ok()) {
        // Which of the two is wrong the proof cannot tell: a witness that does not satisfy the
        // circuit and a corrupted key (proving points that do not match its verifying key, yet
        // every one on the curve) fail the same way. The r1cs check (prover.r1cs) tells them apart.
        throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS,
                         "the proof" + std::string(from) + " does not verify (" + v.message() +
                             "): the key or the witness is wrong: either the witness does not satisfy the circuit of " +
                             name_ + " or the key is corrupted (give the circuit's r1cs, prover.r1cs, to check the "
                                     "witness alone)");
      }
    }
    groth16::write_proof<E>(proof, std::span<std::uint8_t, kProofSize>(out.proof, kProofSize));
    groth16::write_public_inputs<Int>(variables, n_public_, {out.public_inputs, public_bytes()});
    // The host does not verify a proof again that its prover verified (one owner of the check).
    sdk::set_output_flags(out, self_check ? ZKP_PROVE_OUTPUT_VERIFIED : 0u);
  }

  bool verify(std::span<const uint8_t> proof, std::span<const uint8_t> public_inputs) const {
    if (proof.size() != kProofSize) {
      throw bad_input("verify: proof is " + std::to_string(proof.size()) + " bytes, a " + E::kName + " proof is " +
                      std::to_string(kProofSize));
    }
    if (public_inputs.size() != public_bytes()) {
      throw bad_input("verify: " + std::to_string(public_inputs.size()) + " bytes of public inputs, the key has " +
                      std::to_string(n_public_) + " x " + std::to_string(ZKP_SCALAR_SIZE));
    }
    const auto p = groth16::read_proof<E>(std::span<const uint8_t, kProofSize>(proof.data(), kProofSize));
    if (!p) return false;  // a coordinate ≥ q or a point off its curve: not a valid proof
    std::vector<Int> publics(n_public_);
    for (std::size_t i = 0; i < publics.size(); ++i) {
      publics[i] = Int::from_le_bytes(public_inputs.subspan(i * ZKP_SCALAR_SIZE).template first<sizeof(Int)>());
    }
    return groth16::verify<E>(vk_, std::span<const Int>(publics), *p).ok();
  }

 private:
  const groth16::PreparedVerifyingKey<E>& vk_;
  std::uint32_t n_public_;
  const std::string& name_;
};

}  // namespace zkp::backend
