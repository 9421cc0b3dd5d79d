// A loaded proving key as every backend sees it at the ABI: Key, the curve-independent face
// (key_info, synthesize, verify), and CurveKey<E>, which also checks a proof's input
// (take_input) and writes its output (check_output, write_output). A backend keeps one
// CurveKey<E> per loaded key and adds only its own device work between take_input and
// write_output; load_key builds the CurveKey of the zkey's curve.
//
//   key_load     load_key: read_key_files (zkey, point checks, r1cs), then CurveKey<E>
//   synthesize   the witness (.wtns file or buffer, or a raw assignment) checked for curve,
//                count and ranges (ZKP_ERR_BAD_INPUT), the r1cs check if configured
//                (ZKP_ERR_UNSATISFIED_WITNESS naming the constraint), a = A·w, b = B·w
//   prove_start  take_input: this key's synthesis, or the caller's a, b, c and assignment
//                (ranges, lengths, w[0] = 1, a∘b = c row by row); r, s from the caller or
//                the OS CSPRNG
//   prove_finish check_output (ZKP_ERR_SHORT_BUFFER with the sizes needed), then the
//                backend's proof, then write_output: the self-check (a proof that fails is an
//                unsatisfied witness, never returned) and the encoding
#pragma once

#include <zkpipe/sdk/prover.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend/errors.hpp"
#include "core/backend/key_files.hpp"
#include "core/backend/proof_input.hpp"
#include "core/formats/r1cs.hpp"
#include "core/formats/wtns.hpp"
#include "core/formats/zkey.hpp"
#include "core/groth16/proof_codec.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/r1cs_check.hpp"
#include "core/groth16/randomness.hpp"
#include "core/groth16/witness.hpp"
#include "core/pairing/bls12_381.hpp"
#include "core/pairing/bn254.hpp"
#include "core/util/first_index.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::backend {

class Key {
 public:
  virtual ~Key() = default;
  virtual const std::string& name() const = 0;
  virtual void info(zkp_key_info_t& out) const = 0;
  virtual std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_witness_t& witness, ThreadPool& pool) const = 0;
  virtual bool verify(std::span<const uint8_t> proof, std::span<const uint8_t> public_inputs) const = 0;
};

namespace detail {

// `count` 32-byte standard-form scalars → field elements; BAD_INPUT naming `what` if one is ≥ r.
template <class Fr>
std::vector<Fr> read_scalars(const std::uint8_t* bytes, std::uint64_t count, const char* what) {
  if (bytes == nullptr && count != 0) throw bad_input(std::string(what) + " is NULL");
  std::vector<Fr> out(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto v = Fr::from_bytes(std::span<const std::uint8_t, Fr::kBytes>(bytes + i * Fr::kBytes, Fr::kBytes));
    if (!v) throw bad_input(std::string(what) + "[" + std::to_string(i) + "] is not below the scalar field prime");
    out[i] = *v;
  }
  return out;
}

}  // namespace detail

template <PairingEngine E>
class CurveKey final : public Key {
 public:
  using Engine = E;
  using Fr = typename E::Fr;
  using Int = typename Fr::Int;
  static constexpr std::size_t kProofSize = groth16::kProofBytes<E>;

  CurveKey(Zkey zkey, std::optional<R1cs> r1cs) : pk_(std::move(zkey)), r1cs_(std::move(r1cs)) {
    if (r1cs_) groth16::check_r1cs_matches(*r1cs_, pk_.zkey());
  }

  const groth16::ProvingKey<E>& proving_key() const { return pk_; }
  const std::string& name() const override { return pk_.name(); }
  std::size_t public_bytes() const { return std::size_t{pk_.n_public()} * ZKP_SCALAR_SIZE; }

  void info(zkp_key_info_t& out) const override {
    out.curve = groth16::curve_of<E>() == Curve::bn254 ? ZKP_CURVE_BN254 : ZKP_CURVE_BLS12_381;
    out.n_vars = pk_.n_vars();
    out.n_public = pk_.n_public();
    out.domain_size = pk_.domain_size();
    // The vectors of a synthesis are allocated at exactly these sizes, plus the object itself.
    out.synthesis_bytes = groth16::Synthesis<Fr>::bytes_for(pk_.n_vars(), pk_.domain_size()) + sizeof(SynthesisOf<E>);
    out.proof_size = static_cast<uint32_t>(kProofSize);
    out.public_size = static_cast<uint32_t>(public_bytes());
  }

