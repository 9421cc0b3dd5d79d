// zkpipe: the command line. `zkpipe --help` lists the commands and every configuration
// key (`zkpipe --help --markdown`: the keys as README.md's table); `zkpipe <command>
// --help` shows one command. Exit codes: 0 success, 1 a
// failure, 2 a usage error, 3 (verify) a malformed or unreadable file.
#include "command.hpp"

#include <zkpipe/host/config.hpp>
#include <zkpipe/zkp_client.h>
#include <zkpipe/sdk/error.hpp>

#include <algorithm>
#include <exception>
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
  const std::vector<std::string> args(argv + 2, argv + argc);
  try {
    return command->run(args);
  } catch (const UsageError& e) {
    std::cerr << "zkpipe " << name << ": " << e.what() << "\nUsage: " << command->usage
              << "\n(see zkpipe " << name << " --help)\n";
    return kExitUsage;
  } catch (const zkp::sdk::Error& e) {
    // zkp_client_status_name: the client's statuses too (unavailable, unauthenticated).
    std::cerr << "zkpipe " << name << ": " << e.what() << " [" << zkp_client_status_name(e.status()) << "]\n";
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << "zkpipe " << name << ": " << e.what() << "\n";
    return kExitFailure;
  }
}
