// run_and_report (command.hpp): how every command's failure reaches the user, in one place for
// the program and for the net module (net/module.hpp), whose commands report the same way.
#include "command.hpp"

#include <zkpipe/zkp_client.h>
#include <zkpipe/sdk/error.hpp>

#include <exception>
#include <iostream>

namespace zkp::cli {

int run_and_report(const Command& command, const std::vector<std::string>& args) {
  const std::string name = command.name;
  try {
    return command.run(args);
  } catch (const UsageError& e) {
    std::cerr << "zkpipe " << name << ": " << e.what() << "\nUsage: " << command.usage << "\n(see zkpipe " << name
              << " --help)\n";
    return kExitUsage;
  } catch (const sdk::Error& e) {
    // zkp_client_status_name: the client's statuses too (unavailable, unauthenticated).
    std::cerr << "zkpipe " << name << ": " << e.what() << " [" << zkp_client_status_name(e.status()) << "]\n";
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << "zkpipe " << name << ": " << e.what() << "\n";
    return kExitFailure;
  }
}

}  // namespace zkp::cli
