// The prover ABI driven directly, call by call, as the conformance checks need it: no host
// pipeline in between, so what a check sees is what the plugin answered. Each helper returns
// the plugin's status and leaves its message in `err`.
#pragma once

#include <zkpipe/zkp_prover.h>
#include <zkpipe/host/plugin_library.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace zkp::conformance {

using Bytes = std::vector<uint8_t>;
using OptionList = std::vector<std::pair<std::string, std::string>>;

zkp_error_t error_record();

// The host services every checked object gets: log lines are kept, not printed (a check that
// fails prints the plugin's message), the clock is steady_clock.
const zkp_host_services_t* host_services();

// A prover and the library it came from (kept loaded while the prover lives).
struct ProverHandle {
  std::shared_ptr<host::PluginLibrary> library;
  zkp_prover_t* prover = nullptr;
  ProverHandle() = default;
  ProverHandle(const ProverHandle&) = delete;
  ProverHandle& operator=(const ProverHandle&) = delete;
  ~ProverHandle();
};

const zkp_prover_factory_t* prover_factory(const host::PluginLibrary& lib);

// Creates through create_with_facts when the factory has it (facts: `facts_size` bytes of a
// zkp_prover_facts_t of 2 workers per device, 2 synthesis threads, 1 op per worker; 0: the
// whole struct), else through create.
zkp_status_t create_prover(std::shared_ptr<host::PluginLibrary> lib, const OptionList& options, ProverHandle& out,
                           zkp_error_t& err, uint32_t facts_size = 0);

struct KeyHandle {
  zkp_prover_t* prover = nullptr;
  zkp_key_t* key = nullptr;
  KeyHandle() = default;
  KeyHandle(const KeyHandle&) = delete;
  KeyHandle& operator=(const KeyHandle&) = delete;
  ~KeyHandle();
};

zkp_status_t load_key(zkp_prover_t* p, const std::string& zkey, int32_t gpu_index, KeyHandle& out, zkp_error_t& err);

// One proof: synthesize `wtns` (a .wtns file's bytes), prove_start on `gpu_index` (for
// `worker`) with
// `randomness` (r || s, or nullptr), prove_finish into `out`, whose buffers the helper sizes
// from key_info unless `proof_capacity` says otherwise; synthesis_free afterwards.
// What prove() leaves in zkp_prove_output_t.flags before prove_finish: a prover may overwrite
// it only when the caller's struct_size covers the field.
inline constexpr uint32_t kOutputCanary = 0xA5C3A5C3u;

struct ProveResult {
  zkp_status_t status = ZKP_ERR_INTERNAL;
  std::string stage;  // the call that failed: "synthesize", "prove_start", "prove_finish"
  zkp_prove_output_t out{};
  Bytes proof, public_inputs;
};
ProveResult prove(zkp_prover_t* p, const zkp_key_t* key, const Bytes& wtns, const uint8_t* randomness,
                  int32_t gpu_index, uint32_t worker, zkp_error_t& err, size_t proof_capacity = SIZE_MAX,
                  uint32_t output_struct_size = sizeof(zkp_prove_output_t));

Bytes read_file(const std::string& path);

}  // namespace zkp::conformance
