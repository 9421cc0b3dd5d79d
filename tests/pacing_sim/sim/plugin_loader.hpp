// A minimal loader for pacer plugins through the C ABI: dlopen, read zkp_plugin_entry,
// negotiate the ABI version, init, get the "zkp.pacer/1" factory. The host's own loader
// (Boost.DLL) is not used here so the simulator depends on nothing but the ABI headers.
#pragma once

#include <zkpipe/zkp_pacer.h>
#include <zkpipe/zkp_plugin.h>
#include <zkpipe/sdk/error.hpp>

#include <memory>
#include <string>

namespace zkp::pacing_sim {

// A loaded plugin library. deinit() and dlclose() run when the last shared_ptr to it goes;
// every pacer created from it holds one, so the code outlives the objects.
class PluginLibrary {
 public:
  // Throws std::runtime_error naming the path and the reason.
  static std::shared_ptr<PluginLibrary> open(const std::string& path);
  ~PluginLibrary();
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;

  const zkp_plugin_entry_t& entry() const { return *entry_; }
  // The pacer factory; throws if the plugin has none.
  const zkp_pacer_factory_t& pacer_factory() const;
  const std::string& path() const { return path_; }

 private:
  PluginLibrary() = default;
  std::string path_;
  void* handle_ = nullptr;
  const zkp_plugin_entry_t* entry_ = nullptr;
  bool initialized_ = false;
};

// A pacer name ("pi") becomes DIR/libzkp_pacer_pi.so; anything with a '/' is a path.
std::string pacer_library_path(const std::string& name_or_path, const std::string& plugin_dir);

// The folder the pacer plugins are in: <folder of this executable>/../lib/zkpipe when
// installed (it holds libzkp_pacer_greedy.so), else ../lib (the build tree).
std::string default_plugin_dir();

}  // namespace zkp::pacing_sim
