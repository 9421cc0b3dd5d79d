// The "reference" prover: Groth16 on BN254 on one CPU thread, through the public ABI only
// (the installed zkpipe/ headers and SDK; nothing of zkpipe's own provers). Slow on purpose:
// every step is the textbook one, so it is a second, independent implementation that the
// built-in provers can be checked against (`zkpipe check-plugin`), and a template for a
// third-party backend.
//
// Every proof is checked with the pairing before it is returned (ZKP_PROVE_OUTPUT_VERIFIED):
// a zkey carries no C matrix, so a witness that does not satisfy the circuit cannot be told
// from one that does at synthesis, only by its proof failing the check, and the ABI says such
// a witness must never turn into a proof (ZKP_ERR_UNSATISFIED_WITNESS).
#include "groth16.hpp"

#include <zkpipe/sdk/plugin.hpp>
#include <zkpipe/sdk/prover.hpp>

#include <chrono>
#include <fstream>
#include <iterator>
#include <random>

namespace {

using zkp::sdk::Error;

std::vector<uint8_t> read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ZKP_ERR_NOT_FOUND, std::string(path) + ": cannot be opened");
  return {std::istreambuf_iterator<char>(in), {}};
}

struct Key final : zkp_key_t {
  ref::ProvingKey pk;
};
struct Synthesis final : zkp_synthesis_t {
  ref::Synthesized s;
};
struct Op final : zkp_prove_op_t {
  std::array<uint8_t, 256> proof;
  std::vector<uint8_t> public_inputs;
  uint64_t ns = 0;
};

const ref::ProvingKey& key_of(const zkp_key_t& k) { return static_cast<const Key&>(k).pk; }

// A scalar < r: 32 bytes from the OS CSPRNG (std::random_device reads getrandom/urandom on
// Linux), top bits cleared to below 2^254, rejected and drawn again when >= r.
ref::Limbs random_scalar() {
  std::random_device rd;
  for (;;) {
    ref::Limbs x;
    for (uint64_t& l : x) l = (uint64_t{rd()} << 32) | rd();
    x[3] &= (uint64_t{1} << 62) - 1;
    if (!ref::geq(x, ref::FrParams::modulus)) return x;
  }
}

ref::Limbs scalar_at(const uint8_t* p, const char* what) {
  const ref::Limbs x = ref::from_bytes_le(p);
  if (ref::geq(x, ref::FrParams::modulus)) throw Error(ZKP_ERR_INVALID_ARGUMENT, std::string(what) + " is not below r");
  return x;
}

std::vector<ref::Fr> scalars_mont(const uint8_t* p, uint64_t count, const char* what) {
  std::vector<ref::Fr> out;
  out.reserve(count);
  for (uint64_t i = 0; i < count; ++i) out.push_back(ref::Fr::from_int(scalar_at(p + 32 * i, what)));
  return out;
}

class ReferenceProver final : public zkp::sdk::Prover {
 public:
  static constexpr const char* kName = "reference";
  static constexpr const char* kOptionsHelp = "(no options)\n";
  ReferenceProver(const zkp::sdk::HostServices&, zkp::sdk::Options&) {}

  uint32_t flags() const override { return ZKP_PROVER_FLAG_VERIFY; }
  uint32_t device_count() const override { return 1; }
  void device_info(uint32_t, zkp_device_info_t& out) const override {
    zkp::sdk::copy_name(out.name, "cpu (reference, 1 thread)");
    out.memory_bytes = out.memory_free_bytes = 0;
    out.partitions_started = out.partitions_proved = out.busy_ns = 0;
  }

