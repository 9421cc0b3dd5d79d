#include "prover_calls.hpp"

#include <zkpipe/sdk/error.hpp>

#include <chrono>
#include <fstream>
#include <iterator>

namespace zkp::conformance {

zkp_error_t error_record() { return sdk::make_struct<zkp_error_t>(); }

const zkp_host_services_t* host_services() {
  static const zkp_host_services_t services = [] {
    auto s = sdk::make_struct<zkp_host_services_t>();
    s.log = [](void*, zkp_log_level_t, const char*) {};
    s.now_ns = [](void*) -> uint64_t {
      return static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
              .count());
    };
    return s;
  }();
  return &services;
}

ProverHandle::~ProverHandle() {
  if (prover != nullptr) prover->destroy(prover);
}

KeyHandle::~KeyHandle() {
  if (key != nullptr) prover->key_free(prover, key);
}

const zkp_prover_factory_t* prover_factory(const host::PluginLibrary& lib) {
  return static_cast<const zkp_prover_factory_t*>(lib.factory(ZKP_PROVER_FACTORY_ID));
}

zkp_status_t create_prover(std::shared_ptr<host::PluginLibrary> lib, const OptionList& options, ProverHandle& out,
                           zkp_error_t& err, uint32_t facts_size) {
  const zkp_prover_factory_t* f = prover_factory(*lib);
  std::vector<zkp_option_t> c_options;
  for (const auto& [k, v] : options) c_options.push_back({k.c_str(), v.c_str()});
  const bool has_facts =
      f->header.struct_size >= offsetof(zkp_prover_factory_t, create_with_facts) + sizeof f->create_with_facts &&
      f->create_with_facts != nullptr;
  zkp_status_t s;
  if (has_facts) {
    auto facts = sdk::make_struct<zkp_prover_facts_t>();
    facts.workers_per_device = facts.synthesis_threads = 2;
    facts.ops_per_worker = 1;
    if (facts_size != 0) facts.header.struct_size = facts_size;
    s = f->create_with_facts(host_services(), &facts, c_options.data(), c_options.size(), &out.prover, &err);
  } else {
    s = f->create(host_services(), c_options.data(), c_options.size(), &out.prover, &err);
  }
  if (s == ZKP_OK) out.library = std::move(lib);
  return s;
}

zkp_status_t load_key(zkp_prover_t* p, const std::string& zkey, int32_t gpu_index, KeyHandle& out, zkp_error_t& err) {
  auto source = sdk::make_struct<zkp_key_source_t>();
  source.path = zkey.c_str();
  out.prover = p;
  return p->key_load(p, &source, gpu_index, &out.key, &err);
}

ProveResult prove(zkp_prover_t* p, const zkp_key_t* key, const Bytes& wtns, const uint8_t* randomness,
                  int32_t gpu_index, uint32_t worker, zkp_error_t& err, size_t proof_capacity,
                  uint32_t output_struct_size) {
  ProveResult r;
  auto info = sdk::make_struct<zkp_key_info_t>();
  if ((r.status = p->key_info(p, key, &info, &err)) != ZKP_OK) {
    r.stage = "key_info";
    return r;
  }
  auto witness = sdk::make_struct<zkp_witness_t>();
  witness.kind = ZKP_WITNESS_WTNS_BUFFER;
  witness.data = wtns.data();
  witness.size = wtns.size();
  zkp_synthesis_t* synthesis = nullptr;
  if ((r.status = p->synthesize(p, key, &witness, &synthesis, &err)) != ZKP_OK) {
    r.stage = "synthesize";
    return r;
  }
  auto input = sdk::make_struct<zkp_prove_input_t>();
  input.synthesis = synthesis;
  input.randomness = randomness;
  zkp_prove_op_t* op = nullptr;
  r.status = p->prove_start(p, key, &input, gpu_index, worker, &op, &err);
  if (r.status != ZKP_OK) {
    r.stage = "prove_start";
  } else {
    r.proof.assign(proof_capacity == SIZE_MAX ? info.proof_size : proof_capacity, 0);
    r.public_inputs.assign(info.public_size, 0);
    r.out = sdk::make_struct<zkp_prove_output_t>();
    r.out.header.struct_size = output_struct_size;
    r.out.flags = output_struct_size < sizeof(zkp_prove_output_t) ? kOutputCanary : 0;
    r.out.proof = r.proof.data();
    r.out.proof_capacity = r.proof.size();
    r.out.public_inputs = r.public_inputs.data();
    r.out.public_capacity = r.public_inputs.size();
    if ((r.status = p->prove_finish(p, op, &r.out, &err)) != ZKP_OK) r.stage = "prove_finish";
  }
  p->synthesis_free(p, synthesis);
  return r;
}

Bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw sdk::Error(ZKP_ERR_NOT_FOUND, path + ": cannot be opened");
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace zkp::conformance
