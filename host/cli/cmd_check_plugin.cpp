// zkpipe check-plugin PATH.so: the conformance suite for a plugin, whoever wrote it. One line
// per check ("ok", "FAIL", "skip" and what was checked); exit 1 on any failure. What each
// suite checks is listed in conformance/checks.hpp.
#include "services/command/command.hpp"
#include "conformance/checks.hpp"
#include "services/command/options.hpp"

#include <zkpipe/host/plugin_loader.hpp>
#include <zkpipe/zkp_pacer.h>
#include <zkpipe/zkp_prover.h>

#include <iostream>
#include <sstream>

namespace zkp::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kUsage =
    "zkpipe check-plugin PATH.so [--vectors DIR,...] [--reference NAME|PATH] [--pacing-sim PROGRAM --scenario FILE] "
    "[--option KEY=VALUE ...]";

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, sep);) {
    if (!part.empty()) out.push_back(part);
  }
  return out;
}

int run_check_plugin(const std::vector<std::string>& args) {
  po::options_description specific("check-plugin options");
  specific.add_options()("plugin", po::value<std::string>()->value_name("PATH.so"), "the plugin to check")(
      "vectors", po::value<std::string>()->value_name("DIR,..."),
      "folders with circuit.zkey and witness.wtns (tests/vectors/data/*): the proof checks run on each")(
      "reference", po::value<std::string>()->default_value("cpu")->value_name("NAME|PATH"),
      "the prover whose proofs the plugin's must equal byte for byte")(
      "pacing-sim", po::value<std::string>()->value_name("PROGRAM"), "zkpipe-pacing-sim, to run a pacer beside greedy")(
      "scenario", po::value<std::string>()->value_name("FILE"), "the scenario for --pacing-sim")(
      "option", po::value<std::vector<std::string>>()->value_name("KEY=VALUE"),
      "an option for every object created from the plugin (repeatable)");
  const ParsedArgs parsed = parse_command_line(args, specific, {"plugin"});
  if (parsed.help) {
    print_command_help(std::cout, kUsage, specific);
    return kExitSuccess;
  }
  if (!parsed.values.count("plugin")) throw UsageError("no plugin given");

  conformance::Settings settings;
  if (parsed.values.count("vectors")) settings.vectors = split(parsed.values["vectors"].as<std::string>(), ',');
  if (parsed.values.count("pacing-sim")) settings.pacing_sim = parsed.values["pacing-sim"].as<std::string>();
  if (parsed.values.count("scenario")) settings.scenario = parsed.values["scenario"].as<std::string>();
  if (parsed.values.count("option")) {
    for (const std::string& kv : parsed.values["option"].as<std::vector<std::string>>()) {
      const size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        throw UsageError(std::string("--option wants KEY=VALUE, got '") + kv + "'");
      settings.options.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
  }
  const host::PluginLoader loader(load_config(parsed).plugin_path);
  settings.reference_prover =
      loader.resolve(host::PluginKind::prover, parsed.values["reference"].as<std::string>()).string();

  conformance::Report report;
  if (auto lib = conformance::check_entry(report, parsed.values["plugin"].as<std::string>())) {
    if (lib->factory(ZKP_PROVER_FACTORY_ID) != nullptr) conformance::check_prover(report, lib, settings);
    if (lib->factory(ZKP_PACER_FACTORY_ID) != nullptr) conformance::check_pacer(report, lib, settings);
  }
  report.summary();
  return report.succeeded() ? kExitSuccess : kExitFailure;
}

}  // namespace

// Registered by hand: ZKPIPE_COMMAND makes an identifier of the name, and this one has a dash.
static const Registrar check_plugin_command(
    {"check-plugin", "check a plugin against the ABI's rules and the built-in prover (one line per check)", kUsage,
     run_check_plugin});

}  // namespace zkp::cli
