// The option every command over the job store takes: --queue URL (a libpq connection URI,
// postgresql://user@host:port/db; ZKPIPE_QUEUE in the environment when it is left out).
#pragma once

#include "command.hpp"
#include "options.hpp"

#include <cstdlib>
#include <ostream>

namespace zkp::cli {

inline void add_queue_option(boost::program_options::options_description& d) {
  d.add_options()("queue,q", boost::program_options::value<std::string>()->value_name("URL"),
                  "the job store: a PostgreSQL URI (postgresql://user@host:port/db); default $ZKPIPE_QUEUE");
}

inline std::string queue_url(const ParsedArgs& parsed) {
  if (parsed.values.count("queue")) return parsed.values["queue"].as<std::string>();
  if (const char* env = std::getenv("ZKPIPE_QUEUE"); env != nullptr && *env != '\0') return env;
  throw UsageError("no job store: give --queue postgresql://... (or set ZKPIPE_QUEUE)");
}

// Help for a command that runs no host: its usage and options, without the host's
// configuration reference.
inline void print_queue_help(std::ostream& out, const char* usage, const boost::program_options::options_description& d) {
  out << "Usage: " << usage << "\n\n" << d << "\n";
}

}  // namespace zkp::cli
