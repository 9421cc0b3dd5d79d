// What the plugin search path holds: every libzkp_prover_*.so / libzkp_pacer_*.so found, loaded
// once, described, or the reason it cannot be loaded. `zkpipe plugins` (text and --json) and
// `zkpipe --version` print it; the libraries are unloaded again before this returns.
#pragma once

#include <zkpipe/host/plugin_loader.hpp>
#include <zkpipe/zkp_common.h>

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace zkp::cli {

struct FactoryRecord {
  std::string id;            // "zkp.prover/1"
  std::string kind;          // "prover" / "pacer"
  std::string options_help;  // as the plugin wrote it
};

struct PluginRecord {
  std::string path;
  bool loaded = false;
  std::string error;  // why it cannot be loaded (when !loaded)
  zkp_status_t status = ZKP_OK;
  std::string name, version, description;
  uint32_t abi_min = 0, abi_max = 0, abi_used = 0;
  std::vector<FactoryRecord> factories;  // the ones this host knows
};

std::vector<PluginRecord> plugin_inventory(const host::PluginLoader& loader);

// The inventory and the search path as one JSON object:
//   {"host_abi": [min, max], "search_path": [...], "plugins": [{"path", "loaded", "error",
//    "name", "version", "description", "abi": [min, max], "abi_used", "factories": [{"id",
//    "kind", "options_help"}]}]}
void write_inventory_json(std::ostream& out, const host::PluginLoader& loader,
                          const std::vector<PluginRecord>& plugins);

}  // namespace zkp::cli
