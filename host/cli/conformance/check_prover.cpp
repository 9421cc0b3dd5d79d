#include "check_support.hpp"
#include "checks.hpp"

#include <zkpipe/sdk/error.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>

namespace zkp::conformance {

namespace {

namespace fs = std::filesystem;

void check_factory(Report& report, const std::shared_ptr<host::PluginLibrary>& lib, const Settings& settings) {
  const zkp_prover_factory_t* f = prover_factory(*lib);
  const size_t first_release = offsetof(zkp_prover_factory_t, create) + sizeof f->create;
  report.check(f->header.struct_size >= first_release && f->options_help != nullptr && f->create != nullptr,
               "prover factory: header covers the first release's table, options_help and create are set");
  const bool has_facts = f->header.struct_size >= sizeof(zkp_prover_factory_t) && f->create_with_facts != nullptr;
  if (!has_facts) report.skip("prover factory has no create_with_facts (a first-release table): facts checks");

  const zkp_option_t unknown[] = {{kUnknownOption, "1"}};
  auto refused = [&](const char* how, auto call) {
    zkp_prover_t* p = nullptr;
    zkp_error_t err = error_record();
    const zkp_status_t s = call(&p, &err);
    const bool ok =
        s == ZKP_ERR_INVALID_ARGUMENT && std::strstr(err.message, kUnknownOption) != nullptr && p == nullptr;
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
    const zkp_status_t s =
        create_prover(lib, settings.options, older, err, {.struct_size = sizeof(zkp_struct_header_t)});
    report.check(s == ZKP_OK, "create_with_facts accepts facts of the header alone (an older host)",
                 status_text(s, err));
    struct Newer {
      zkp_prover_facts_t facts;
      uint64_t later_fields[4];
    } newer{facts, {7, 7, 7, 7}};
    newer.facts.header.struct_size = sizeof newer;
    std::vector<zkp_option_t> options;
    for (const auto& [k, v] : settings.options) options.push_back({k.c_str(), v.c_str()});
    zkp_prover_t* p = nullptr;
    const zkp_status_t t =
        f->create_with_facts(host_services(), &newer.facts, options.data(), options.size(), &p, &err);
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
  report.check(s == ZKP_ERR_INVALID_ARGUMENT,
               cat("device_info(", n, ") (out of range) fails with ZKP_ERR_INVALID_ARGUMENT"), status_text(s, err));

  // An output struct of the header alone: refused as too small, or left alone past its size.
  zkp_device_info_t small;
  std::memset(&small, 0xEE, sizeof small);
  small.header = {sizeof(zkp_struct_header_t), 1};
  s = p->device_info(p, 0, &small, &err);
  const auto* tail = reinterpret_cast<const unsigned char*>(&small) + sizeof(zkp_struct_header_t);
  const bool untouched =
      std::all_of(tail, tail + sizeof small - sizeof(zkp_struct_header_t), [](unsigned char c) { return c == 0xEE; });
  report.check(s == ZKP_ERR_ABI_MISMATCH || (s == ZKP_OK && untouched),
               "device_info into a struct of the header alone: ZKP_ERR_ABI_MISMATCH, or nothing written past it",
               cat(status_text(s, err), untouched ? "" : " (bytes past struct_size written)"));

  LoadedKey key;
  s = load_key(p, some_zkey, static_cast<int32_t>(n), key, err);
  report.check(s == ZKP_ERR_INVALID_ARGUMENT && key.key == nullptr,
               cat("key_load on gpu_index ", n, " (out of range) fails with ZKP_ERR_INVALID_ARGUMENT"),
               status_text(s, err));
}

// The built-in prover the proofs must equal; false (reported) if it cannot be made.
bool create_reference(Report& report, const Settings& settings, ProverHandle& ref) {
  std::shared_ptr<host::PluginLibrary> ref_lib;
  try {
    ref_lib = host::PluginLibrary::open(settings.reference_prover);
  } catch (const sdk::Error& e) {
    report.fail(cat("the built-in reference prover loads: ", e.what()));
    return false;
  }
  zkp_error_t err = error_record();
  const zkp_status_t s = create_prover(ref_lib, {}, ref, err);
  return report.check(s == ZKP_OK, cat("the built-in reference prover '", ref_lib->name(), "' is created"),
                      status_text(s, err));
}

}  // namespace

void check_prover(Report& report, std::shared_ptr<host::PluginLibrary> lib, const Settings& settings) {
  report.section(cat("prover factory of '", lib->name(), "'"));
  check_factory(report, lib, settings);

  ProverHandle h;
  zkp_error_t err = error_record();
  zkp_status_t s = create_prover(lib, settings.options, h, err);
  if (!report.check(s == ZKP_OK && h.get() != nullptr, "creates a prover with the given options", status_text(s, err)))
    return;
  zkp_prover_t* p = h.get();
  const bool complete = p->destroy && p->device_count && p->device_info && p->key_load && p->key_info && p->key_free &&
                        p->synthesize && p->synthesis_free && p->prove_start && p->prove_finish;
  // The first release's table ends at verify (synthesize_into came later and is optional).
  constexpr size_t kFirstTableSize = offsetof(zkp_prover_t, verify) + sizeof(p->verify);
  report.check(p->header.struct_size >= kFirstTableSize && p->name != nullptr && complete,
               "the prover table: header covers it, name and every function set");
  report.check((p->verify != nullptr) == ((p->flags & ZKP_PROVER_FLAG_VERIFY) != 0),
               "verify is set exactly when ZKP_PROVER_FLAG_VERIFY is");

  const uint32_t n = p->device_count(p);
  ProverHandle ref;
  if (n == 0) {
    report.skip("the prover reports no device on this machine: device and proof checks");
  } else {
    report.pass(cat("device_count: ", n));
    const std::string some_zkey = settings.vectors.empty()
                                      ? std::string("/nonexistent/circuit.zkey")
                                      : (fs::path(settings.vectors[0]) / "circuit.zkey").string();
    check_devices(report, p, n, some_zkey);
    if ((p->flags & ZKP_PROVER_FLAG_SIMULATED) != 0) {
      report.skip("a simulated prover (ZKP_PROVER_FLAG_SIMULATED) makes no proofs: proof checks");
    } else if (settings.vectors.empty()) {
      report.skip("no vectors given (--vectors DIR,...): proof checks");
    } else if (create_reference(report, settings, ref)) {
      for (const std::string& dir : settings.vectors) check_prover_vector(report, p, n, ref.get(), dir);
    }
  }
  h.prover.reset();  // one prover at a time: the thread rules make their own
  check_prover_threads(report, lib, settings, ref.get());
}

}  // namespace zkp::conformance
