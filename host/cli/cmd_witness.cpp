// zkpipe witness: witness generators ("zkp.witness/1", issue 41).
//
//   zkpipe witness build CIRCUIT_cpp/ -o CIRCUIT.witness.so [--opt N]
//       compiles circom's C++ output (circom --c --no_asm, 2.2.x) into a generator plugin
//       (plugins/witness/circom/build.sh: the circuit's code, circom's runtime, zkpipe's adaptor,
//       the .dat embedded)
//   zkpipe witness calculate GENERATOR.so INPUT_JSON -o WITNESS.wtns
//       one witness, as snarkjs's .wtns (what `snarkjs wtns calculate` writes)
//   zkpipe witness info GENERATOR.so
//       the circuit the generator computes: curve, signals, outputs, inputs
#include "services/command/command.hpp"
#include "services/command/options.hpp"

#include <zkpipe/host/witness_generator.hpp>
#include <zkpipe/sdk/error.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <string_view>

#include "core/formats/mapped_file.hpp"
#include "services/names.hpp"
#include "services/output_files.hpp"

namespace zkp::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage =
    "zkpipe witness build CIRCUIT_cpp/ -o CIRCUIT.witness.so [--opt N]\n"
    "       zkpipe witness calculate GENERATOR.so INPUT_JSON -o WITNESS.wtns\n"
    "       zkpipe witness info GENERATOR.so";

// The circom generator's build script: ZKPIPE_WITNESS_DIR, else beside the installed program
// (<bindir>/../share/zkpipe/witness/circom), else the source tree's.
fs::path build_script() {
  if (const char* dir = std::getenv("ZKPIPE_WITNESS_DIR"); dir != nullptr && *dir != '\0') return fs::path(dir) / "build.sh";
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = self.parent_path() / ZKPIPE_CLI_WITNESS_DIR / "build.sh";
    if (fs::exists(installed, ec)) return installed;
  }
  return fs::path(ZKPIPE_SOURCE_WITNESS_DIR) / "build.sh";
}

int run_build(const std::vector<std::string>& args) {
  std::string dir, out, opt = "2";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "-o" || a == "--out") && i + 1 < args.size()) {
      out = args[++i];
    } else if (a == "--opt" && i + 1 < args.size()) {
      opt = args[++i];
      if (opt.size() != 1 || opt[0] < '0' || opt[0] > '3') throw UsageError("--opt takes 0, 1, 2 or 3");
    } else if (dir.empty() && !a.starts_with("-")) {
      dir = a;
    } else {
      throw UsageError("unexpected argument '" + a + "'");
    }
  }
  if (dir.empty() || out.empty()) throw UsageError("expected CIRCUIT_cpp/ and -o OUT.so");
  const fs::path script = build_script();
  if (!fs::exists(script)) throw sdk::Error(ZKP_ERR_NOT_FOUND, "the circom generator's build script " + script.string() + " is missing");
  const std::vector<std::string> argv_strings = {"bash", script.string(), dir, out, opt};
  std::vector<char*> argv;
  for (const auto& s : argv_strings) argv.push_back(const_cast<char*>(s.c_str()));
  argv.push_back(nullptr);
  std::cout.flush();
  const pid_t pid = fork();
  if (pid < 0) throw sdk::Error(ZKP_ERR_INTERNAL, "fork failed");
  if (pid == 0) {
    execvp("bash", argv.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    throw sdk::Error(ZKP_ERR_BAD_INPUT, "building a witness generator from " + dir + " failed (above)");
  }
  return kExitSuccess;
}

int run_calculate(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  std::string out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "-o" || args[i] == "--out") && i + 1 < args.size()) {
      out = args[++i];
    } else if (!args[i].starts_with("-")) {
      files.push_back(args[i]);
    } else {
      throw UsageError("unexpected argument '" + args[i] + "'");
    }
  }
  if (files.size() != 2 || out.empty()) throw UsageError("expected GENERATOR.so INPUT_JSON -o WITNESS.wtns");
  const host::WitnessGenerator generator = host::WitnessGenerator::open(files[0]);
  const FileContents input(files[1]);  // a regular file, read whole
  const std::vector<std::uint8_t> assignment = generator.calculate(
      std::string_view(reinterpret_cast<const char*>(input.bytes().data()), input.bytes().size()));
  const std::vector<std::uint8_t> bytes = host::wtns_file_bytes(generator.circuit().curve, assignment);
  services::write_files_together({{out, std::string(bytes.begin(), bytes.end())}});
  std::cerr << "zkpipe witness: " << generator.circuit().n_signals << " signals of circuit " << generator.circuit().name
            << ": " << out << "\n";
  return kExitSuccess;
}

int run_info(const std::vector<std::string>& args) {
  if (args.size() != 1) throw UsageError("expected GENERATOR.so");
  const host::WitnessGenerator generator = host::WitnessGenerator::open(args[0]);
  const zkp_witness_circuit_t& c = generator.circuit();
  std::cout << "circuit " << c.name << ": curve " << services::snarkjs_curve_name(c.curve) << ", " << c.n_signals << " signals, "
            << c.n_outputs << " outputs, " << c.n_inputs << " input values\n";
  return kExitSuccess;
}

int run_witness(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << "Usage: " << kUsage << "\n";
    return args.empty() ? kExitUsage : kExitSuccess;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "build") return run_build(rest);
  if (args[0] == "calculate") return run_calculate(rest);
  if (args[0] == "info") return run_info(rest);
  throw UsageError("unknown witness command '" + args[0] + "' (build, calculate, info)");
}

}  // namespace

ZKPIPE_COMMAND(witness, "witness generators: build one from circom's C++ output, calculate a witness", kUsage,
               run_witness);

}  // namespace zkp::cli
