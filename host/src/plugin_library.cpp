#include <zkpipe/host/plugin_library.hpp>

#include <zkpipe/host/logging.hpp>
#include <zkpipe/zkp_pacer.h>
#include <zkpipe/zkp_prover.h>
#include <zkpipe/zkp_witness.h>
#include <zkpipe/sdk/error.hpp>

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <map>
#include <mutex>

namespace zkp::host {

using sdk::Error;
namespace fs = std::filesystem;

namespace {

// Loaded libraries by canonical path. Loading, init, deinit and unloading all happen
// under this mutex. An expired entry is a library whose last owner is gone but whose
// destructor has not yet run deinit(): open() waits for it to disappear, so a plugin
// never sees init() before the previous deinit() (dlopen would hand back the same image).
std::mutex& registry_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::condition_variable& registry_changed() {
  static std::condition_variable cv;
  return cv;
}

std::map<std::string, std::weak_ptr<PluginLibrary>>& registry() {
  static std::map<std::string, std::weak_ptr<PluginLibrary>> libraries;
  return libraries;
}

constexpr std::array<const char*, 3> kKnownFactoryIds{ZKP_PROVER_FACTORY_ID, ZKP_PACER_FACTORY_ID, ZKP_WITNESS_FACTORY_ID};

std::string range(uint32_t min, uint32_t max) { return fmt::format("[{}, {}]", min, max); }

const char* or_empty(const char* s) { return s == nullptr ? "" : s; }

}  // namespace

std::string host_abi_range() { return range(ZKP_ABI_VERSION_MIN_SUPPORTED, ZKP_ABI_VERSION); }

std::shared_ptr<PluginLibrary> PluginLibrary::open(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) {
    throw Error(ZKP_ERR_NOT_FOUND, "plugin file '" + file.string() + "' does not exist");
  }
  const fs::path canonical = fs::weakly_canonical(file, ec);
  const fs::path path = ec ? file : canonical;

  std::unique_lock lock(registry_mutex());
  for (;;) {
    auto it = registry().find(path.string());
    if (it == registry().end()) break;
    if (auto loaded = it->second.lock()) return loaded;
    registry_changed().wait(lock);
  }

  boost::dll::shared_library library;
  boost::dll::fs::error_code load_error;
  library.load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, load_error);
  if (load_error || !library.is_loaded()) {
    // Boost.DLL leaves dlerror() set (per thread): it is the reason people can act on.
    const char* reason = dlerror();
    throw Error(ZKP_ERR_BAD_INPUT, "plugin file '" + path.string() +
                                       "' is not a loadable shared library: " +
                                       (reason != nullptr ? reason : load_error.message()));
  }
  if (!library.has(ZKP_PLUGIN_ENTRY_SYMBOL)) {
    throw Error(ZKP_ERR_ABI_MISMATCH, "plugin file '" + path.string() + "' has no '" +
                                          ZKP_PLUGIN_ENTRY_SYMBOL +
                                          "' symbol: it is not a zkpipe plugin");
  }
  const auto* entry = &library.get<const zkp_plugin_entry_t>(ZKP_PLUGIN_ENTRY_SYMBOL);
  const bool whole_entry = entry->header.struct_size >= sizeof(zkp_plugin_entry_t);
  const std::string what =
      "plugin '" + std::string(whole_entry ? or_empty(entry->name) : "?") + "' (" + path.string() + ")";
  if (!whole_entry) {
    throw Error(ZKP_ERR_ABI_MISMATCH, what + ": zkp_plugin_entry has struct_size " +
                                          std::to_string(entry->header.struct_size) +
                                          ", expected at least " +
                                          std::to_string(sizeof(zkp_plugin_entry_t)));
  }
  const uint32_t low = std::max<uint32_t>(ZKP_ABI_VERSION_MIN_SUPPORTED, entry->abi_version_min);
  const uint32_t high = std::min<uint32_t>(ZKP_ABI_VERSION, entry->abi_version_max);
  if (low > high) {
    throw Error(ZKP_ERR_ABI_MISMATCH,
                what + " speaks ABI versions " + range(entry->abi_version_min, entry->abi_version_max) +
                    "; this host speaks " + host_abi_range());
  }
  if (entry->init == nullptr || entry->deinit == nullptr || entry->get_factory == nullptr) {
    throw Error(ZKP_ERR_ABI_MISMATCH, what + ": zkp_plugin_entry has a NULL init, deinit or get_factory");
  }
  auto err = sdk::make_struct<zkp_error_t>();
  const zkp_status_t status = entry->init(high, &err);
  if (status != ZKP_OK) {
    throw Error(status, what + ": init failed: " +
                            (err.message[0] != '\0' ? std::string(err.message)
                                                    : std::string(zkp_status_name(status))));
  }
  auto loaded = std::make_shared<PluginLibrary>(Token{}, std::move(library), path, entry, high);
  registry()[path.string()] = loaded;
  log().debug("loaded {} {} (ABI {})", loaded->describe(), or_empty(entry->version), high);
  return loaded;
}

PluginLibrary::PluginLibrary(Token, boost::dll::shared_library library, fs::path path,
                             const zkp_plugin_entry_t* entry, uint32_t abi_version)
    : library_(std::move(library)), path_(std::move(path)), entry_(entry), abi_version_(abi_version) {}

PluginLibrary::~PluginLibrary() {
  std::lock_guard lock(registry_mutex());
  entry_->deinit();
  library_.unload();
  registry().erase(path_.string());
  registry_changed().notify_all();
}

std::string PluginLibrary::name() const { return or_empty(entry_->name); }

const void* PluginLibrary::factory(const char* factory_id) const {
  return entry_->get_factory(factory_id);
}

const void* PluginLibrary::require_factory(const char* factory_id, const char* kind) const {
  if (const void* f = factory(factory_id)) return f;
  std::string offered;
  for (const char* id : kKnownFactoryIds) {
    if (factory(id) != nullptr) offered += (offered.empty() ? "" : ", ") + std::string(id);
  }
  throw Error(ZKP_ERR_NOT_FOUND, describe() + " has no " + kind + " factory '" + factory_id +
                                     "' (it offers: " + (offered.empty() ? "nothing zkpipe knows" : offered) +
                                     ")");
}

std::string PluginLibrary::describe() const {
  return "plugin '" + name() + "' (" + path_.string() + ")";
}

}  // namespace zkp::host
