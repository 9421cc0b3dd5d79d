// The host configuration: an INI file plus command-line style "key=value" overrides,
// applied in order (a later value replaces an earlier one for the same key).
//
//   prover = sim                 # top-level keys: see config_options() or `zkpipe --help`
//   workers_per_device = 2
//   [prover]                     # passed to the prover plugin as zkp_option_t, unread
//   devices = 2                  #   by the host: the plugin validates its own options
//   [pacer]
//   target = 8
//
// Overrides use the same names: "budget=64GiB", "prover.devices=2", "pacer.target=8".
// Any other key is an error that names the key and where it was written (file and
// line, or the override); so is a bad value (it names the key and the value).
#pragma once

#include <zkpipe/host/logging.hpp>
#include <zkpipe/zkp_common.h>

#include <boost/program_options/options_description.hpp>

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

// A key=value pair for a plugin (from [prover]/[pacer] or "prover.key=value").
struct PluginOption {
  std::string key;
  std::string value;
};

// The C view of `options` for a plugin factory; its pointers borrow from `options`.
std::vector<zkp_option_t> to_c_options(const std::vector<PluginOption>& options);

struct Config {
  std::string prover = "cpu";
  std::string pacer = "greedy";
  std::vector<std::string> plugin_path;  // searched before ZKPIPE_PLUGIN_PATH
  uint32_t workers_per_device = 2;
  uint32_t synthesis_threads = 0;  // set by load(): hardware threads unless configured
  uint64_t budget_bytes = 0;       // set by load(): half of physical memory unless configured
  QueueMode queue = QueueMode::per_device;
  bool self_check = true;
  bool worker_overlap = true;  // a worker starts its next queued partition before finishing one
  uint32_t device_retries = 2;  // retries on other devices after a device error (unpinned jobs)
  spdlog::level::level_enum log_level = spdlog::level::info;
  uint32_t status_every = 10;  // admissions between pacer status lines; 0: never
  std::vector<PluginOption> prover_options;
  std::vector<PluginOption> pacer_options;

  // Reads `file` (if given) and then the overrides. Throws zkp::sdk::Error:
  // ZKP_ERR_NOT_FOUND for a missing file, ZKP_ERR_INVALID_ARGUMENT for a syntax error,
  // an unknown key or a bad value.
  static Config load(const std::optional<std::filesystem::path>& file,
                     std::span<const std::string> overrides);
};

// One documented configuration key.
struct ConfigKey {
  const char* key;
  std::string default_text;  // "" when there is none
  const char* meaning;
};

// Every key with its default and meaning: the configuration reference.
const std::vector<ConfigKey>& config_reference();

// The reference as `zkpipe --help` prints it.
void print_config_reference(std::ostream& out);

// The top-level keys for Boost.Program_options' INI parser.
const boost::program_options::options_description& config_options();

// The machine-dependent defaults.
uint32_t default_synthesis_threads();
uint64_t default_budget_bytes();

}  // namespace zkp::host
