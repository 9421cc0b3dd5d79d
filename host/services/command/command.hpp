// The `zkpipe` command line is a small registry of subcommands. Each lives in its own
// file and registers itself with ZKPIPE_COMMAND, so `prove`, `verify` and `bench` are
// added later as new files, without touching main.cpp:
//
//   namespace { int run_bench(const std::vector<std::string>& args) { ... } }
//   ZKPIPE_COMMAND(bench, "measure throughput", "zkpipe bench --config F ...", run_bench);
//
// A command receives the arguments after its name and returns an exit code; it throws
// UsageError for a bad command line (exit 2) and zkp::sdk::Error for a failure (exit 1).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace zkp::cli {

inline constexpr int kExitSuccess = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
// A file that cannot be read or is malformed, where a command tells it apart from a failure of
// the thing checked (`zkpipe verify`: 1 is an invalid proof).
inline constexpr int kExitMalformed = 3;

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Command {
  const char* name;
  const char* summary;  // one line for `zkpipe --help`
  const char* usage;    // "zkpipe run --config F [key=value ...] ..."
  int (*run)(const std::vector<std::string>& args);
};

// Every registered command, sorted by name.
const std::vector<Command>& commands();
const Command* find_command(const std::string& name);

// Runs `command` with the arguments after its name and returns its exit code: a UsageError is
// printed with the command's usage (exit 2), an sdk::Error with its status (1), any other
// exception with its message (1).
int run_and_report(const Command& command, const std::vector<std::string>& args);

// A command's closing line on stderr (a failure, a worker's summary), printed whatever the log
// level: a JSON log line where the process logs JSON (log_format = json), so the last line a
// log pipeline reads parses like the others; as it is otherwise. `error`: logged as an error
// (else as info).
void print_closing_line(const std::string& line, bool error);

struct Registrar {
  explicit Registrar(const Command& command);
};

}  // namespace zkp::cli

#define ZKPIPE_COMMAND(NAME, SUMMARY, USAGE, FUNCTION) \
  static const ::zkp::cli::Registrar zkpipe_command_##NAME({#NAME, SUMMARY, USAGE, FUNCTION})
