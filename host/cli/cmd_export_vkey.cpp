// zkpipe export-vkey FILE.params VKEY_JSON: the verifying key of a bellperson parameter file as
// snarkjs's verification_key.json, so that `snarkjs groth16 verify` and `zkpipe verify` check
// the proofs a bellperson key makes (the test path, and an operator's audit of a
// Filecoin parameter file). Reads only the verifying part; the queries are never decoded.
#include "services/command/command.hpp"
#include "services/command/options.hpp"

#include <fstream>
#include <iostream>

#include "core/bellperson/params.hpp"
#include "core/bellperson/vkey_json.hpp"
#include "core/formats/error.hpp"

namespace zkp::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kUsage = "zkpipe export-vkey FILE.params VERIFICATION_KEY_JSON";

int run_export_vkey(const std::vector<std::string>& args) {
  po::options_description specific("export-vkey arguments");
  specific.add_options()
      ("params", po::value<std::string>()->value_name("FILE.params"), "bellperson Groth16 parameter file")
      ("vkey", po::value<std::string>()->value_name("VERIFICATION_KEY_JSON"), "where to write it (snarkjs format)");
  const ParsedArgs parsed = parse_command_line(args, specific, {"params", "vkey"});
  if (parsed.help) {
    std::cout << "Usage: " << kUsage << "\n\n" << specific << "\n";
    return kExitSuccess;
  }
  if (!parsed.values.count("params") || !parsed.values.count("vkey")) throw UsageError("expected FILE.params VERIFICATION_KEY_JSON");
  if (!parsed.overrides.empty() || parsed.config_file) throw UsageError("export-vkey takes exactly two files");
  const std::string params_path = parsed.values["params"].as<std::string>();
  const std::string vkey_path = parsed.values["vkey"].as<std::string>();
  const bellperson::ParamsFile params = bellperson::ParamsFile::open(params_path);
  const std::string text = bellperson::write_vkey_json(bellperson::decode_verifying_points(params));
  std::ofstream out(vkey_path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw IoError("cannot write " + vkey_path);
  std::cerr << "zkpipe export-vkey: " << params.layout().ic_count - 1 << " public inputs, domain "
            << params.layout().h_count + 1 << ": " << vkey_path << "\n";
  return kExitSuccess;
}

}  // namespace

// Registered by hand: the command's name has a hyphen, which ZKPIPE_COMMAND's #NAME cannot spell.
static const Registrar zkpipe_command_export_vkey(
    {"export-vkey", "export-vkey: FILE.params -> verification_key.json (snarkjs format) of a bellperson key", kUsage,
     run_export_vkey});

}  // namespace zkp::cli