  std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_witness_t& witness, ThreadPool& pool) const override {
    std::vector<Int> w = read_witness(witness);
    if (r1cs_) {
      if (const auto bad = groth16::first_unsatisfied_constraint<Fr>(*r1cs_, w, pool)) {
        throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS, "the witness does not satisfy constraint " +
                                                          std::to_string(*bad) + " of " + r1cs_->name());
      }
    }
    auto out = std::make_unique<SynthesisOf<E>>();
    out->key = this;
    out->data = groth16::synthesize<E>(pk_, std::move(w), pool);
    return out;
  }

  // The checked input of one proof (see the header comment). Throws sdk::Error.
  ProofInput<E> take_input(const zkp_prove_input_t& input, ThreadPool& pool) const {
    ProofInput<E> in;
    if (input.synthesis != nullptr) {
      in.synthesis_ = dynamic_cast<const SynthesisOf<E>*>(input.synthesis);
      if (in.synthesis_ == nullptr || in.synthesis_->key != this) {
        throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the synthesis was not made with this key");
      }
    } else {
      take_external(*input.external, in, pool);
    }
    if (input.randomness != nullptr) {
      const auto rs = detail::read_scalars<Fr>(input.randomness, 2, "randomness");
      in.r_ = rs[0];
      in.s_ = rs[1];
    } else {
      in.r_ = groth16::os_random_scalar<Fr>();
      in.s_ = groth16::os_random_scalar<Fr>();
    }
    return in;
  }

  // Sets the sizes a proof needs in `out` and throws ZKP_ERR_SHORT_BUFFER unless it has them.
  void check_output(zkp_prove_output_t& out) const {
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

  // With `self_check`, verifies `proof` against the public inputs of `in` and throws
  // ZKP_ERR_UNSATISFIED_WITNESS if it fails (`from` names where it was made, for the message:
  // "" or " from device 0 (...)"); then writes proof and public inputs into `out`, which
  // check_output has checked, and says in out.flags whether the proof was verified
  // (ZKP_PROVE_OUTPUT_VERIFIED), so the host's self-check does not repeat it.
  void write_output(const groth16::Proof<E>& proof, const ProofInput<E>& in, bool self_check, std::string_view from,
                    zkp_prove_output_t& out) const {
    const std::span<const Int> witness = in.witness();
    if (self_check) {
      const groth16::VerifyResult v = groth16::verify<E>(pk_.verifying_key(), witness.subspan(1, pk_.n_public()), proof);
      if (!v.ok()) {
        throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS, "the proof" + std::string(from) + " does not verify (" +
                                                          v.message() + "): the witness does not satisfy the circuit of " +
                                                          pk_.name());
      }
    }
    groth16::write_proof<E>(proof, std::span<std::uint8_t, kProofSize>(out.proof, kProofSize));
    groth16::write_public_inputs<Int>(witness, pk_.n_public(), {out.public_inputs, public_bytes()});
    // The host does not verify a proof again that its prover verified (one owner of the check).
    sdk::set_output_flags(out, self_check ? ZKP_PROVE_OUTPUT_VERIFIED : 0u);
  }

  bool verify(std::span<const uint8_t> proof, std::span<const uint8_t> public_inputs) const override {
    if (proof.size() != kProofSize) {
      throw bad_input("verify: proof is " + std::to_string(proof.size()) + " bytes, a " + E::kName + " proof is " +
                      std::to_string(kProofSize));
    }
    if (public_inputs.size() != public_bytes()) {
      throw bad_input("verify: " + std::to_string(public_inputs.size()) + " bytes of public inputs, the key has " +
                      std::to_string(pk_.n_public()) + " x " + std::to_string(ZKP_SCALAR_SIZE));
    }
    const auto p = groth16::read_proof<E>(std::span<const uint8_t, kProofSize>(proof.data(), kProofSize));
    if (!p) return false;  // a coordinate ≥ q or a point off its curve: not a valid proof
    std::vector<Int> publics(pk_.n_public());
    for (std::size_t i = 0; i < publics.size(); ++i) {
      publics[i] = Int::from_le_bytes(public_inputs.subspan(i * ZKP_SCALAR_SIZE).template first<sizeof(Int)>());
    }
    return groth16::verify<E>(pk_.verifying_key(), std::span<const Int>(publics), *p).ok();
  }

 private:
  // The assignment of a witness: checked for the key's curve and wire count (BAD_INPUT with
  // what differs), every value below r, w[0] = 1.
  std::vector<Int> read_witness(const zkp_witness_t& witness) const {
    switch (witness.kind) {
      case ZKP_WITNESS_WTNS_FILE:
      case ZKP_WITNESS_WTNS_BUFFER: {
        if (witness.kind == ZKP_WITNESS_WTNS_FILE && witness.path == nullptr) throw bad_input("witness path is NULL");
        if (witness.kind == ZKP_WITNESS_WTNS_BUFFER && witness.data == nullptr) throw bad_input("witness data is NULL");
        ByteSource src = witness.kind == ZKP_WITNESS_WTNS_FILE
                             ? ByteSource::from_file(witness.path)
                             : ByteSource::borrow({static_cast<const std::byte*>(witness.data), witness.size},
                                                  "witness buffer");
        const Wtns wtns = read_wtns(std::move(src));
        check_witness_matches(pk_.zkey(), wtns);
        return groth16::load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name());
      }
      case ZKP_WITNESS_ASSIGNMENT: {
        if (witness.data == nullptr) throw bad_input("assignment data is NULL");
        if (witness.size != std::size_t{pk_.n_vars()} * ZKP_SCALAR_SIZE) {
          throw bad_input("assignment is " + std::to_string(witness.size) + " bytes; the key has " +
                          std::to_string(pk_.n_vars()) + " wires x " + std::to_string(ZKP_SCALAR_SIZE));
        }
        return groth16::load_assignment<Fr>({static_cast<const std::byte*>(witness.data), witness.size}, pk_.n_vars(),
                                            "assignment");
      }
      case ZKP_WITNESS_NONE:
        throw bad_input("a Groth16 prover needs a witness (kind ZKP_WITNESS_NONE given)");
      default:
        throw bad_input("unknown witness kind " + std::to_string(witness.kind));
    }
  }

  // A caller's A·w, B·w, C·w and assignment: ranges, lengths, w[0] = 1, and a∘b = c.
  void take_external(const zkp_synthesized_t& ext, ProofInput<E>& in, ThreadPool& pool) const {
    if (ext.abc_length > pk_.domain_size()) {
      throw bad_input("abc_length " + std::to_string(ext.abc_length) + " exceeds the key's domain size " +
                      std::to_string(pk_.domain_size()));
    }
    if (ext.assignment_length != pk_.n_vars()) {
      throw bad_input("assignment_length " + std::to_string(ext.assignment_length) + ", the key has " +
                      std::to_string(pk_.n_vars()) + " wires");
    }
    if (ext.assignment == nullptr) throw bad_input("assignment is NULL");
    in.assignment_ = groth16::load_assignment<Fr>(
        {reinterpret_cast<const std::byte*>(ext.assignment), ext.assignment_length * ZKP_SCALAR_SIZE},
        ext.assignment_length, "assignment");
    in.a_ = detail::read_scalars<Fr>(ext.a, ext.abc_length, "a");
    in.b_ = detail::read_scalars<Fr>(ext.b, ext.abc_length, "b");
    in.c_ = detail::read_scalars<Fr>(ext.c, ext.abc_length, "c");
    // Here c is the caller's C·w, so a row with a·b ≠ c is a constraint the witness breaks.
    const auto bad = first_index(pool, ext.abc_length, groth16::kPointwiseGrain,
                                 [&](std::size_t i) { return in.a_[i] * in.b_[i] != in.c_[i]; });
    if (bad) {
      throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS, "a·b != c at row " + std::to_string(*bad) + " of the caller's synthesis");
    }
  }

  groth16::ProvingKey<E> pk_;
  std::optional<R1cs> r1cs_;
};

// Reads the key `source` names and returns make(std::unique_ptr<CurveKey<E>>) for its curve:
// each backend wraps the typed key in its own key type. Throws like read_key_files.
template <class Make>
auto load_key(const zkp_key_source_t& source, const KeySettings& settings, ThreadPool& pool, Make&& make) {
  KeyFiles files = read_key_files(source, settings, pool);
  if (files.zkey.header().curve == Curve::bn254) {
    return make(std::make_unique<CurveKey<bn254::Engine>>(std::move(files.zkey), std::move(files.r1cs)));
  }
  return make(std::make_unique<CurveKey<bls12_381::Engine>>(std::move(files.zkey), std::move(files.r1cs)));
}

}  // namespace zkp::backend
