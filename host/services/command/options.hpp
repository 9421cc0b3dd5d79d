// Command-line parsing shared by the subcommands: every command takes --config F and
// key=value overrides, and prints the full configuration reference in its --help.
#pragma once

#include <zkpipe/host/config.hpp>

#include "services/duration.hpp"

#include <boost/program_options.hpp>

#include <chrono>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace zkp::cli {

struct ParsedArgs {
  boost::program_options::variables_map values;
  std::optional<std::string> config_file;
  std::vector<std::string> overrides;  // the positional key=value arguments
  bool help = false;
};

// Adds --help, --config and the positional overrides to `specific`, and parses `args`.
// `leading_positionals` names options of `specific` that take the first positional arguments,
// one each, in order (`zkpipe prove ZKEY WTNS ...`); the rest are key=value overrides.
// Throws UsageError on a bad command line.
ParsedArgs parse_command_line(const std::vector<std::string>& args,
                              boost::program_options::options_description specific,
                              const std::vector<std::string>& leading_positionals = {});

// "Usage: ...", the command's own options, then every configuration key.
void print_command_help(std::ostream& out, const char* usage,
                        const boost::program_options::options_description& specific);

// A command that runs a host takes only key=value overrides after its own positionals: any
// other word is a UsageError naming it.
void require_key_value_overrides(const ParsedArgs& parsed);

// The value of the duration flag `flag` ("--wait"): services::parse_duration's forms ("1.5",
// "500ms", "30s", "2m", "1h"; a bare number in `bare` units), at most 30 days. Throws
// UsageError naming the flag and the value otherwise ("inf", "nan", "1e300", "-1").
std::chrono::milliseconds duration_flag(const std::string& flag, const std::string& text, services::DurationUnit bare);

// Loads the configuration; a bad key or value is a UsageError (exit 2).
host::Config load_config(const ParsedArgs& parsed);

// The plugin folders a listing command searches first: its --plugin-path DIRS (colon-separated,
// when the command has that option), then the configuration's plugin_path.
std::vector<std::string> plugin_search_path(const ParsedArgs& parsed);

}  // namespace zkp::cli
