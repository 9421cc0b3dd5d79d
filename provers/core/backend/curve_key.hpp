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
//   synthesize_into  the same checks and a, b, then c = a∘b and the assignment, all in
//                standard form, into the caller's buffer (zkp_prover.h's ZKP_SYNTHESIZED_INTO
//                layout): a caller synthesis that take_input reads back, so a proof of it is
//                byte for byte the proof of synthesize's (c = a∘b is what the H step forms)
//   prove_start  take_input: this key's synthesis, or the caller's a, b, c and assignment
//                (ranges, lengths, w[0] = 1, a∘b = c row by row); r, s from the caller or
//                the OS CSPRNG
//   prove_finish check_output (ZKP_ERR_SHORT_BUFFER with the sizes needed), then the
//                backend's proof, then write_output: the self-check (a proof that fails is an
//                unsatisfied witness, never returned) and the encoding
#pragma once

#include <zkpipe/sdk/prover.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/backend/errors.hpp"
#include "core/backend/external_input.hpp"
#include "core/backend/key_files.hpp"
#include "core/backend/proof_input.hpp"
#include "core/backend/proof_output.hpp"
#include "core/backend/witness_input.hpp"
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
  // zkp_prover_t.synthesize_into: the bytes it needs (key_info.synthesized_bytes), 0 for a key
  // that cannot; and the synthesis itself into `buffer`, described in `out`. Throws sdk::Error.
  virtual std::uint64_t synthesized_bytes() const { return 0; }
  virtual void synthesize_into(const zkp_witness_t&, std::span<std::uint8_t>, zkp_synthesized_t&, ThreadPool&) const {
    throw sdk::Error(ZKP_ERR_UNSUPPORTED, "key " + name() + " cannot be synthesized into caller memory: use synthesize");
  }

 protected:
  // key_info's synthesized_bytes, written only where the caller's struct has the field.
  void write_synthesized_bytes(zkp_key_info_t& out) const {
    if (sdk::covers(out.header, offsetof(zkp_key_info_t, synthesized_bytes) + sizeof out.synthesized_bytes)) {
      out.synthesized_bytes = synthesized_bytes();
    }
  }
};

template <PairingEngine E>
class CurveKey final : public Key {
 public:
  using Engine = E;
  using Proving = groth16::ProvingKey<E>;
  using Input = ProofInput<E>;
  using Fr = typename E::Fr;
  using Int = typename Fr::Int;

  CurveKey(Zkey zkey, std::optional<R1cs> r1cs, ThreadPool* pool = nullptr)
      : pk_(std::move(zkey), pool), r1cs_(std::move(r1cs)) {
    if (r1cs_) groth16::check_r1cs_matches(*r1cs_, pk_.zkey());
  }

  const groth16::ProvingKey<E>& proving_key() const { return pk_; }

  // A prover that evaluates A·w and B·w on its device (the cuda prover with synthesis=device,
  // provers/cuda/synth) makes a synthesis the witness alone (read and range-checked), and
  // key_info's synthesis_bytes say so (the host's budget admits by them). With a circuit (key
  // option r1cs) the r1cs check moves there too: the device evaluates C·w and checks a·b = c
  // row by row, so the host makes no pass over the constraints. Before the key is shared.
  void leave_ab_to_the_device() { ab_on_device_ = true; }
  bool ab_on_device() const { return ab_on_device_; }
  // The circuit (key option r1cs), or null.
  const R1cs* circuit() const { return r1cs_ ? &*r1cs_ : nullptr; }
  const std::string& name() const override { return pk_.name(); }

  void info(zkp_key_info_t& out) const override {
    out.curve = groth16::curve_of<E>() == Curve::bn254 ? ZKP_CURVE_BN254 : ZKP_CURVE_BLS12_381;
    out.n_vars = pk_.n_vars();
    out.n_public = pk_.n_public();
    out.domain_size = pk_.domain_size();
    // The vectors of a synthesis are allocated at exactly these sizes, plus the object itself.
    out.synthesis_bytes =
        groth16::Synthesis<Fr>::bytes_for(pk_.n_vars(), ab_on_device_ ? 0 : pk_.domain_size()) + sizeof(SynthesisOf<E>);
    out.proof_size = static_cast<uint32_t>(ProofOutput<E>::kProofSize);
    out.public_size = static_cast<uint32_t>(output_.public_bytes());
    write_synthesized_bytes(out);
  }

