#include "checks.hpp"

#include <zkpipe/sdk/error.hpp>
#include <zkpipe/sdk/prover.hpp>

#include <malloc.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <thread>

namespace zkp::conformance {

namespace {

namespace fs = std::filesystem;

constexpr const char* kUnknownOption = "zkp_check_no_such_option";
constexpr int kLeakCycles = 3;
// Growth per key_load..key_free cycle tolerated as allocator noise (caches of the C++ runtime
// and of malloc itself); a leaked key or synthesis of the smallest vector is far larger.
constexpr size_t kLeakSlackBytes = 64 * 1024;

// Fixed (r, s), below r on both curves (top byte 0x0f), as tests/cuda_prover fixes them.
Bytes fixed_randomness() {
  Bytes rs(2 * ZKP_SCALAR_SIZE);
  for (size_t i = 0; i < rs.size(); ++i) rs[i] = static_cast<uint8_t>(i * 7 + 1);
  rs[ZKP_SCALAR_SIZE - 1] = rs[2 * ZKP_SCALAR_SIZE - 1] = 0x0f;
  return rs;
}

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

std::string status_text(zkp_status_t s, const zkp_error_t& err) {
  return cat(zkp_status_name(s), err.message[0] ? ": " : "", err.message);
}

void check_factory(Report& report, const std::shared_ptr<host::PluginLibrary>& lib, const Settings& settings) {
  const zkp_prover_factory_t* f = prover_factory(*lib);
  const size_t first_release = offsetof(zkp_prover_factory_t, create) + sizeof f->create;
  report.check(f->header.struct_size >= first_release && f->options_help != nullptr && f->create != nullptr,
               "prover factory: header covers the first release's table, options_help and create are set");
  const bool has_facts =
      f->header.struct_size >= sizeof(zkp_prover_factory_t) && f->create_with_facts != nullptr;
  if (!has_facts) report.skip("prover factory has no create_with_facts (a first-release table): facts checks");

  const zkp_option_t unknown[] = {{kUnknownOption, "1"}};
  auto refused = [&](const char* how, auto call) {
    zkp_prover_t* p = nullptr;
    zkp_error_t err = error_record();
    const zkp_status_t s = call(&p, &err);
    const bool ok = s == ZKP_ERR_INVALID_ARGUMENT && std::strstr(err.message, kUnknownOption) != nullptr && p == nullptr;
    if (s == ZKP_OK && p != nullptr) p->destroy(p);
    report.check(ok, cat(how, " refuses an unknown option with ZKP_ERR_INVALID_ARGUMENT, naming it"),
                 status_text(s, err));
  };
  refused("create", [&](zkp_prover_t** p, zkp_error_t* err) { return f->create(host_services(), unknown, 1, p, err); });
  auto facts = sdk::make_struct<zkp_prover_facts_t>();
  facts.workers_per_device = facts.synthesis_threads = facts.ops_per_worker = 1;
  if (has_facts) {
    refused("create_with_facts", [&](zkp_prover_t** p, zkp_error_t* err) {
      return f->create_with_facts(host_services(), &facts, unknown, 1, p, err);
    });
  }

  // An error record shorter than zkp_error_t (an older or smaller caller) must not be written
  // past its struct_size: the message stays as the caller left it.
  {
    zkp_error_t err = error_record();
    err.header.struct_size = offsetof(zkp_error_t, message);
    std::memset(err.message, 'Z', sizeof err.message);
    zkp_prover_t* p = nullptr;
    const zkp_status_t s = f->create(host_services(), unknown, 1, &p, &err);
    if (s == ZKP_OK && p != nullptr) p->destroy(p);
    const bool untouched = std::all_of(std::begin(err.message), std::end(err.message), [](char c) { return c == 'Z'; });
    report.check(s != ZKP_OK && untouched, "a zkp_error_t whose struct_size ends before message is not written past it",
                 s == ZKP_OK ? "the unknown option was accepted" : "the message bytes were written");
  }

  if (has_facts) {
    // An older host's facts (the header alone) and a newer host's (longer than this header's).
    ProverHandle older;
    zkp_error_t err = error_record();
    const zkp_status_t s = create_prover(lib, settings.options, older, err, sizeof(zkp_struct_header_t));
    report.check(s == ZKP_OK, "create_with_facts accepts facts of the header alone (an older host)", status_text(s, err));
    struct Newer {
      zkp_prover_facts_t facts;
      uint64_t later_fields[4];
    } newer{facts, {7, 7, 7, 7}};
    newer.facts.header.struct_size = sizeof newer;
    std::vector<zkp_option_t> options;
    for (const auto& [k, v] : settings.options) options.push_back({k.c_str(), v.c_str()});
    zkp_prover_t* p = nullptr;
    const zkp_status_t t = f->create_with_facts(host_services(), &newer.facts, options.data(), options.size(), &p, &err);
    if (t == ZKP_OK && p != nullptr) p->destroy(p);
    report.check(t == ZKP_OK, "create_with_facts accepts longer facts (a newer host)", status_text(t, err));
  }
}

void check_devices(Report& report, zkp_prover_t* p, uint32_t n, const std::string& some_zkey) {
  auto info = sdk::make_struct<zkp_device_info_t>();
  zkp_error_t err = error_record();
  zkp_status_t s = p->device_info(p, 0, &info, &err);
  report.check(s == ZKP_OK && info.name[0] != 0, cat("device_info(0) describes device 0: '", info.name, "'"),
               status_text(s, err));
  s = p->device_info(p, n, &info, &err);
  report.check(s == ZKP_ERR_INVALID_ARGUMENT, cat("device_info(", n, ") (out of range) fails with ZKP_ERR_INVALID_ARGUMENT"),
               status_text(s, err));

  // An output struct of the header alone: refused as too small, or left alone past its size.
  zkp_device_info_t small;
  std::memset(&small, 0xEE, sizeof small);
  small.header = {sizeof(zkp_struct_header_t), 1};
  s = p->device_info(p, 0, &small, &err);
  const auto* tail = reinterpret_cast<const unsigned char*>(&small) + sizeof(zkp_struct_header_t);
  const bool untouched = std::all_of(tail, tail + sizeof small - sizeof(zkp_struct_header_t), [](unsigned char c) { return c == 0xEE; });
  report.check(s == ZKP_ERR_ABI_MISMATCH || (s == ZKP_OK && untouched),
               "device_info into a struct of the header alone: ZKP_ERR_ABI_MISMATCH, or nothing written past it",
               cat(status_text(s, err), untouched ? "" : " (bytes past struct_size written)"));

  KeyHandle key;
  s = load_key(p, some_zkey, static_cast<int32_t>(n), key, err);
  report.check(s == ZKP_ERR_INVALID_ARGUMENT && key.key == nullptr,
               cat("key_load on gpu_index ", n, " (out of range) fails with ZKP_ERR_INVALID_ARGUMENT"), status_text(s, err));
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

void check_vector(Report& report, zkp_prover_t* p, uint32_t n, zkp_prover_t* ref, const fs::path& dir) {
  const std::string name = dir.filename().string();
  report.section(cat("prover '", p->name, "' on ", name));
  const std::string zkey = (dir / "circuit.zkey").string();
  const Bytes wtns = read_file((dir / "witness.wtns").string());
  zkp_error_t err = error_record();
  KeyHandle key, ref_key;
  zkp_status_t s = load_key(p, zkey, -1, key, err);
  if (s == ZKP_ERR_UNSUPPORTED) {
    report.skip(cat(name, ": the plugin does not support this key (", err.message, ")"));
    return;
  }
  if (!report.check(s == ZKP_OK, cat(name, ": key_load (all devices)"), status_text(s, err))) return;
  s = load_key(ref, zkey, -1, ref_key, err);
  if (!report.check(s == ZKP_OK, cat(name, ": the built-in reference prover loads the key"), status_text(s, err))) return;
  const KeyFacts mine = key_facts(p, key.key), theirs = key_facts(ref, ref_key.key);
  const bool same = std::memcmp(&mine.info.curve, &theirs.info.curve,
                                offsetof(zkp_key_info_t, synthesis_bytes) - offsetof(zkp_key_info_t, curve)) == 0 &&
                    mine.info.proof_size == theirs.info.proof_size && mine.info.public_size == theirs.info.public_size;
  report.check(same, cat(name, ": key_info agrees with the built-in prover (", theirs.text(), ")"), mine.text());

  const Bytes rs = fixed_randomness();
  const ProveResult expected = prove(ref, ref_key.key, wtns, rs.data(), 0, 0, err);
  if (!report.check(expected.status == ZKP_OK, cat(name, ": the built-in prover proves"), status_text(expected.status, err))) return;
  const ProveResult got = prove(p, key.key, wtns, rs.data(), 0, 0, err);
  report.check(got.status == ZKP_OK && got.proof == expected.proof && got.public_inputs == expected.public_inputs,
               cat(name, ": proof and public inputs byte-identical to the built-in prover's for fixed (r, s)"),
               got.status != ZKP_OK ? cat(got.stage, ": ", status_text(got.status, err)) : std::string("the bytes differ"));
  const ProveResult any = prove(p, key.key, wtns, rs.data(), -1, 0, err);
  report.check(any.status == ZKP_OK && any.proof == expected.proof, cat(name, ": gpu_index -1 (any device) gives the same proof"),
               any.status != ZKP_OK ? cat(any.stage, ": ", status_text(any.status, err)) : std::string("the bytes differ"));

  // Two worker threads at once: synthesize [any-thread], prove_start/finish [worker-thread].
  ProveResult both[2];
  zkp_error_t errs[2] = {error_record(), error_record()};
  {
    std::thread t0([&] { both[0] = prove(p, key.key, wtns, rs.data(), 0, 0, errs[0]); });
    std::thread t1([&] { both[1] = prove(p, key.key, wtns, rs.data(), 0, 1, errs[1]); });
    t0.join();
    t1.join();
  }
  report.check(both[0].status == ZKP_OK && both[1].status == ZKP_OK && both[0].proof == expected.proof &&
                   both[1].proof == expected.proof,
               cat(name, ": two worker threads proving at once (workers 0 and 1 of device 0) both give that proof"),
               both[0].status == ZKP_OK && both[1].status == ZKP_OK
                   ? std::string("the bytes differ")
                   : cat(status_text(both[0].status, errs[0]), " / ", status_text(both[1].status, errs[1])));

  const ProveResult fresh = prove(p, key.key, wtns, nullptr, 0, 0, err);
  if (report.check(fresh.status == ZKP_OK && fresh.proof != expected.proof,
                   cat(name, ": without fixed randomness the proof differs (r, s drawn afresh)"),
                   fresh.status != ZKP_OK ? status_text(fresh.status, err) : std::string("same bytes as the fixed (r, s) proof"))) {
    if (ref->verify != nullptr) {
      int32_t valid = 0;
      s = ref->verify(ref, ref_key.key, fresh.proof.data(), fresh.proof.size(), fresh.public_inputs.data(),
                      fresh.public_inputs.size(), &valid, &err);
      report.check(s == ZKP_OK && valid == 1, cat(name, ": the built-in prover verifies that proof"),
                   cat(status_text(s, err), ", valid ", valid));
    }
  }

  const ProveResult bad = prove(p, key.key, unsatisfied(wtns), rs.data(), 0, 0, err);
  report.check(bad.status == ZKP_ERR_UNSATISFIED_WITNESS,
               cat(name, ": a witness that does not satisfy the circuit fails with ZKP_ERR_UNSATISFIED_WITNESS"),
               bad.status == ZKP_OK ? std::string("a proof was returned") : cat(bad.stage, ": ", status_text(bad.status, err)));

  const size_t proof_size = expected.proof.size();
  const ProveResult shortp = prove(p, key.key, wtns, rs.data(), 0, 0, err, proof_size - 1);
  report.check(shortp.status == ZKP_ERR_SHORT_BUFFER && shortp.stage == "prove_finish" && shortp.out.proof_size == proof_size,
               cat(name, ": a proof buffer of ", proof_size - 1, " bytes: prove_finish answers ZKP_ERR_SHORT_BUFFER and proof_size ",
                   proof_size),
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
    KeyHandle k;
    if (load_key(p, zkey, -1, k, err) == ZKP_OK) prove(p, k.key, wtns, rs.data(), 0, 0, err);
  }
  const size_t after = malloc_in_use();
  const size_t per_cycle = after > before ? (after - before) / kLeakCycles : 0;
  report.check(per_cycle <= kLeakSlackBytes,
               cat(name, ": key_load, prove, synthesis_free, key_free return what they allocate (",
                   per_cycle, " bytes per cycle kept, at most ", kLeakSlackBytes, ")"));
}

}  // namespace

void check_prover(Report& report, std::shared_ptr<host::PluginLibrary> lib, const Settings& settings) {
  report.section(cat("prover factory of '", lib->name(), "'"));
  check_factory(report, lib, settings);

  ProverHandle h;
  zkp_error_t err = error_record();
  zkp_status_t s = create_prover(lib, settings.options, h, err);
  if (!report.check(s == ZKP_OK && h.prover != nullptr, "creates a prover with the given options", status_text(s, err))) return;
  zkp_prover_t* p = h.prover;
  const bool complete = p->destroy && p->device_count && p->device_info && p->key_load && p->key_info && p->key_free &&
                        p->synthesize && p->synthesis_free && p->prove_start && p->prove_finish;
  report.check(p->header.struct_size >= sizeof(zkp_prover_t) && p->name != nullptr && complete,
               "the prover table: header covers it, name and every function set");
  report.check((p->verify != nullptr) == ((p->flags & ZKP_PROVER_FLAG_VERIFY) != 0),
               "verify is set exactly when ZKP_PROVER_FLAG_VERIFY is");

  const uint32_t n = p->device_count(p);
  if (n == 0) {
    report.skip("the prover reports no device on this machine: device and proof checks");
    return;
  }
  report.pass(cat("device_count: ", n));
  const std::string some_zkey = settings.vectors.empty() ? std::string("/nonexistent/circuit.zkey")
                                                         : (fs::path(settings.vectors[0]) / "circuit.zkey").string();
  check_devices(report, p, n, some_zkey);

  if ((p->flags & ZKP_PROVER_FLAG_SIMULATED) != 0) {
    report.skip("a simulated prover (ZKP_PROVER_FLAG_SIMULATED) makes no proofs: proof checks");
    return;
  }
  if (settings.vectors.empty()) {
    report.skip("no vectors given (--vectors DIR,...): proof checks");
    return;
  }
  std::shared_ptr<host::PluginLibrary> ref_lib;
  try {
    ref_lib = host::PluginLibrary::open(settings.reference_prover);
  } catch (const sdk::Error& e) {
    report.fail(cat("the built-in reference prover loads: ", e.what()));
    return;
  }
  ProverHandle ref;
  s = create_prover(ref_lib, {}, ref, err);
  if (!report.check(s == ZKP_OK, cat("the built-in reference prover '", ref_lib->name(), "' is created"), status_text(s, err))) return;
  for (const std::string& dir : settings.vectors) check_vector(report, p, n, ref.prover, dir);
}

}  // namespace zkp::conformance
