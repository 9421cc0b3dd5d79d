#include "plugin_loader.hpp"

#include <dlfcn.h>

#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace zkp::pacing_sim {

std::shared_ptr<PluginLibrary> PluginLibrary::open(const std::string& path) {
  std::shared_ptr<PluginLibrary> lib(new PluginLibrary());
  lib->path_ = path;
  lib->handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib->handle_ == nullptr) throw std::runtime_error(path + ": " + dlerror());
  const auto* entry = static_cast<const zkp_plugin_entry_t*>(dlsym(lib->handle_, ZKP_PLUGIN_ENTRY_SYMBOL));
  if (entry == nullptr) throw std::runtime_error(path + ": no symbol " ZKP_PLUGIN_ENTRY_SYMBOL);
  if (entry->header.struct_size < sizeof(zkp_plugin_entry_t)) {
    throw std::runtime_error(path + ": zkp_plugin_entry_t is " + std::to_string(entry->header.struct_size) +
                             " bytes, expected at least " + std::to_string(sizeof(zkp_plugin_entry_t)));
  }
  if (entry->abi_version_min > ZKP_ABI_VERSION || entry->abi_version_max < ZKP_ABI_VERSION_MIN_SUPPORTED) {
    throw std::runtime_error(path + ": plugin speaks ABI [" + std::to_string(entry->abi_version_min) + ", " +
                             std::to_string(entry->abi_version_max) + "], the simulator speaks [" +
                             std::to_string(ZKP_ABI_VERSION_MIN_SUPPORTED) + ", " +
                             std::to_string(ZKP_ABI_VERSION) + "]");
  }
  const uint32_t version = entry->abi_version_max < ZKP_ABI_VERSION ? entry->abi_version_max : ZKP_ABI_VERSION;
  zkp_error_t err = zkp::sdk::make_struct<zkp_error_t>();
  if (entry->init(version, &err) != ZKP_OK) throw std::runtime_error(path + ": init failed: " + err.message);
  lib->entry_ = entry;
  lib->initialized_ = true;
  return lib;
}

PluginLibrary::~PluginLibrary() {
  if (initialized_ && entry_->deinit != nullptr) entry_->deinit();
  if (handle_ != nullptr) dlclose(handle_);
}

const zkp_pacer_factory_t& PluginLibrary::pacer_factory() const {
  const auto* f = static_cast<const zkp_pacer_factory_t*>(entry_->get_factory(ZKP_PACER_FACTORY_ID));
  if (f == nullptr) throw std::runtime_error(path_ + ": no " ZKP_PACER_FACTORY_ID " factory");
  if (f->header.struct_size < sizeof(zkp_pacer_factory_t)) {
    throw std::runtime_error(path_ + ": zkp_pacer_factory_t is too small");
  }
  return *f;
}

std::string pacer_library_path(const std::string& name_or_path, const std::string& plugin_dir) {
  if (name_or_path.find('/') != std::string::npos) return name_or_path;
  return (std::filesystem::path(plugin_dir) / ("libzkp_pacer_" + name_or_path + ".so")).string();
}

std::string default_plugin_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "lib";
  const auto lib = exe.parent_path().parent_path() / "lib";
  // Installed, the pacers are in lib/zkpipe (cmake/ZkpipeWarnings.cmake, zkpipe_add_plugin);
  // in the build tree they sit in lib/.
  if (std::filesystem::exists(lib / "zkpipe" / "libzkp_pacer_greedy.so", ec)) return (lib / "zkpipe").string();
  return lib.string();
}

}  // namespace zkp::pacing_sim
