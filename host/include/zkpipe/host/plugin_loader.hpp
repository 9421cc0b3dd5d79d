// Finds plugin libraries and loads them.
//
// A plugin is named either by a short name, resolved by kind to a file name
// (prover "sim" → libzkp_prover_sim.so, pacer "greedy" → libzkp_pacer_greedy.so) and
// looked up along the search path, or by an explicit path (anything containing '/' or
// ending in ".so"). The search path is, in order:
//   1. the configured plugin_path (colon-separated),
//   2. $ZKPIPE_PLUGIN_PATH (colon-separated),
//   3. the folder of the binary that contains the host (libzkpipe.so, or the program
//      it is linked into), then that folder's ../lib/zkpipe (the installed layout) and
//      ../lib (the build tree: bin/ next to lib/).
// so plugins built next to libzkpipe are found without any configuration.
#pragma once

#include <zkpipe/host/plugin_library.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace zkp::host {

enum class PluginKind { prover, pacer };

const char* plugin_kind_name(PluginKind kind);  // "prover" / "pacer"

class PluginLoader {
 public:
  explicit PluginLoader(const std::vector<std::string>& configured_path);

  // The folders searched, in order, without duplicates (missing folders included, so
  // an error message shows a mistyped one).
  const std::vector<std::filesystem::path>& search_path() const { return search_path_; }

  // The file a plugin name resolves to. Throws zkp::sdk::Error(ZKP_ERR_NOT_FOUND)
  // naming the file looked for and every folder searched.
  std::filesystem::path resolve(PluginKind kind, const std::string& name_or_path) const;

  // resolve() then PluginLibrary::open().
  std::shared_ptr<PluginLibrary> load(PluginKind kind, const std::string& name_or_path) const;

  // Every libzkp_prover_*.so and libzkp_pacer_*.so in the search path (the first of each file
  // name), for `zkpipe plugins`. Other libraries there are never opened (opening runs their
  // constructors); an explicit path given to load() still opens any file.
  std::vector<std::filesystem::path> candidates() const;

 private:
  std::vector<std::filesystem::path> search_path_;
};

// The file name a short plugin name stands for: "libzkp_prover_sim.so".
std::string plugin_file_name(PluginKind kind, const std::string& name);

// True if `name_or_path` names a file rather than a short name.
bool is_explicit_plugin_path(const std::string& name_or_path);

}  // namespace zkp::host
