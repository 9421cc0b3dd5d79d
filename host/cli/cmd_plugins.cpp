// zkpipe plugins: every libzkp_prover_*.so and libzkp_pacer_*.so on the plugin search path
// (other libraries there are never opened: dlopen would run their constructors), what it is,
// the factories it offers with their options, or the exact reason it cannot be loaded; --json:
// the same as one JSON object (plugin_inventory.hpp has its shape).
#include "services/command/command.hpp"
#include "services/command/options.hpp"
#include "plugin_inventory.hpp"

#include <zkpipe/zkp_pacer.h>
#include <zkpipe/zkp_prover.h>

#include <iostream>
#include <sstream>

namespace zkp::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kUsage = "zkpipe plugins [--json] [--config FILE] [--plugin-path DIRS] [key=value ...]";

void print_indented(const std::string& text, const char* indent) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) std::cout << indent << line << "\n";
}

void describe(const PluginRecord& p) {
  if (!p.loaded) {
    std::cout << "  cannot be loaded: " << p.error << " [" << zkp_status_name(p.status) << "]\n";
    return;
  }
  std::cout << "  name " << p.name << ", version " << (p.version.empty() ? "?" : p.version) << ", ABI [" << p.abi_min
            << ", " << p.abi_max << "] (using " << p.abi_used << ")\n"
            << "  " << p.description << "\n";
  for (const FactoryRecord& f : p.factories) {
    std::cout << "  factory " << f.id << " (config: " << f.kind << " = " << p.name << "; options in [" << f.kind
              << "]):\n";
    print_indented(f.options_help, "      ");
  }
  if (p.factories.empty()) {
    std::cout << "  no factory this host knows (" << ZKP_PROVER_FACTORY_ID << ", " << ZKP_PACER_FACTORY_ID << ")\n";
  }
}

int run_plugins(const std::vector<std::string>& args) {
  po::options_description specific("plugins options");
  specific.add_options()("plugin-path", po::value<std::string>()->value_name("DIRS"),
                         "colon-separated folders searched first (before plugin_path)")(
      "json", "print the search path and every plugin as one JSON object");
  const ParsedArgs parsed = parse_command_line(args, specific);
  if (parsed.help) {
    print_command_help(std::cout, kUsage, specific);
    return kExitSuccess;
  }
  const host::PluginLoader loader(plugin_search_path(parsed));
  const std::vector<PluginRecord> plugins = plugin_inventory(loader);
  if (parsed.values.count("json")) {
    write_inventory_json(std::cout, loader, plugins);
    return kExitSuccess;
  }
  std::cout << "Plugin search path (this host speaks ABI " << host::host_abi_range() << "):\n";
  for (const auto& folder : loader.search_path()) std::cout << "  " << folder.string() << "\n";
  if (plugins.empty()) std::cout << "\nNo libzkp_prover_*.so or libzkp_pacer_*.so found.\n";
  for (const PluginRecord& p : plugins) {
    std::cout << "\n" << p.path << "\n";
    describe(p);
  }
  return kExitSuccess;
}

}  // namespace

ZKPIPE_COMMAND(plugins, "list the plugins on the search path, their options, or why they cannot load", kUsage,
               run_plugins);

}  // namespace zkp::cli
