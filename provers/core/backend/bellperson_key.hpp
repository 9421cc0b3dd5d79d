// BellpersonKey: a loaded bellperson parameter file as every backend sees it at the ABI — the
// counterpart of curve_key.hpp's CurveKey for zkey files, with the same faces (key_info,
// synthesize, take_input, check_output / write_output, verify).
//
//   key_load     bellperson::Key (decode and check the queries), and the r1cs if configured,
//                checked against the key's shape (inputs, aux, domain, both densities)
//   synthesize   only with an r1cs: a circom witness, mapped to bellperson's variables and
//                rows (core/bellperson/synthesis.hpp); a violated constraint fails here, named
//   prove_start  take_input: this key's synthesis, or a caller's bellperson-style synthesis
//                (zkp_synthesized_t: Montgomery or standard scalars, inputs and aux apart or
//                together, density bitmaps whose popcounts must match the queries)
//   prove_finish the backend's proof, then write_output (proof_output.hpp)
#pragma once

#include <zkpipe/sdk/prover.hpp>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/backend/errors.hpp"
#include "core/backend/external_input.hpp"
#include "core/backend/key_files.hpp"
#include "core/backend/proof_output.hpp"
#include "core/backend/witness_input.hpp"
#include "core/bellperson/key.hpp"
#include "core/bellperson/prover.hpp"
#include "core/bellperson/synthesis.hpp"
#include "core/backend/curve_key.hpp"
#include "core/formats/r1cs.hpp"
#include "core/formats/wtns.hpp"
#include "core/groth16/randomness.hpp"
#include "core/groth16/witness.hpp"

namespace zkp::backend {

class BellpersonKey;

struct BellpersonSynthesis final : zkp_synthesis_t {
  const BellpersonKey* key = nullptr;
  bellperson::Synthesis<bellperson::Fr> data;
  // Set when a proof took a, b and c over (ZKP_PROVE_INPUT_FINAL): what is left cannot be proved.
  bool handed_over = false;
  // The witness alone (data.a, b, c empty): the device evaluates A·w, B·w, C·w from the circuit
  // (BellpersonKey::leave_abc_to_the_device).
  bool abc_on_device = false;
};

// One proof's checked input: the assignment, a, b, c, the densities, (r, s).
class BellpersonProofInput {
 public:
  using Fr = bellperson::Fr;
  using Int = Fr::Int;

  std::span<const Int> variables() const { return synthesis_ != nullptr ? synthesis_->data.variables : variables_; }
  std::span<const Int> witness() const { return variables(); }  // the name a zkey input uses
  // A·w, B·w, C·w over the rows (Montgomery form), as the device H step uploads them: a
  // synthesis's, the caller's memory itself (Montgomery input: the ABI keeps it valid and
  // unmodified until the partition completes), or converted copies.
  std::span<const Fr> a() const {
    if (synthesis_ != nullptr) return synthesis_->data.a;
    return borrowed_ ? borrowed_a_ : std::span<const Fr>(a_);
  }
  std::span<const Fr> b() const {
    if (synthesis_ != nullptr) return synthesis_->data.b;
    return borrowed_ ? borrowed_b_ : std::span<const Fr>(b_);
  }
  std::span<const Fr> c() const {
    if (synthesis_ != nullptr) return synthesis_->data.c;
    return borrowed_ ? borrowed_c_ : std::span<const Fr>(c_);
  }
  // Set by take_input_checked_on_device: the assignment is the caller's memory as it is
  // (Montgomery form, unchecked), and a, b, c are borrowed unchecked; variables() holds only
  // the inputs (checked, standard form: the proof's public inputs). The prover runs the checks
  // on the device (cuda/util/input_checks.hpp) and reports what they find as the host would.
  bool checks_on_device() const { return checks_on_device_; }
  // A synthesis that is the witness alone: the prover evaluates a, b, c on the device from the
  // circuit and checks a·b = c there (a failing row r is the circuit's constraint r).
  bool abc_on_device() const { return synthesis_ != nullptr && synthesis_->abc_on_device; }
  std::span<const Fr> raw_inputs() const { return raw_inputs_; }
  std::span<const Fr> raw_aux() const { return raw_aux_; }
  // A bad aux value is named aux_assignment[i] (split arrays) or assignment[n_inputs + i].
  bool split_assignment() const { return split_assignment_; }

