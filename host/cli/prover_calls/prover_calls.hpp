// The prover ABI driven directly, call by call, with no host pipeline in between: what
// `zkpipe check-plugin` (host/cli/conformance) and the prover plugin tests
// (tests/support/plugin_harness.hpp) both need, written once (static library
// zkp_prover_calls). Each call returns the plugin's status and leaves its message in `err`.
#pragma once

#include <zkpipe/zkp_prover.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

namespace zkp::prover_calls {

using Bytes = std::vector<uint8_t>;

// An error record with its header set, message empty.
zkp_error_t error_record();

// Host services that keep nothing: log lines are dropped (a failed call's message is in its
// error record), the clock is steady_clock. Static, valid for the process.
const zkp_host_services_t* quiet_host_services();

// A prover, destroyed with its own destroy().
using ProverPtr = std::unique_ptr<zkp_prover_t, void (*)(zkp_prover_t*)>;
ProverPtr adopt_prover(zkp_prover_t* p);

// A loaded key, freed with its prover's key_free on the thread that destroys this object
// (key_free is [any-thread], with no synthesis or op of the key outstanding). Named so as
// not to be taken for the host's own KeyHandle.
struct LoadedKey {
  zkp_prover_t* prover = nullptr;
  zkp_key_t* key = nullptr;
  LoadedKey() = default;
  LoadedKey(const LoadedKey&) = delete;
  LoadedKey& operator=(const LoadedKey&) = delete;
  ~LoadedKey();
};

zkp_status_t load_key(zkp_prover_t* p, const std::filesystem::path& key_file, int32_t gpu_index, LoadedKey& out,
                      zkp_error_t& err, zkp_key_format_t format = ZKP_KEY_FORMAT_ZKEY);

// The call of prove() that failed.
enum class Stage { none, synthesize, prove_start, prove_finish };
const char* to_string(Stage stage);

// One proof: synthesize `witness` → prove_start(gpu_index, worker) with `randomness`
// (r || s, or nullptr) → prove_finish into `out` (the caller sets its buffers and header) →
// synthesis_free. The status of the first failure; `failed` (if given) names its call.
zkp_status_t prove(zkp_prover_t* p, const zkp_key_t* key, const zkp_witness_t& witness, const uint8_t* randomness,
                   int32_t gpu_index, uint32_t worker, zkp_prove_output_t& out, zkp_error_t& err,
                   Stage* failed = nullptr);

// A file's bytes; throws std::runtime_error naming the file when it cannot be read.
Bytes read_bytes(const std::filesystem::path& path);

}  // namespace zkp::prover_calls
