// The prover ABI as the conformance checks drive it: zkp_prover_calls (host/cli/prover_calls,
// shared with the plugin tests) plus what only check-plugin needs, plugins opened through the
// host's loader and proofs into output structs of a chosen size.
#pragma once

#include "prover_calls/prover_calls.hpp"

#include <zkpipe/zkp_prover.h>
#include <zkpipe/host/plugin_library.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace zkp::conformance {

using prover_calls::Bytes;
using prover_calls::error_record;
using prover_calls::LoadedKey;
using prover_calls::load_key;
using prover_calls::ProverPtr;
using OptionList = std::vector<std::pair<std::string, std::string>>;

// The host services of the objects a check makes and drops: nothing logged, steady_clock.
inline const zkp_host_services_t* host_services() { return prover_calls::quiet_host_services(); }

// A prover and the library it came from (kept loaded while the prover lives: the prover is
// destroyed first).
struct ProverHandle {
  std::shared_ptr<host::PluginLibrary> library;
  ProverPtr prover = prover_calls::adopt_prover(nullptr);
  zkp_prover_t* get() const { return prover.get(); }
};

const zkp_prover_factory_t* prover_factory(const host::PluginLibrary& lib);

// How create_prover describes the host: 2 workers per device, 2 synthesis threads, 1 op per
// worker unless told otherwise.
struct FactsRequest {
  uint32_t struct_size = 0;  // bytes of zkp_prover_facts_t to declare; 0: the whole struct
  uint32_t workers_per_device = 2;
  uint32_t synthesis_threads = 2;
  uint32_t ops_per_worker = 1;
};

// Creates through create_with_facts when the factory has it, else through create (then the
// facts are not told). `services`: what the prover calls back (the quiet ones by default).
zkp_status_t create_prover(std::shared_ptr<host::PluginLibrary> lib, const OptionList& options, ProverHandle& out,
                           zkp_error_t& err, const FactsRequest& facts = {},
                           const zkp_host_services_t* services = host_services());
// Whether the factory's table has create_with_facts.
bool has_create_with_facts(const zkp_prover_factory_t& f);

// What prove() leaves in zkp_prove_output_t.flags before prove_finish: a prover may overwrite
// it only when the caller's struct_size covers the field.
inline constexpr uint32_t kOutputCanary = 0xA5C3A5C3u;

struct ProveResult {
  zkp_status_t status = ZKP_ERR_INTERNAL;
  std::string stage;  // the call that failed: "key_info", "synthesize", "prove_start", "prove_finish"
  zkp_prove_output_t out{};
  Bytes proof, public_inputs;
};
// One proof of `wtns` (a .wtns file's bytes) through prover_calls::prove, into buffers sized
// from key_info unless `proof_capacity` says otherwise, with an output struct of
// `output_struct_size` bytes.
ProveResult prove(zkp_prover_t* p, const zkp_key_t* key, const Bytes& wtns, const uint8_t* randomness,
                  int32_t gpu_index, uint32_t worker, zkp_error_t& err, size_t proof_capacity = SIZE_MAX,
                  uint32_t output_struct_size = sizeof(zkp_prove_output_t));

// A file's bytes; throws sdk::Error(ZKP_ERR_NOT_FOUND) naming it.
Bytes read_file(const std::string& path);

}  // namespace zkp::conformance
