// The cpu prover's key, synthesis and op types: a curve-independent KeyBase (what the ABI
// handle points at) and CurveKey<E>, which does the work for one pairing engine.
#pragma once

#include <zkpipe/sdk/prover.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cpu_prover.hpp"
#include "formats/error.hpp"
#include "formats/r1cs.hpp"
#include "formats/wtns.hpp"
#include "formats/zkey.hpp"
#include "groth16/proof_codec.hpp"
#include "groth16/prover.hpp"
#include "groth16/r1cs_check.hpp"
#include "groth16/randomness.hpp"
#include "groth16/witness.hpp"

namespace zkp::cpu {

using Shared = CpuProver::Shared;

class KeyBase : public zkp_key_t {
 public:
  virtual void info(zkp_key_info_t& out) const = 0;
  virtual std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_witness_t& witness, Shared& sh) const = 0;
  virtual std::unique_ptr<zkp_prove_op_t> prove_start(const zkp_prove_input_t& input, Shared& sh) const = 0;
  virtual void prove_finish(zkp_prove_op_t& op, zkp_prove_output_t& out, Shared& sh) const = 0;
  virtual bool verify(std::span<const uint8_t> proof, std::span<const uint8_t> public_inputs) const = 0;
};

namespace detail {

inline sdk::Error bad_input(const std::string& m) { return sdk::Error(ZKP_ERR_BAD_INPUT, m); }

inline std::uint64_t ns_since(std::chrono::steady_clock::time_point t0) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
}

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
class CurveKey;

template <PairingEngine E>
struct CurveSynthesis final : zkp_synthesis_t {
  const CurveKey<E>* key = nullptr;
  groth16::Synthesis<typename E::Fr> data;
};

template <PairingEngine E>
struct CurveOp final : zkp_prove_op_t {
  using Fr = typename E::Fr;
  const CurveKey<E>* key = nullptr;
  const CurveSynthesis<E>* synthesis = nullptr;  // or the caller's input, converted:
  std::vector<typename Fr::Int> assignment;
  std::vector<Fr> a, b, c;
  Fr r, s;
};

template <PairingEngine E>
class CurveKey final : public KeyBase {
 public:
  using Fr = typename E::Fr;
  using Int = typename Fr::Int;
  static constexpr std::size_t kProofSize = groth16::kProofBytes<E>;

  CurveKey(Zkey zkey, std::optional<R1cs> r1cs) : pk_(std::move(zkey)), r1cs_(std::move(r1cs)) {
    if (r1cs_) groth16::check_r1cs_matches(*r1cs_, pk_.zkey());
  }

  const groth16::ProvingKey<E>& proving_key() const { return pk_; }

  void info(zkp_key_info_t& out) const override {
    out.curve = groth16::curve_of<E>() == Curve::bn254 ? ZKP_CURVE_BN254 : ZKP_CURVE_BLS12_381;
    out.n_vars = pk_.n_vars();
    out.n_public = pk_.n_public();
    out.domain_size = pk_.domain_size();
    out.synthesis_bytes = synthesis_bytes();
    out.proof_size = static_cast<uint32_t>(kProofSize);
    out.public_size = pk_.n_public() * ZKP_SCALAR_SIZE;
  }

  // The vectors of a synthesis are allocated at exactly these sizes, plus the object itself.
  std::uint64_t synthesis_bytes() const {
    return groth16::Synthesis<Fr>::bytes_for(pk_.n_vars(), pk_.domain_size()) + sizeof(CurveSynthesis<E>);
  }

