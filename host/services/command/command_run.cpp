// run_and_report (command.hpp): how every command's failure reaches the user, in one place for
// the program and for the net module (net/module.hpp), whose commands report the same way.
#include "command.hpp"

#include <zkpipe/zkp_client.h>
#include <zkpipe/host/log_format.hpp>
#include <zkpipe/sdk/error.hpp>

#include <chrono>
#include <exception>
#include <iostream>

namespace zkp::cli {

void print_closing_line(const std::string& line, bool error) {
  if (host::current_log_format() == host::LogFormat::json) {
    std::cerr << host::json_log_line(std::chrono::system_clock::now(), error ? spdlog::level::err : spdlog::level::info,
                                     "zkpipe", line)
              << "\n";
  } else {
    std::cerr << line << "\n";
  }
}

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
    print_closing_line("zkpipe " + name + ": " + e.what() + " [" + zkp_client_status_name(e.status()) + "]", true);
    return kExitFailure;
  } catch (const std::exception& e) {
    print_closing_line("zkpipe " + name + ": " + e.what(), true);
    return kExitFailure;
  }
}

}  // namespace zkp::cli