  std::unique_ptr<zkp_key_t> key_load(const zkp_key_source_t& src, int32_t) override {
    auto key = std::make_unique<Key>();
    if (src.path != nullptr) {
      key->pk = ref::read_zkey(read_file(src.path), src.path);
    } else {
      if (src.data == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_key_source_t has neither path nor data");
      key->pk = ref::read_zkey({static_cast<const uint8_t*>(src.data), src.size}, "zkey buffer");
    }
    return key;
  }

  void key_info(const zkp_key_t& k, zkp_key_info_t& out) const override {
    const ref::ProvingKey& pk = key_of(k);
    out.curve = ZKP_CURVE_BN254;
    out.n_vars = pk.n_vars;
    out.n_public = pk.n_public;
    out.domain_size = pk.domain_size;
    // What a Synthesis holds: the witness and a, b on the domain.
    out.synthesis_bytes = uint64_t{pk.n_vars} * sizeof(ref::Limbs) + 2 * uint64_t{pk.domain_size} * sizeof(ref::Fr);
    out.proof_size = ZKP_PROOF_SIZE_BN254;
    out.public_size = pk.n_public * ZKP_SCALAR_SIZE;
  }

  std::unique_ptr<zkp_synthesis_t> synthesize(const zkp_key_t& k, const zkp_witness_t& wit) override {
    const ref::ProvingKey& pk = key_of(k);
    std::vector<ref::Limbs> w;
    if (wit.kind == ZKP_WITNESS_WTNS_FILE && wit.path != nullptr) {
      w = ref::read_wtns(read_file(wit.path), pk.n_vars, wit.path);
    } else if (wit.kind == ZKP_WITNESS_WTNS_BUFFER && wit.data != nullptr) {
      w = ref::read_wtns({static_cast<const uint8_t*>(wit.data), wit.size}, pk.n_vars, "wtns buffer");
    } else if (wit.kind == ZKP_WITNESS_ASSIGNMENT && wit.data != nullptr && wit.size == uint64_t{pk.n_vars} * 32) {
      for (uint32_t i = 0; i < pk.n_vars; ++i)
        w.push_back(scalar_at(static_cast<const uint8_t*>(wit.data) + 32 * i, "a witness value"));
    } else {
      throw Error(ZKP_ERR_INVALID_ARGUMENT,
                  std::string("unsupported or incomplete zkp_witness_t (kind ") + std::to_string(wit.kind) + ")");
    }
    if (w[0] != ref::Limbs{1, 0, 0, 0}) throw Error(ZKP_ERR_BAD_INPUT, "witness value 0 must be 1");
    auto s = std::make_unique<Synthesis>();
    s->s = ref::synthesize(pk, std::move(w));
    return s;
  }

  std::unique_ptr<zkp_prove_op_t> prove_start(const zkp_key_t& k, const zkp_prove_input_t& in, int32_t,
                                              uint32_t) override {
    const ref::ProvingKey& pk = key_of(k);
    const auto t0 = std::chrono::steady_clock::now();
    ref::Synthesized external;
    const ref::Synthesized* s = nullptr;
    if (in.synthesis != nullptr) {
      s = &static_cast<const Synthesis*>(in.synthesis)->s;
    } else {
      s = &(external = from_external(pk, *in.external));
    }
    const ref::Limbs r = in.randomness ? scalar_at(in.randomness, "r") : random_scalar();
    const ref::Limbs sr = in.randomness ? scalar_at(in.randomness + 32, "s") : random_scalar();
    auto op = std::make_unique<Op>();
    const ref::Proof proof = ref::prove(pk, *s, r, sr);
    const std::span<const ref::Limbs> publics(s->witness.data() + 1, pk.n_public);
    if (!ref::verify(pk, proof, publics)) {
      throw Error(ZKP_ERR_UNSATISFIED_WITNESS, "the proof does not verify: the witness does not satisfy the circuit");
    }
    op->proof = ref::encode(proof);
    op->public_inputs.resize(size_t{pk.n_public} * 32);
    for (uint32_t i = 0; i < pk.n_public; ++i) ref::to_bytes_le(publics[i], &op->public_inputs[32 * i]);
    op->ns = static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
    return op;
  }

  void prove_finish(std::unique_ptr<zkp_prove_op_t> base, zkp_prove_output_t& out) override {
    const Op& op = static_cast<const Op&>(*base);
    out.proof_size = op.proof.size();
    out.public_size = op.public_inputs.size();
    if (out.proof_capacity < out.proof_size || out.public_capacity < out.public_size || out.proof == nullptr ||
        (out.public_inputs == nullptr && out.public_size != 0)) {
      throw Error(ZKP_ERR_SHORT_BUFFER, std::string("prove output needs ") + std::to_string(out.proof_size) +
                                            " proof bytes and " + std::to_string(out.public_size) + " public bytes");
    }
    std::memcpy(out.proof, op.proof.data(), op.proof.size());
    if (!op.public_inputs.empty()) std::memcpy(out.public_inputs, op.public_inputs.data(), op.public_inputs.size());
    out.gpu_index = 0;
    out.gpu_duration_ns = op.ns;  // the whole proof ran in prove_start, on this CPU "device"
    out.epilogue_ns = out.msm_ns = out.ntt_ns = 0;
    zkp::sdk::set_output_flags(out, ZKP_PROVE_OUTPUT_VERIFIED);
  }

  bool verify(const zkp_key_t& k, std::span<const uint8_t> proof, std::span<const uint8_t> publics) const override {
    const ref::ProvingKey& pk = key_of(k);
    if (proof.size() != ZKP_PROOF_SIZE_BN254 || publics.size() != size_t{pk.n_public} * 32) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, std::string("verify: a BN254 proof is 256 bytes and the public inputs ") +
                                                std::to_string(pk.n_public * 32) + " bytes for this key");
    }
    ref::Proof p;
    if (!ref::decode(proof.data(), p)) return false;
    std::vector<ref::Limbs> x;
    for (uint32_t i = 0; i < pk.n_public; ++i) x.push_back(ref::from_bytes_le(publics.data() + 32 * i));
    return ref::verify(pk, p, x);
  }

 private:
  static ref::Synthesized from_external(const ref::ProvingKey& pk, const zkp_synthesized_t& e) {
    if (e.abc_length > pk.domain_size || e.assignment_length != pk.n_vars || !e.a || !e.b || !e.assignment) {
      throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_synthesized_t does not match the key (lengths or NULL)");
    }
    ref::Synthesized s;
    s.a = scalars_mont(e.a, e.abc_length, "an a value");
    s.b = scalars_mont(e.b, e.abc_length, "a b value");
    if (e.c != nullptr) s.c = scalars_mont(e.c, e.abc_length, "a c value");
    for (uint64_t i = 0; i < e.assignment_length; ++i)
      s.witness.push_back(scalar_at(e.assignment + 32 * i, "an assignment value"));
    return s;
  }
};

}  // namespace

ZKP_PLUGIN("reference", "0.1.0", "Groth16 on BN254, one CPU thread, textbook code (an out-of-tree sample)",
           zkp::sdk::ProverFactory<ReferenceProver>);
