// The host configuration: an INI file plus command-line style "key=value" overrides,
// applied in order (a later value replaces an earlier one for the same key).
//
//   prover = sim                 # top-level keys: config_table.hpp, or `zkpipe --help`
//   workers_per_device = 2
//   [prover]                     # passed to the prover plugin as zkp_option_t, unread
//   devices = 2                  #   by the host: the plugin validates its own options
//   [pacer]
//   target = 8
//
// Overrides use the same names: "budget=64GiB", "prover.devices=2", "pacer.target=8".
// Any other key is an error that names the key and where it was written (file and
// line, or the override); so is a bad value (it names the key, the value and what was
// expected). Plugin options keep where they were written too, so a plugin's refusal of
// one can be reported with it (with_option_origins).
#pragma once

#include <zkpipe/host/log_format.hpp>
#include <zkpipe/host/logging.hpp>
#include <zkpipe/zkp_common.h>

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zkp::host {

// Where synthesized partitions wait for a GPU worker.
enum class QueueMode {
  per_device,  // one queue per device: a pinned partition joins its device's queue, an
               // unpinned one the least-loaded device's queue when its synthesis is done
  shared,      // one queue: a worker takes the first partition it may run
};

const char* queue_mode_name(QueueMode mode);

// Where the prover's calls run (issue 17).
enum class Isolation {
  thread,   // on the host's own threads, in this process
  process,  // each device in a zkpipe-device process of its own, restarted when it dies
};

// A key=value pair for a plugin (from [prover]/[pacer] or "prover.key=value").
struct PluginOption {
  std::string key;
  std::string value;
  std::string origin = {};  // where it was written: "path:line", "override 'prover.k=v'"; "": not known
};

// The C view of `options` for a plugin factory; its pointers borrow from `options`.
std::vector<zkp_option_t> to_c_options(const std::vector<PluginOption>& options);

// Each field's default is its key's in host_options() (config_table.hpp), set by
// Config(); the empty initializers below are no second list of defaults, they only
// keep every field initialized while Config() runs.
struct Config {
  std::string prover;
  std::string pacer;
  std::vector<std::string> plugin_path;  // searched before ZKPIPE_PLUGIN_PATH
  uint32_t workers_per_device{};
  uint32_t synthesis_threads{};
  uint64_t budget_bytes{};
  QueueMode queue{};
  bool self_check{};
  bool worker_overlap{};  // a worker starts its next queued partition before finishing one
  uint32_t device_retries{};  // retries on other devices after a device error (unpinned jobs)
  spdlog::level::level_enum log_level{};
  LogFormat log_format{};  // json: the process's stderr lines become JSON (text leaves them)
  uint32_t status_every{};  // admissions between pacer status lines; 0: never
  uint32_t admission_watchdog_ms{};  // the admission watchdog's shortest stall; 0: off
  uint32_t watchdog_floor_ms{};  // the partition watchdog's shortest hang; 0: off
  Isolation isolation{};
  std::string isolation_executable;  // zkpipe-device; "": beside the host's binary
  bool isolation_synthesize_ahead = false;  // isolation_synthesis = ahead (else inline)
  std::vector<PluginOption> prover_options;
  std::vector<PluginOption> pacer_options;
  std::vector<PluginOption> serve_options;  // [serve] / serve.KEY: read by `zkpipe serve` only
  // The host keys as they were written (key, value text, origin), each once, the last writing
  // winning: what changed_keys() compares (a reload names every key it cannot apply).
  std::vector<PluginOption> host_settings;

  // The defaults of host_options(), this machine's where they depend on it.
  Config();

  // Reads `file` (if given) and then the overrides. Throws zkp::sdk::Error:
  // ZKP_ERR_NOT_FOUND for a missing file, ZKP_ERR_INVALID_ARGUMENT for a syntax error,
  // an unknown key or a bad value.
  static Config load(const std::optional<std::filesystem::path>& file,
                     std::span<const std::string> overrides);
};

// `message` (a plugin's refusal of its options) followed by where each option it quotes
// ('KEY') was written: "...: option 'kp' = 'x' is not ... (pacer.kp at /etc/zkpipe.ini:7)".
// `section` is "prover" or "pacer". Unchanged when it quotes none of them.
std::string with_option_origins(const std::string& message, const std::vector<PluginOption>& options,
                                const char* section);

// The reference as `zkpipe --help` prints it.
void print_config_reference(std::ostream& out);

// Every key written differently in `after` than in `before` (set in one and not the other,
// or to another text): host keys by name ("workers_per_device"), plugin and serve options with
// their section ("prover.devices", "serve.tcp"); sorted. What a running process told to reload
// `after` compares with what it started from, to name what it cannot apply.
std::vector<std::string> changed_keys(const Config& before, const Config& after);

// The README's configuration table (section "## Configuration"), as markdown; `zkpipe
// --help --markdown` prints it.
std::string config_markdown_table();

// The machine-dependent defaults.
uint32_t default_synthesis_threads();
uint64_t default_budget_bytes();

}  // namespace zkp::host
