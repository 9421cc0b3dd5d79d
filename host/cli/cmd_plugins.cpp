// zkpipe plugins: every lib*.so on the plugin search path, what it is, the factories it
// offers with their options, or the exact reason it cannot be loaded.
#include "command.hpp"
#include "options.hpp"

#include <zkpipe/host/plugin_loader.hpp>
#include <zkpipe/zkp_pacer.h>
#include <zkpipe/zkp_prover.h>
#include <zkpipe/sdk/error.hpp>

#include <iostream>
#include <sstream>

namespace zkp::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kUsage = "zkpipe plugins [--config FILE] [--plugin-path DIRS] [key=value ...]";

void print_indented(const char* text, const char* indent) {
  std::istringstream lines(text == nullptr ? "" : text);
  for (std::string line; std::getline(lines, line);) std::cout << indent << line << "\n";
}

void describe(const host::PluginLibrary& lib) {
  const zkp_plugin_entry_t& e = lib.entry();
  std::cout << "  name " << lib.name() << ", version " << (e.version ? e.version : "?") << ", ABI ["
            << e.abi_version_min << ", " << e.abi_version_max << "] (using " << lib.abi_version() << ")\n"
            << "  " << (e.description ? e.description : "") << "\n";
  bool any = false;
  if (const auto* f = static_cast<const zkp_prover_factory_t*>(lib.factory(ZKP_PROVER_FACTORY_ID))) {
    any = true;
    std::cout << "  factory " << ZKP_PROVER_FACTORY_ID << " (config: prover = " << lib.name() << "; options in [prover]):\n";
    print_indented(f->options_help, "      ");
  }
  if (const auto* f = static_cast<const zkp_pacer_factory_t*>(lib.factory(ZKP_PACER_FACTORY_ID))) {
    any = true;
    std::cout << "  factory " << ZKP_PACER_FACTORY_ID << " (config: pacer = " << lib.name() << "; options in [pacer]):\n";
    print_indented(f->options_help, "      ");
  }
  if (!any) std::cout << "  no factory this host knows (" << ZKP_PROVER_FACTORY_ID << ", " << ZKP_PACER_FACTORY_ID << ")\n";
}

int run_plugins(const std::vector<std::string>& args) {
  po::options_description specific("plugins options");
  specific.add_options()("plugin-path", po::value<std::string>()->value_name("DIRS"),
                         "colon-separated folders searched first (before plugin_path)");
  const ParsedArgs parsed = parse_command_line(args, specific);
  if (parsed.help) {
    print_command_help(std::cout, kUsage, specific);
    return kExitSuccess;
  }
  host::Config config = load_config(parsed);
  std::vector<std::string> path;
  if (parsed.values.count("plugin-path")) {
    std::istringstream dirs(parsed.values["plugin-path"].as<std::string>());
    for (std::string dir; std::getline(dirs, dir, ':');) {
      if (!dir.empty()) path.push_back(dir);
    }
  }
  path.insert(path.end(), config.plugin_path.begin(), config.plugin_path.end());

  const host::PluginLoader loader(path);
  std::cout << "Plugin search path (this host speaks ABI " << host::host_abi_range() << "):\n";
  for (const auto& folder : loader.search_path()) std::cout << "  " << folder.string() << "\n";
  const auto files = loader.candidates();
  if (files.empty()) std::cout << "\nNo lib*.so found.\n";
  for (const auto& file : files) {
    std::cout << "\n" << file.string() << "\n";
    try {
      describe(*host::PluginLibrary::open(file));
    } catch (const sdk::Error& e) {
      std::cout << "  cannot be loaded: " << e.what() << " [" << zkp_status_name(e.status()) << "]\n";
    }
  }
  return kExitSuccess;
}

}  // namespace

ZKPIPE_COMMAND(plugins, "list the plugins on the search path, their options, or why they cannot load",
               kUsage, run_plugins);

}  // namespace zkp::cli
