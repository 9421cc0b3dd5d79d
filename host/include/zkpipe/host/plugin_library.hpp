// One loaded plugin library: the shared library, its zkp_plugin_entry, the negotiated
// ABI version, and init()/deinit() run exactly once per load.
//
// Ownership: a PluginLibrary is held by shared_ptr. Every object created from the
// plugin (Prover, Pacer) holds one, so the library stays loaded while any of them
// lives; the last owner to go runs deinit() and unloads it. Opening the same file
// again while it is loaded returns the same PluginLibrary (so init() is not repeated).
#pragma once

#include <zkpipe/zkp_plugin.h>

#include <boost/dll/shared_library.hpp>

#include <filesystem>
#include <memory>
#include <string>

namespace zkp::host {

class PluginLibrary {
 public:
  // Loads `file` (RTLD_NOW | RTLD_LOCAL), reads and checks the entry, negotiates the ABI
  // version and calls init(). Throws zkp::sdk::Error naming the file and the reason:
  //   ZKP_ERR_NOT_FOUND        the file does not exist
  //   ZKP_ERR_BAD_INPUT        not a loadable shared library (with the dlerror() text)
  //   ZKP_ERR_ABI_MISMATCH     no zkp_plugin_entry symbol, an entry struct too small, or
  //                            ABI ranges that do not meet (both ranges named)
  //   (the plugin's status)    init() failed (with the plugin's message)
  static std::shared_ptr<PluginLibrary> open(const std::filesystem::path& file);

  ~PluginLibrary();  // deinit(), then unload
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  const std::filesystem::path& path() const { return path_; }
  const zkp_plugin_entry_t& entry() const { return *entry_; }
  std::string name() const;
  uint32_t abi_version() const { return abi_version_; }  // the negotiated version

  // The factory for `factory_id`, or nullptr. Valid while this library lives.
  const void* factory(const char* factory_id) const;

  // The factory for `factory_id`, or ZKP_ERR_NOT_FOUND naming the plugin, the id and
  // the factories it does offer. `kind` is "prover" or "pacer", for the message.
  const void* require_factory(const char* factory_id, const char* kind) const;

  // "plugin 'sim' (/path/libzkp_prover_sim.so)", for messages.
  std::string describe() const;

 private:
  struct Token {};  // only open() constructs

 public:
  PluginLibrary(Token, boost::dll::shared_library library, std::filesystem::path path,
                const zkp_plugin_entry_t* entry, uint32_t abi_version);

 private:
  boost::dll::shared_library library_;  // unloaded last (members go in reverse order)
  std::filesystem::path path_;
  const zkp_plugin_entry_t* entry_;  // inside library_
  uint32_t abi_version_;
};

// "[1, 1]": the ABI versions this host speaks.
std::string host_abi_range();

}  // namespace zkp::host
