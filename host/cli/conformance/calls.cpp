#include "calls.hpp"

#include <zkpipe/sdk/error.hpp>

#include <stdexcept>

namespace zkp::conformance {

const zkp_prover_factory_t* prover_factory(const host::PluginLibrary& lib) {
  return static_cast<const zkp_prover_factory_t*>(lib.factory(ZKP_PROVER_FACTORY_ID));
}

bool has_create_with_facts(const zkp_prover_factory_t& f) {
  return f.header.struct_size >= offsetof(zkp_prover_factory_t, create_with_facts) + sizeof f.create_with_facts &&
         f.create_with_facts != nullptr;
}

zkp_status_t create_prover(std::shared_ptr<host::PluginLibrary> lib, const OptionList& options, ProverHandle& out,
                           zkp_error_t& err, const FactsRequest& request, const zkp_host_services_t* services) {
  const zkp_prover_factory_t* f = prover_factory(*lib);
  std::vector<zkp_option_t> c_options;
  for (const auto& [k, v] : options) c_options.push_back({k.c_str(), v.c_str()});
  zkp_prover_t* p = nullptr;
  zkp_status_t s;
  if (has_create_with_facts(*f)) {
    auto facts = sdk::make_struct<zkp_prover_facts_t>();
    facts.workers_per_device = request.workers_per_device;
    facts.synthesis_threads = request.synthesis_threads;
    facts.ops_per_worker = request.ops_per_worker;
    if (request.struct_size != 0) facts.header.struct_size = request.struct_size;
    s = f->create_with_facts(services, &facts, c_options.data(), c_options.size(), &p, &err);
  } else {
    s = f->create(services, c_options.data(), c_options.size(), &p, &err);
  }
  out.prover = prover_calls::adopt_prover(s == ZKP_OK ? p : nullptr);
  if (s == ZKP_OK) out.library = std::move(lib);
  return s;
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
  r.proof.assign(proof_capacity == SIZE_MAX ? info.proof_size : proof_capacity, 0);
  r.public_inputs.assign(info.public_size, 0);
  r.out = sdk::make_struct<zkp_prove_output_t>();
  r.out.header.struct_size = output_struct_size;
  r.out.flags = output_struct_size < sizeof(zkp_prove_output_t) ? kOutputCanary : 0;
  r.out.proof = r.proof.data();
  r.out.proof_capacity = r.proof.size();
  r.out.public_inputs = r.public_inputs.data();
  r.out.public_capacity = r.public_inputs.size();
  prover_calls::Stage failed = prover_calls::Stage::none;
  r.status = prover_calls::prove(p, key, witness, randomness, gpu_index, worker, r.out, err, &failed);
  r.stage = prover_calls::to_string(failed);
  return r;
}

Bytes read_file(const std::string& path) {
  try {
    return prover_calls::read_bytes(path);
  } catch (const std::runtime_error&) {
    throw sdk::Error(ZKP_ERR_NOT_FOUND, path + ": cannot be opened");
  }
}

}  // namespace zkp::conformance