  std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_witness_t& witness, ThreadPool& pool) const override {
    std::vector<Int> w = checked_witness(witness, pool, ab_on_device_);
    auto out = std::make_unique<SynthesisOf<E>>();
    out->key = this;
    if (ab_on_device_) {
      out->data.witness = std::move(w);  // a and b stay empty: the device evaluates them
    } else {
      out->data = groth16::synthesize<E>(pk_, std::move(w), pool);
    }
    return out;
  }

  std::uint64_t synthesized_bytes() const override {
    return (3 * std::uint64_t{pk_.domain_size()} + pk_.n_vars()) * ZKP_SCALAR_SIZE;
  }

  void synthesize_into(const zkp_witness_t& witness, std::span<std::uint8_t> buffer, zkp_synthesized_t& out,
                       ThreadPool& pool) const override {
    static_assert(sizeof(Fr) == ZKP_SCALAR_SIZE && sizeof(Int) == ZKP_SCALAR_SIZE, "a scalar is 32 bytes");
    if (buffer.size() < synthesized_bytes()) {
      throw sdk::Error(ZKP_ERR_SHORT_BUFFER, "synthesize_into: the buffer is " + std::to_string(buffer.size()) +
                                                 " bytes; key " + name() + " needs " +
                                                 std::to_string(synthesized_bytes()));
    }
    if (!aligned_for<Fr>(buffer.data())) {
      throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "synthesize_into: the buffer is not 8-byte aligned");
    }
    const std::vector<Int> w = checked_witness(witness, pool);
    const std::size_t d = pk_.domain_size();
    std::uint8_t* const a = buffer.data();
    std::uint8_t* const b = a + d * ZKP_SCALAR_SIZE;
    std::uint8_t* const c = b + d * ZKP_SCALAR_SIZE;
    std::uint8_t* const assignment = c + d * ZKP_SCALAR_SIZE;
    // a and b are evaluated where they will lie, as field elements (Montgomery form), then
    // turned into standard form in place, with c beside them: no second copy of the domain.
    const std::span<Fr> fa(reinterpret_cast<Fr*>(a), d), fb(reinterpret_cast<Fr*>(b), d);
    groth16::evaluate_ab<Fr>(pk_.zkey().coefficients(), pk_.rows(), w, fa, fb, pool);
    pool.parallel_for(d, kScalarGrain, [&](std::size_t i0, std::size_t i1) {
      for (std::size_t i = i0; i < i1; ++i) {
        const Fr ai = fa[i], bi = fb[i];
        const Int values[3] = {ai.to_bigint(), bi.to_bigint(), (ai * bi).to_bigint()};
        std::memcpy(a + i * ZKP_SCALAR_SIZE, &values[0], ZKP_SCALAR_SIZE);
        std::memcpy(b + i * ZKP_SCALAR_SIZE, &values[1], ZKP_SCALAR_SIZE);
        std::memcpy(c + i * ZKP_SCALAR_SIZE, &values[2], ZKP_SCALAR_SIZE);
      }
    });
    std::memcpy(assignment, w.data(), w.size() * ZKP_SCALAR_SIZE);
    const zkp_struct_header_t header = out.header;
    std::memset(&out, 0, std::min<std::size_t>(header.struct_size, sizeof out));
    out.header = header;
    out.a = a;
    out.b = b;
    out.c = c;
    out.abc_length = d;
    out.assignment = assignment;
    out.assignment_length = w.size();
  }

  // The checked input of one proof (see the header comment). Throws sdk::Error.
  ProofInput<E> take_input(const zkp_prove_input_t& input, ThreadPool& pool) const {
    ProofInput<E> in;
    if (input.synthesis != nullptr) {
      in.synthesis_ = dynamic_cast<const SynthesisOf<E>*>(input.synthesis);
      if (in.synthesis_ == nullptr || in.synthesis_->key != this) {
        throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the synthesis was not made with this key");
      }
      if (in.synthesis_->handed_over) throw handed_over_error();
      // The synthesis is this prover's object, created mutable; the host's const pointer
      // promises no change only while it may prove it again, which FINAL rules out.
      if ((sdk::prove_input_flags(input) & ZKP_PROVE_INPUT_FINAL) != 0) {
        in.handed_over_ = const_cast<SynthesisOf<E>*>(in.synthesis_);
      }
    } else {
      take_external(*input.external, in, pool);
    }
    read_randomness<Fr>(input, in.r_, in.s_, pool);
    return in;
  }

  // The ABI side of a finished proof (proof_output.hpp).
  void check_output(zkp_prove_output_t& out) const { output_.check(out); }
  void write_output(const groth16::Proof<E>& proof, const ProofInput<E>& in, bool self_check, std::string_view from,
                    zkp_prove_output_t& out) const {
    output_.write(proof, in.witness(), self_check, from, out);
  }
  bool verify(std::span<const uint8_t> proof, std::span<const uint8_t> public_inputs) const override {
    return output_.verify(proof, public_inputs);
  }

 private:
  // The assignment of a witness: checked for the key's curve and wire count (BAD_INPUT with
  // what differs), every value below r, w[0] = 1.
  std::vector<Int> read_witness(const zkp_witness_t& witness, ThreadPool& pool) const {
    return backend::read_witness<Fr>(
        witness, pk_.n_vars(), [&](const Wtns& w) { check_witness_matches(pk_.zkey(), w); }, &pool);
  }

  // read_witness, then the r1cs check if configured (UNSATISFIED_WITNESS naming the constraint),
  // unless the device runs it (`on_device`: a witness-only synthesis, leave_ab_to_the_device).
  std::vector<Int> checked_witness(const zkp_witness_t& witness, ThreadPool& pool, bool on_device = false) const {
    std::vector<Int> w = read_witness(witness, pool);
    if (r1cs_ && !on_device) {
      if (const auto bad = groth16::first_unsatisfied_constraint<Fr>(*r1cs_, w, pool)) {
        throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS, "the witness does not satisfy constraint " +
                                                          std::to_string(*bad) + " of " + r1cs_->name());
      }
    }
    return w;
  }

  // A caller's A·w, B·w, C·w and assignment: ranges, lengths, w[0] = 1, and a∘b = c.
  void take_external(const zkp_synthesized_t& given, ProofInput<E>& in, ThreadPool& pool) const {
    const zkp_synthesized_t ext = sdk::synthesized_v2(given);
    if (ext.abc_length > pk_.domain_size()) {
      throw bad_input("abc_length " + std::to_string(ext.abc_length) + " exceeds the key's domain size " +
                      std::to_string(pk_.domain_size()));
    }
    if (ext.a_aux_density != nullptr || ext.b_input_density != nullptr || ext.b_aux_density != nullptr) {
      throw bad_input("density bitmaps are for bellperson keys; a zkey's queries hold every wire (pass NULL)");
    }
    const std::uint64_t inputs = std::uint64_t{pk_.n_public()} + 1;
    in.assignment_ = read_assignment<Fr>(ext, inputs, pk_.n_vars() - inputs, pool);
    const bool mont = montgomery_input(ext);
    using Domain = UninitializedVector<Fr>;
    in.a_ = read_field_elements<Fr, Domain>(ext.a, ext.abc_length, mont, "a", pool);
    in.b_ = read_field_elements<Fr, Domain>(ext.b, ext.abc_length, mont, "b", pool);
    in.c_ = read_field_elements<Fr, Domain>(ext.c, ext.abc_length, mont, "c", pool);
    // Here c is the caller's C·w, so a row with a·b ≠ c is a constraint the witness breaks.
    check_rows<Fr>(in.a_, in.b_, in.c_, pool);
  }

  groth16::ProvingKey<E> pk_;
  bool ab_on_device_ = false;  // leave_ab_to_the_device
  std::optional<R1cs> r1cs_;
  ProofOutput<E> output_{pk_.verifying_key(), pk_.n_public(), pk_.name()};
};

// Reads the key `source` names and returns make(std::unique_ptr<CurveKey<E>>) for its curve:
// each backend wraps the typed key in its own key type. Throws like read_key_files.
template <class Make>
auto load_key(const zkp_key_source_t& source, const KeySettings& settings, ThreadPool& pool, Make&& make) {
  KeyFiles files = read_key_files(source, settings, pool);
  if (files.zkey.header().curve == Curve::bn254) {
    return make(std::make_unique<CurveKey<bn254::Engine>>(std::move(files.zkey), std::move(files.r1cs), &pool));
  }
  return make(std::make_unique<CurveKey<bls12_381::Engine>>(std::move(files.zkey), std::move(files.r1cs), &pool));
}

}  // namespace zkp::backend
