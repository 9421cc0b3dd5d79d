// zkpipe version (also `zkpipe --version`): this host's version and the ABI versions it speaks,
// every plugin on the search path with its version (or why it cannot be loaded), and CUDA: the
// driver's version when libcuda is present, and the CUDA the cuda plugin was built with.
#include "services/command/command.hpp"
#include "services/command/options.hpp"
#include "plugin_inventory.hpp"

#include <dlfcn.h>

#include <iostream>

namespace zkp::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kUsage = "zkpipe --version [--plugin-path DIRS] [key=value ...]";

// The driver's CUDA version from libcuda itself (cuDriverGetVersion), so a machine without
// a GPU, or a build without CUDA, still answers. "" when there is no driver.
std::string cuda_driver_version() {
  void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (lib == nullptr) return {};
  using GetVersion = int (*)(int*);
  std::string out;
  if (auto get = reinterpret_cast<GetVersion>(dlsym(lib, "cuDriverGetVersion"))) {
    int v = 0;
    if (get(&v) == 0) {  // CUDA_SUCCESS; v = 1000 * major + 10 * minor
      out = std::to_string(v / 1000);
      out += '.';
      out += std::to_string((v % 1000) / 10);
    }
  }
  dlclose(lib);
  return out;
}

int run_version(const std::vector<std::string>& args) {
  po::options_description specific("version options");
  specific.add_options()("plugin-path", po::value<std::string>()->value_name("DIRS"),
                         "colon-separated folders searched first (before plugin_path)");
  const ParsedArgs parsed = parse_command_line(args, specific);
  if (parsed.help) {
    print_command_help(std::cout, kUsage, specific);
    return kExitSuccess;
  }
  std::cout << "zkpipe " << ZKPIPE_VERSION << ", C ABI " << host::host_abi_range() << "\n";
  const std::string driver = cuda_driver_version();
  std::cout << "CUDA driver: " << (driver.empty() ? "none (libcuda.so.1 not found)" : driver) << "\n";
#ifdef ZKPIPE_CUDA_BUILD_VERSION
  std::cout << "CUDA runtime: the cuda plugin's, built with CUDA " << ZKPIPE_CUDA_BUILD_VERSION << "\n";
#else
  std::cout << "CUDA runtime: none (built without the cuda plugin)\n";
#endif
  const host::PluginLoader loader(plugin_search_path(parsed));
  const std::vector<PluginRecord> plugins = plugin_inventory(loader);
  std::cout << "Plugins (" << plugins.size() << "):\n";
  for (const PluginRecord& p : plugins) {
    if (!p.loaded) {
      std::cout << "  " << p.path << ": cannot be loaded: " << p.error << "\n";
      continue;
    }
    std::cout << "  " << p.name << " " << p.version << " (";
    for (size_t i = 0; i < p.factories.size(); ++i) std::cout << (i ? ", " : "") << p.factories[i].kind;
    std::cout << "; ABI [" << p.abi_min << ", " << p.abi_max << "]) " << p.path << "\n";
  }
  return kExitSuccess;
}

}  // namespace

ZKPIPE_COMMAND(version, "this host's version and ABI, every plugin found with its version, CUDA's versions", kUsage,
               run_version);

}  // namespace zkp::cli
