// zkpipe: the command line. `zkpipe --help` lists the commands and every configuration
// key (`zkpipe --help --markdown`: the keys as README.md's table); `zkpipe <command>
// --help` shows one command. Exit codes: 0 success, 1 a
// failure, 2 a usage error, 3 (verify) a malformed or unreadable file.
#include "services/command/command.hpp"

#include <zkpipe/host/config.hpp>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

namespace {

void print_help(std::ostream& out) {
  out << "zkpipe: a Groth16 proving engine with pluggable provers and pacers\n\n"
         "Usage: zkpipe <command> [options] [key=value ...]\n"
         "       zkpipe <command> --help\n\n"
         "Commands:\n";
  for (const zkp::cli::Command& c : zkp::cli::commands()) {
    out << "  " << c.name << std::string(c.name == nullptr ? 0 : (12 > std::string(c.name).size() ? 12 - std::string(c.name).size() : 1), ' ')
        << c.summary << "\n";
  }
  out << "\n";
  zkp::host::print_config_reference(out);
  out << "\n"
      << "Exit codes: 0 success, 1 a failure, 2 a usage error; verify: 1 an invalid proof, 3 a malformed\n"
         "or unreadable file.\n";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace zkp::cli;
  if (argc < 2) {
    print_help(std::cerr);
    return kExitUsage;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    // --markdown: only the configuration table, as README.md's "## Configuration" has it
    // (scripts/update_readme_config.sh pastes it there).
    if (argc > 2 && std::string(argv[2]) == "--markdown") {
      std::cout << zkp::host::config_markdown_table();
    } else {
      print_help(std::cout);
    }
    return kExitSuccess;
  }
  const Command* command = find_command(name == "--version" ? std::string("version") : name);
  if (command == nullptr) {
    std::cerr << "zkpipe: unknown command '" << name << "' (see zkpipe --help)\n";
    return kExitUsage;
  }
  return run_and_report(*command, std::vector<std::string>(argv + 2, argv + argc));
}