  const bellperson::Density& a_aux() const { return a_aux_; }
  const bellperson::Density& b_input() const { return b_input_; }
  const bellperson::Density& b_aux() const { return b_aux_; }
  const Fr& r() const { return r_; }
  const Fr& s() const { return s_; }

  // The input of bellperson::prove (the host H step transforms them in place): a, b, c copied
  // from a synthesis (the host may prove it again elsewhere) or the caller's memory, or moved
  // out of a synthesis the host handed over (ZKP_PROVE_INPUT_FINAL) or of the converted vectors
  // (read once).
  bellperson::ProveInput take_work_buffers() {
    bellperson::ProveInput in{variables(), {}, {}, {}, a_aux_, b_input_, b_aux_};
    if (handed_over_ != nullptr) {
      handed_over_->handed_over = true;
      in.a = std::move(handed_over_->data.a);
      in.b = std::move(handed_over_->data.b);
      in.c = std::move(handed_over_->data.c);
    } else if (synthesis_ != nullptr || borrowed_) {
      in.a.assign(a().begin(), a().end());
      in.b.assign(b().begin(), b().end());
      in.c.assign(c().begin(), c().end());
    } else {
      in.a = std::move(a_);
      in.b = std::move(b_);
      in.c = std::move(c_);
    }
    return in;
  }

 private:
  friend class BellpersonKey;
  const BellpersonSynthesis* synthesis_ = nullptr;
  BellpersonSynthesis* handed_over_ = nullptr;  // synthesis_, when the host gave up its memory
  std::vector<Int> variables_;
  std::vector<Fr> a_, b_, c_;
  bool borrowed_ = false;  // a, b, c are the caller's (Montgomery; checked below r unless on the device)
  std::span<const Fr> borrowed_a_, borrowed_b_, borrowed_c_;
  bool checks_on_device_ = false, split_assignment_ = false;
  std::span<const Fr> raw_inputs_, raw_aux_;
  bellperson::Density a_aux_ = bellperson::Density::full(0), b_input_ = bellperson::Density::full(0),
                      b_aux_ = bellperson::Density::full(0);
  Fr r_, s_;
};

class BellpersonKey final : public Key {
 public:
  using Engine = bellperson::Key::E;
  using Proving = bellperson::Key;
  using Input = BellpersonProofInput;
  using Fr = bellperson::Fr;
  using Int = Fr::Int;

  BellpersonKey(bellperson::Key key, std::optional<R1cs> r1cs) : key_(std::move(key)), r1cs_(std::move(r1cs)) {
    if (r1cs_) {
      shape_ = bellperson::shape_of(*r1cs_);
      check_shape(*shape_, r1cs_->name());
    }
  }

  const bellperson::Key& key() const { return key_; }
  // The circuit (key option r1cs), or null.
  const R1cs* circuit() const { return r1cs_ ? &*r1cs_ : nullptr; }

  // A prover that evaluates A·w, B·w and C·w on its device from the circuit (the cuda prover
  // with synthesis=device, provers/cuda/synth) makes a synthesis the witness alone, checks
  // a·b = c there, and key_info's synthesis_bytes say so. Only with a circuit (without one the
  // key proves callers' syntheses, which carry their a, b, c). Before the key is shared.
  void leave_abc_to_the_device() { abc_on_device_ = r1cs_.has_value(); }
  bool abc_on_device() const { return abc_on_device_; }

  // bellperson::Key::drop_host_queries: for a prover whose bases are resident elsewhere.
  void drop_host_queries(bool keep_b2) { key_.drop_host_queries(keep_b2); }
  const bellperson::Key& proving_key() const { return key_; }
  const std::string& name() const override { return key_.name(); }