  std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_witness_t& witness, Shared& sh) const override {
    std::vector<Int> w = read_witness(witness);
    if (r1cs_) {
      if (const auto bad = groth16::first_unsatisfied_constraint<Fr>(*r1cs_, w, sh.pool)) {
        throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS, "the witness does not satisfy constraint " +
                                                          std::to_string(*bad) + " of " + r1cs_->name());
      }
    }
    auto out = std::make_unique<CurveSynthesis<E>>();
    out->key = this;
    out->data = groth16::synthesize<E>(pk_, std::move(w), sh.pool);
    return out;
  }

  std::unique_ptr<zkp_prove_op_t> prove_start(const zkp_prove_input_t& input, Shared& sh) const override {
    auto op = std::make_unique<CurveOp<E>>();
    op->key = this;
    if (input.synthesis != nullptr) {
      op->synthesis = dynamic_cast<const CurveSynthesis<E>*>(input.synthesis);
      if (op->synthesis == nullptr || op->synthesis->key != this) {
        throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "the synthesis was not made with this key");
      }
    } else {
      take_external(*input.external, *op, sh);
    }
    if (input.randomness != nullptr) {
      const auto rs = detail::read_scalars<Fr>(input.randomness, 2, "randomness");
      op->r = rs[0];
      op->s = rs[1];
    } else {
      op->r = groth16::os_random_scalar<Fr>();
      op->s = groth16::os_random_scalar<Fr>();
    }
    return op;
  }

  void prove_finish(zkp_prove_op_t& base, zkp_prove_output_t& out, Shared& sh) const override {
    auto& op = dynamic_cast<CurveOp<E>&>(base);
    const std::size_t public_size = std::size_t{pk_.n_public()} * ZKP_SCALAR_SIZE;
    out.proof_size = kProofSize;
    out.public_size = public_size;
    if (out.proof_capacity < kProofSize || out.public_capacity < public_size || out.proof == nullptr ||
        (out.public_inputs == nullptr && public_size != 0)) {
      throw sdk::Error(ZKP_ERR_SHORT_BUFFER, "prove_finish needs " + std::to_string(kProofSize) +
                                                 " proof bytes and " + std::to_string(public_size) +
                                                 " public-input bytes; the output has " +
                                                 std::to_string(out.proof_capacity) + " and " +
                                                 std::to_string(out.public_capacity));
    }
    const auto t0 = std::chrono::steady_clock::now();
    groth16::ProveInput<Fr> in;
    if (op.synthesis != nullptr) {
      in = groth16::prove_input(op.synthesis->data);
    } else {
      in = {op.assignment, std::move(op.a), std::move(op.b), std::move(op.c)};
    }
    const std::span<const Int> witness = in.witness;
    groth16::StageTimes times;
    const groth16::Proof<E> proof = groth16::prove<E>(pk_, std::move(in), op.r, op.s, sh.pool, &times);
    const auto t_verify = std::chrono::steady_clock::now();
    if (sh.verify_proofs) {
      const groth16::VerifyResult v = groth16::verify<E>(pk_.verifying_key(), witness.subspan(1, pk_.n_public()), proof);
      if (!v.ok()) {
        throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS,
                         "the proof does not verify (" + v.message() +
                             "): the witness does not satisfy the circuit of " + pk_.name());
      }
    }
    groth16::write_proof<E>(proof, std::span<std::uint8_t, kProofSize>(out.proof, kProofSize));
    groth16::write_public_inputs<Int>(witness, pk_.n_public(), {out.public_inputs, public_size});
    out.gpu_index = 0;
    out.gpu_duration_ns = detail::ns_since(t0);
    out.epilogue_ns = times.epilogue_ns + detail::ns_since(t_verify);
    out.msm_ns = times.msm_ns();
    out.ntt_ns = times.ntt_ns;
  }

  bool verify(std::span<const uint8_t> proof, std::span<const uint8_t> public_inputs) const override {
    if (proof.size() != kProofSize) {
      throw detail::bad_input("verify: proof is " + std::to_string(proof.size()) + " bytes, a " +
                              E::kName + " proof is " + std::to_string(kProofSize));
    }
    if (public_inputs.size() != std::size_t{pk_.n_public()} * ZKP_SCALAR_SIZE) {
      throw detail::bad_input("verify: " + std::to_string(public_inputs.size()) + " bytes of public inputs, the key has " +
                              std::to_string(pk_.n_public()) + " x " + std::to_string(ZKP_SCALAR_SIZE));
    }
    const auto p = groth16::read_proof<E>(std::span<const uint8_t, kProofSize>(proof.data(), kProofSize));
    if (!p) return false;  // a coordinate ≥ q or a point off its curve: not a valid proof
    std::vector<Int> publics(pk_.n_public());
    for (std::size_t i = 0; i < publics.size(); ++i) {
      publics[i] = Int::from_le_bytes(public_inputs.subspan(i * ZKP_SCALAR_SIZE).template first<sizeof(Int)>());
    }
    return zkp::groth16::verify<E>(pk_.verifying_key(), std::span<const Int>(publics), *p).ok();
  }

 private:
  // The assignment of a witness: checked for the key's curve and wire count (BAD_INPUT with
  // what differs), every value below r, w[0] = 1.
  std::vector<Int> read_witness(const zkp_witness_t& witness) const {
    switch (witness.kind) {
      case ZKP_WITNESS_WTNS_FILE:
      case ZKP_WITNESS_WTNS_BUFFER: {
        if (witness.kind == ZKP_WITNESS_WTNS_FILE && witness.path == nullptr) throw detail::bad_input("witness path is NULL");
        if (witness.kind == ZKP_WITNESS_WTNS_BUFFER && witness.data == nullptr) throw detail::bad_input("witness data is NULL");
        ByteSource src = witness.kind == ZKP_WITNESS_WTNS_FILE
                             ? ByteSource::from_file(witness.path)
                             : ByteSource::borrow({static_cast<const std::byte*>(witness.data), witness.size},
                                                  "witness buffer");
        const Wtns wtns = read_wtns(std::move(src));
        check_witness_matches(pk_.zkey(), wtns);
        return groth16::load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name());
      }
      case ZKP_WITNESS_ASSIGNMENT: {
        if (witness.data == nullptr) throw detail::bad_input("assignment data is NULL");
        if (witness.size != std::size_t{pk_.n_vars()} * ZKP_SCALAR_SIZE) {
          throw detail::bad_input("assignment is " + std::to_string(witness.size) + " bytes; the key has " +
                                  std::to_string(pk_.n_vars()) + " wires x " + std::to_string(ZKP_SCALAR_SIZE));
        }
        return groth16::load_assignment<Fr>({static_cast<const std::byte*>(witness.data), witness.size}, pk_.n_vars(),
                                            "assignment");
      }
      case ZKP_WITNESS_NONE:
        throw detail::bad_input("the cpu prover needs a witness (kind ZKP_WITNESS_NONE given)");
      default:
        throw detail::bad_input("unknown witness kind " + std::to_string(witness.kind));
    }
  }

  // A caller's A·w, B·w, C·w and assignment: ranges, lengths, w[0] = 1, and a∘b = c.
  void take_external(const zkp_synthesized_t& ext, CurveOp<E>& op, Shared& sh) const {
    if (ext.abc_length > pk_.domain_size()) {
      throw detail::bad_input("abc_length " + std::to_string(ext.abc_length) + " exceeds the key's domain size " +
                              std::to_string(pk_.domain_size()));
    }
    if (ext.assignment_length != pk_.n_vars()) {
      throw detail::bad_input("assignment_length " + std::to_string(ext.assignment_length) + ", the key has " +
                              std::to_string(pk_.n_vars()) + " wires");
    }
    if (ext.assignment == nullptr) throw detail::bad_input("assignment is NULL");
    op.assignment = groth16::load_assignment<Fr>(
        {reinterpret_cast<const std::byte*>(ext.assignment), ext.assignment_length * ZKP_SCALAR_SIZE},
        ext.assignment_length, "assignment");
    op.a = detail::read_scalars<Fr>(ext.a, ext.abc_length, "a");
    op.b = detail::read_scalars<Fr>(ext.b, ext.abc_length, "b");
    op.c = detail::read_scalars<Fr>(ext.c, ext.abc_length, "c");
    // Here c is the caller's C·w, so a row with a·b ≠ c is a constraint the witness breaks.
    std::atomic<std::uint64_t> first{ext.abc_length};
    sh.pool.parallel_for(ext.abc_length, groth16::kPointwiseGrain, [&](std::size_t i0, std::size_t i1) {
      for (std::size_t i = i0; i < i1; ++i) {
        if (op.a[i] * op.b[i] != op.c[i]) {
          std::uint64_t cur = first.load();
          while (i < cur && !first.compare_exchange_weak(cur, i)) {
          }
          return;
        }
      }
    });
    if (first.load() != ext.abc_length) {
      throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS,
                       "a·b != c at row " + std::to_string(first.load()) + " of the caller's synthesis");
    }
  }

  groth16::ProvingKey<E> pk_;
  std::optional<R1cs> r1cs_;
};

}  // namespace zkp::cpu
