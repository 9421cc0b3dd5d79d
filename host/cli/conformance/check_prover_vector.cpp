#include "check_support.hpp"
#include "checks.hpp"

#include <zkpipe/sdk/error.hpp>
#include <zkpipe/sdk/prover.hpp>

#include <malloc.h>

#include <cstddef>
#include <cstring>
#include <vector>

namespace zkp::conformance {

namespace {

constexpr int kLeakCycles = 3;
// Growth per key_load..key_free cycle tolerated as allocator noise (caches of the C++ runtime
// and of malloc itself); a leaked key or synthesis of the smallest vector is far larger.
constexpr size_t kLeakSlackBytes = 64 * 1024;

// The last wire of a circom witness is an intermediate signal: changing it breaks a constraint.
Bytes unsatisfied(Bytes wtns) {
  if (wtns.size() >= 32) wtns[wtns.size() - 32] ^= 1;
  return wtns;
}

// Bytes malloc has handed out and not had back, over every arena, mmapped blocks included.
size_t malloc_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

struct KeyFacts {
  zkp_key_info_t info;
  std::string text() const {
    return cat("curve ", info.curve, ", ", info.n_vars, " wires, ", info.n_public, " public, domain ", info.domain_size,
               ", proof ", info.proof_size, " B, public ", info.public_size, " B");
  }
};

KeyFacts key_facts(zkp_prover_t* p, const zkp_key_t* k) {
  KeyFacts f{sdk::make_struct<zkp_key_info_t>()};
  zkp_error_t err = error_record();
  if (p->key_info(p, k, &f.info, &err) != ZKP_OK) f.info = {};
  return f;
}

// zkp_prover_t.synthesize_into, when the table has it and the key allows it: the partition it
// writes, proved as caller-synthesized input on device `gpu`, gives the reference proof.
void check_synthesize_into(Report& report, const std::string& name, zkp_prover_t* p, const zkp_key_t* key,
                           const Bytes& wtns, const Bytes& rs, const Bytes& expected, int32_t gpu) {
  const bool has = p->header.struct_size >= offsetof(zkp_prover_t, synthesize_into) + sizeof(p->synthesize_into) &&
                   p->synthesize_into != nullptr;
  const KeyFacts facts = key_facts(p, key);
  if (!has || facts.info.synthesized_bytes == 0) {
    report.skip(cat(name, ": synthesize_into (", has ? "not for this key" : "not in the prover's table", ")"));
    return;
  }
  zkp_error_t err = error_record();
  auto witness = sdk::make_struct<zkp_witness_t>();
  witness.kind = ZKP_WITNESS_WTNS_BUFFER;
  witness.data = wtns.data();
  witness.size = wtns.size();
  std::vector<uint64_t> words((facts.info.synthesized_bytes + 7) / 8);  // 8-byte aligned, as the ABI asks
  auto synthesized = sdk::make_struct<zkp_synthesized_t>();
  zkp_status_t s = p->synthesize_into(p, key, &witness, reinterpret_cast<uint8_t*>(words.data()),
                                      facts.info.synthesized_bytes, &synthesized, &err);
  if (!report.check(s == ZKP_OK, cat(name, ": synthesize_into into ", facts.info.synthesized_bytes, " bytes"),
                    status_text(s, err)))
    return;
  auto input = sdk::make_struct<zkp_prove_input_t>();
  input.external = &synthesized;
  input.randomness = rs.data();
  Bytes proof(facts.info.proof_size), public_inputs(facts.info.public_size);
  auto out = sdk::make_struct<zkp_prove_output_t>();
  out.proof = proof.data();
  out.proof_capacity = proof.size();
  out.public_inputs = public_inputs.data();
  out.public_capacity = public_inputs.size();
  zkp_prove_op_t* op = nullptr;
  s = p->prove_start(p, key, &input, gpu, 0, &op, &err);
  if (s == ZKP_OK) s = p->prove_finish(p, op, &out, &err);
  report.check(s == ZKP_OK && proof == expected,
               cat(name, ": its partition, proved as caller-synthesized input on gpu_index ", gpu,
                   ", gives the same proof"),
               s != ZKP_OK ? status_text(s, err) : std::string("the bytes differ"));
}

}  // namespace

void check_prover_vector(Report& report, zkp_prover_t* p, uint32_t n, zkp_prover_t* ref,
                         const std::filesystem::path& dir) {
  const std::string name = (dir.has_filename() ? dir : dir.parent_path()).filename().string();  // "DIR/" too
  report.section(cat("prover '", p->name, "' on ", name));
  const std::string zkey = (dir / "circuit.zkey").string();
  const Bytes wtns = read_file((dir / "witness.wtns").string());
  zkp_error_t err = error_record();
  LoadedKey key, ref_key;
  zkp_status_t s = load_key(p, zkey, -1, key, err);
  if (s == ZKP_ERR_UNSUPPORTED) {
    report.skip(cat(name, ": the plugin does not support this key (", err.message, ")"));
    return;
  }
  if (!report.check(s == ZKP_OK, cat(name, ": key_load (all devices)"), status_text(s, err))) return;
  s = load_key(ref, zkey, -1, ref_key, err);
  if (!report.check(s == ZKP_OK, cat(name, ": the built-in reference prover loads the key"), status_text(s, err)))
    return;
  const KeyFacts mine = key_facts(p, key.key), theirs = key_facts(ref, ref_key.key);
  // Everything but synthesis_bytes, which is the backend's own memory.
  const zkp_key_info_t &a = mine.info, &b = theirs.info;
  const bool same = a.curve == b.curve && a.n_vars == b.n_vars && a.n_public == b.n_public &&
                    a.domain_size == b.domain_size && a.proof_size == b.proof_size && a.public_size == b.public_size;
  report.check(same, cat(name, ": key_info agrees with the built-in prover (", theirs.text(), ")"), mine.text());

  const Bytes rs = fixed_randomness();
  const ProveResult expected = prove(ref, ref_key.key, wtns, rs.data(), 0, 0, err);
  if (!report.check(expected.status == ZKP_OK, cat(name, ": the built-in prover proves"),
                    status_text(expected.status, err)))
    return;
  const ProveResult got = prove(p, key.key, wtns, rs.data(), 0, 0, err);
  report.check(
      got.status == ZKP_OK && got.proof == expected.proof && got.public_inputs == expected.public_inputs,
      cat(name, ": proof and public inputs byte-identical to the built-in prover's for fixed (r, s)"),
      got.status != ZKP_OK ? cat(got.stage, ": ", status_text(got.status, err)) : std::string("the bytes differ"));
  const ProveResult any = prove(p, key.key, wtns, rs.data(), -1, 0, err);
  report.check(
      any.status == ZKP_OK && any.proof == expected.proof,
      cat(name, ": gpu_index -1 (any device) gives the same proof"),
      any.status != ZKP_OK ? cat(any.stage, ": ", status_text(any.status, err)) : std::string("the bytes differ"));

  check_synthesize_into(report, name, p, key.key, wtns, rs, expected.proof, static_cast<int32_t>(n - 1));

  // Many worker and synthesis threads at once: check_threads.cpp.

  const ProveResult fresh = prove(p, key.key, wtns, nullptr, 0, 0, err);
  if (report.check(fresh.status == ZKP_OK && fresh.proof != expected.proof,
                   cat(name, ": without fixed randomness the proof differs (r, s drawn afresh)"),
                   fresh.status != ZKP_OK ? status_text(fresh.status, err)
                                          : std::string("same bytes as the fixed (r, s) proof"))) {
    if (ref->verify != nullptr) {
      int32_t valid = 0;
      s = ref->verify(ref, ref_key.key, fresh.proof.data(), fresh.proof.size(), fresh.public_inputs.data(),
                      fresh.public_inputs.size(), &valid, &err);
      report.check(s == ZKP_OK && valid == 1, cat(name, ": the built-in prover verifies that proof"),
                   cat(status_text(s, err), ", valid ", valid));
    }
  }

  const ProveResult bad = prove(p, key.key, unsatisfied(wtns), rs.data(), 0, 0, err);
  report.check(
      bad.status == ZKP_ERR_UNSATISFIED_WITNESS,
      cat(name, ": a witness that does not satisfy the circuit fails with ZKP_ERR_UNSATISFIED_WITNESS"),
      bad.status == ZKP_OK ? std::string("a proof was returned") : cat(bad.stage, ": ", status_text(bad.status, err)));

  const size_t proof_size = expected.proof.size();
  const ProveResult shortp = prove(p, key.key, wtns, rs.data(), 0, 0, err, proof_size - 1);
  report.check(
      shortp.status == ZKP_ERR_SHORT_BUFFER && shortp.stage == "prove_finish" && shortp.out.proof_size == proof_size,
      cat(name, ": a proof buffer of ", proof_size - 1,
          " bytes: prove_finish answers ZKP_ERR_SHORT_BUFFER and proof_size ", proof_size),
      cat(shortp.stage, ": ", status_text(shortp.status, err), ", proof_size ", shortp.out.proof_size));

  const ProveResult old = prove(p, key.key, wtns, rs.data(), 0, 0, err, SIZE_MAX, sdk::kProveOutputRequiredSize);
  report.check(old.status == ZKP_OK && old.proof == expected.proof && old.out.flags == kOutputCanary,
               cat(name, ": a first-release zkp_prove_output_t (struct_size ", sdk::kProveOutputRequiredSize,
                   ", no flags) is filled and not written past its size"),
               old.status != ZKP_OK ? status_text(old.status, err) : std::string("wrong bytes, or flags written"));

  const ProveResult far = prove(p, key.key, wtns, rs.data(), static_cast<int32_t>(n), 0, err);
  report.check(far.status == ZKP_ERR_INVALID_ARGUMENT && far.stage == "prove_start",
               cat(name, ": prove_start on gpu_index ", n, " (out of range) fails with ZKP_ERR_INVALID_ARGUMENT"),
               cat(far.stage, ": ", status_text(far.status, err)));

  if (p->verify != nullptr) {
    int32_t valid = 0;
    s = p->verify(p, key.key, expected.proof.data(), proof_size, expected.public_inputs.data(),
                  expected.public_inputs.size(), &valid, &err);
    report.check(s == ZKP_OK && valid == 1, cat(name, ": verify accepts the built-in prover's proof"),
                 cat(status_text(s, err), ", valid ", valid));
    if (!expected.public_inputs.empty()) {
      Bytes wrong = expected.public_inputs;
      wrong[0] ^= 1;
      valid = 1;
      s = p->verify(p, key.key, expected.proof.data(), proof_size, wrong.data(), wrong.size(), &valid, &err);
      report.check(s == ZKP_OK && valid == 0, cat(name, ": verify rejects it with a wrong public input"),
                   cat(status_text(s, err), ", valid ", valid));
    }
  }

  // What a key and its proofs allocate comes back with synthesis_free and key_free. One cycle
  // has run above (first-use caches are warm); count malloc over the next few.
  const size_t before = malloc_in_use();
  if (before == 0) {  // a sanitizer's allocator keeps its own books (and checks leaks itself)
    report.skip(cat(name, ": malloc keeps no statistics here (mallinfo2 reports 0): the leak count"));
    return;
  }
  for (int i = 0; i < kLeakCycles; ++i) {
    LoadedKey k;
    if (load_key(p, zkey, -1, k, err) == ZKP_OK) prove(p, k.key, wtns, rs.data(), 0, 0, err);
  }
  const size_t after = malloc_in_use();
  const size_t per_cycle = after > before ? (after - before) / kLeakCycles : 0;
  report.check(per_cycle <= kLeakSlackBytes,
               cat(name, ": key_load, prove, synthesis_free, key_free return what they allocate (", per_cycle,
                   " bytes per cycle kept, at most ", kLeakSlackBytes, ")"));
}

}  // namespace zkp::conformance