  void info(zkp_key_info_t& out) const override {
    out.curve = ZKP_CURVE_BLS12_381;
    out.n_vars = static_cast<std::uint32_t>(key_.n_vars());
    out.n_public = key_.n_public();
    out.domain_size = static_cast<std::uint32_t>(key_.domain_size());
    out.synthesis_bytes = bellperson::Synthesis<Fr>::bytes_for(key_.n_vars(), abc_on_device_ ? 0 : key_.domain_size()) +
                          sizeof(BellpersonSynthesis);
    out.proof_size = static_cast<std::uint32_t>(ProofOutput<Engine>::kProofSize);
    out.public_size = static_cast<std::uint32_t>(output_.public_bytes());
    write_synthesized_bytes(out);  // 0: a bellperson synthesis has its own shape (aux, density)
  }

  std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_witness_t& witness, ThreadPool& pool) const override {
    if (!r1cs_) {
      throw sdk::Error(ZKP_ERR_UNSUPPORTED, "bellperson key " + name() +
                                                " proves caller-synthesized partitions (zkp_partition_t.synthesized); "
                                                "to prove circom witnesses with it, give the circuit (key option r1cs)");
    }
    std::vector<Int> w = read_witness(witness, pool);
    std::optional<std::uint64_t> bad;
    auto out = std::make_unique<BellpersonSynthesis>();
    out->key = this;
    if (abc_on_device_) {
      out->data.variables = std::move(w);  // bellperson's order is the witness's (synthesis.hpp)
      out->abc_on_device = true;
      return out;
    }
    out->data = bellperson::synthesize<Fr>(*r1cs_, *shape_, std::move(w), pool, bad);
    if (bad) {
      throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS,
                       "the witness does not satisfy constraint " + std::to_string(*bad) + " of " + r1cs_->name());
    }
    return out;
  }

  BellpersonProofInput take_input(const zkp_prove_input_t& input, ThreadPool& pool) const {
    BellpersonProofInput in;
    if (input.synthesis != nullptr) {
      in.synthesis_ = dynamic_cast<const BellpersonSynthesis*>(input.synthesis);
      if (in.synthesis_ == nullptr || in.synthesis_->key != this) {
        throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the synthesis was not made with this key");
      }
      if (in.synthesis_->handed_over) throw handed_over_error();
      // The synthesis is this prover's object, created mutable; the host's const pointer
      // promises no change only while it may prove it again, which FINAL rules out.
      if ((sdk::prove_input_flags(input) & ZKP_PROVE_INPUT_FINAL) != 0) {
        in.handed_over_ = const_cast<BellpersonSynthesis*>(in.synthesis_);
      }
      in.a_aux_ = shape_->a_aux_density();
      in.b_input_ = shape_->b_input_density();
      in.b_aux_ = shape_->b_aux_density();
    } else {
      take_external(sdk::synthesized_v2(*input.external), in, pool);
    }
    read_randomness<Fr>(input, in.r_, in.s_, pool);
    return in;
  }

  // take_input for a prover that runs on the device the checks a caller's Montgomery synthesis
  // needs (every value below r, the assignment to standard form, a·b = c per row): a, b, c and
  // the aux assignment are borrowed as they are, and only the structure (lengths, bitmaps, the
  // constant one) and the inputs are checked here. At a 2^27 partition this takes the host's
  // 3.5 s of checks per proof off its cores. Any other input (this key's synthesis, standard
  // form, memory not aligned for Fr) is checked here in full, as take_input does.
  BellpersonProofInput take_input_checked_on_device(const zkp_prove_input_t& input, ThreadPool& pool) const {
    if (input.synthesis != nullptr || input.external == nullptr) return take_input(input, pool);
    const zkp_synthesized_t& ext = sdk::synthesized_v2(*input.external);
    if (!montgomery_input(ext) || !aligned_for<Fr>(ext.a) || !aligned_for<Fr>(ext.b) || !aligned_for<Fr>(ext.c) ||
        !aligned_for<Fr>(ext.assignment) || !aligned_for<Fr>(ext.aux_assignment)) {
      return take_input(input, pool);
    }
    BellpersonProofInput in;
    take_structure(ext, in);
    const AssignmentParts parts = assignment_parts<Fr>(ext, key_.num_inputs(), key_.num_aux());
    const auto borrow = [](const std::uint8_t* bytes, std::uint64_t count, const char* what) {
      if (bytes == nullptr && count != 0) throw bad_input(std::string(what) + " is NULL");
      return count == 0 ? std::span<const Fr>() : std::span<const Fr>(reinterpret_cast<const Fr*>(bytes), count);
    };
    in.raw_inputs_ = borrow(parts.inputs, key_.num_inputs(), "assignment");
    in.raw_aux_ = borrow(parts.aux, key_.num_aux(), parts.split ? "aux_assignment" : "assignment");
    in.split_assignment_ = parts.split;
    append_integers<Fr>(parts.inputs, key_.num_inputs(), true, "assignment", pool, in.variables_);
    check_constant_one<Int>(in.variables_);
    in.borrowed_a_ = borrow(ext.a, ext.abc_length, "a");
    in.borrowed_b_ = borrow(ext.b, ext.abc_length, "b");
    in.borrowed_c_ = borrow(ext.c, ext.abc_length, "c");
    in.borrowed_ = true;
    in.checks_on_device_ = true;
    read_randomness<Fr>(input, in.r_, in.s_, pool);
    return in;
  }

  void check_output(zkp_prove_output_t& out) const { output_.check(out); }
  void write_output(const groth16::Proof<Engine>& proof, const BellpersonProofInput& in, bool self_check,
                    std::string_view from, zkp_prove_output_t& out) const {
    output_.write(proof, in.variables(), self_check, from, out);
  }
  bool verify(std::span<const uint8_t> proof, std::span<const uint8_t> public_inputs) const override {
    return output_.verify(proof, public_inputs);
  }

 private:
  // The r1cs must be the circuit of these parameters: its variables and the popcounts of its
  // densities are the key's query lengths, and its rows fit the domain.
  void check_shape(const bellperson::CircuitShape& s, const std::string& what) const {
    const auto mismatch = [&](const std::string& why) { format_fail(what, "does not match the bellperson key ", name(), ": ", why); };
    if (r1cs_->header().curve != Curve::bls12_381) mismatch("the circuit is not over BLS12-381");
    if (s.num_inputs != key_.num_inputs()) {
      mismatch(std::to_string(s.num_inputs) + " inputs (one + public), the key's ic has " + std::to_string(key_.num_inputs()));
    }
    if (s.num_aux != key_.num_aux()) {
      mismatch(std::to_string(s.num_aux) + " aux variables, the key's l has " + std::to_string(key_.num_aux()));
    }
    if (s.abc_size() > key_.domain_size()) {
      mismatch(std::to_string(s.abc_size()) + " rows with the input rows, the key's domain is " + std::to_string(key_.domain_size()));
    }
    check_densities(s.a_aux_density(), s.b_input_density(), s.b_aux_density());
  }

  // Popcounts against the query lengths; throws BAD_INPUT naming the bitmap.
  void check_densities(const bellperson::Density& a_aux, const bellperson::Density& b_input,
                       const bellperson::Density& b_aux) const {
    if (a_aux.popcount() != key_.a_aux_count()) {
      throw bad_input("a_aux_density has " + std::to_string(a_aux.popcount()) + " bits set; the key's a query holds " +
                      std::to_string(key_.a_aux_count()) + " aux variables");
    }
    const std::uint64_t b = b_input.popcount() + b_aux.popcount();
    if (b != key_.b_count()) {
      throw bad_input("b_input_density and b_aux_density have " + std::to_string(b_input.popcount()) + " + " +
                      std::to_string(b_aux.popcount()) + " bits set; the key's b queries hold " +
                      std::to_string(key_.b_count()) + " variables");
    }
  }

  static bellperson::Density density_of(const std::uint64_t* words, std::uint64_t bit_len, std::uint64_t expected,
                                        const char* field) {
    if (words == nullptr) return bellperson::Density::full(expected);
    if (bit_len != expected) {
      throw bad_input(std::string(field) + " has bit_len " + std::to_string(bit_len) + "; its range has " +
                      std::to_string(expected) + " variables");
    }
    return {words, bit_len};
  }

  // The row count and the three bitmaps (lengths, popcounts against the queries).
  void take_structure(const zkp_synthesized_t& ext, BellpersonProofInput& in) const {
    if (ext.abc_length > key_.domain_size()) {
      throw bad_input("abc_length " + std::to_string(ext.abc_length) + " exceeds the key's domain size " +
                      std::to_string(key_.domain_size()));
    }
    in.a_aux_ = density_of(ext.a_aux_density, ext.a_aux_bit_len, key_.num_aux(), "a_aux_density");
    in.b_input_ = density_of(ext.b_input_density, ext.b_input_bit_len, key_.num_inputs(), "b_input_density");
    in.b_aux_ = density_of(ext.b_aux_density, ext.b_aux_bit_len, key_.num_aux(), "b_aux_density");
    check_densities(in.a_aux_, in.b_input_, in.b_aux_);
  }

  void take_external(const zkp_synthesized_t& ext, BellpersonProofInput& in, ThreadPool& pool) const {
    take_structure(ext, in);
    in.variables_ = read_assignment<Fr>(ext, key_.num_inputs(), key_.num_aux(), pool);
    const bool mont = montgomery_input(ext);
    // Montgomery limbs are an Fr's memory: the caller's a, b, c serve as they are once each
    // value is checked below r (no 3 × 32·abc_length bytes of copies: 12 GiB at 2^27).
    if (mont && aligned_for<Fr>(ext.a) && aligned_for<Fr>(ext.b) && aligned_for<Fr>(ext.c)) {
      in.borrowed_a_ = borrow_field_elements<Fr>(ext.a, ext.abc_length, "a", pool);
      in.borrowed_b_ = borrow_field_elements<Fr>(ext.b, ext.abc_length, "b", pool);
      in.borrowed_c_ = borrow_field_elements<Fr>(ext.c, ext.abc_length, "c", pool);
      in.borrowed_ = true;
    } else {
      in.a_ = read_field_elements<Fr>(ext.a, ext.abc_length, mont, "a", pool);
      in.b_ = read_field_elements<Fr>(ext.b, ext.abc_length, mont, "b", pool);
      in.c_ = read_field_elements<Fr>(ext.c, ext.abc_length, mont, "c", pool);
    }
    check_rows<Fr>(in.a(), in.b(), in.c(), pool);
  }

  // A circom witness of the circuit: over BLS12-381, one value per variable.
  std::vector<Int> read_witness(const zkp_witness_t& witness, ThreadPool& pool) const {
    return backend::read_witness<Fr>(witness, key_.n_vars(), [&](const Wtns& w) {
      if (w.curve() != Curve::bls12_381) throw bad_input(w.name() + ": the witness is not over BLS12-381");
      if (w.size() != key_.n_vars()) {
        throw bad_input(w.name() + " has " + std::to_string(w.size()) + " values; the key has " +
                        std::to_string(key_.n_vars()) + " variables");
      }
    }, &pool);
  }

  bellperson::Key key_;
  bool abc_on_device_ = false;  // leave_abc_to_the_device
  std::optional<R1cs> r1cs_;
  std::optional<bellperson::CircuitShape> shape_;
  ProofOutput<Engine> output_{key_.verifying_key(), key_.n_public(), key_.name()};
};

// Reads the bellperson parameter file `source` names (streamed from the file, or the caller's
// buffer, which the ABI keeps valid until key_free) with the configured point checks, and the
// r1cs. `host`: the queries decoded into host memory; the key keeps the file for the others
// (bellperson::Key::queries_file), which a device prover streams into the device.
// Throws FormatError / IoError (translate_format_errors) or sdk::Error.
inline std::unique_ptr<BellpersonKey> load_bellperson_key(
    const zkp_key_source_t& source, const KeySettings& settings, ThreadPool& pool,
    bellperson::Key::HostQueries host = bellperson::Key::HostQueries::all) {
  auto file = std::make_shared<const bellperson::ParamsFile>(
      source.path != nullptr ? bellperson::ParamsFile::open(source.path)
                             : bellperson::ParamsFile::read(key_bytes(source, "bellperson parameter buffer")));
  bellperson::Key key(std::move(file), settings.params_check, pool, host);
  return std::make_unique<BellpersonKey>(std::move(key), settings_r1cs(settings));
}

}  // namespace zkp::backend
