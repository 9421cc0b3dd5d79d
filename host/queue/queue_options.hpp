// The option every command over the job store takes: --queue URL (a libpq connection URI,
// postgresql://user@host:port/db; ZKPIPE_QUEUE in the environment when it is left out), and
// the exit codes of the store's failures, which every such command shares (sysexits.h's, so
// that a supervisor can tell "try again later" from "fix the set-up"):
//   75  the database is unavailable: it cannot be reached, or stayed away past a worker's
//       --reconnect-ms                                          [database unavailable]
//   77  the database refused the connection: authentication, role, database name
//                                                               [database refused the connection]
//   78  the store's schema is not this zkpipe's version (run `zkpipe queue init` or
//       `migrate`, or upgrade zkpipe)                           [schema version]
// A URL that does not parse, or holds an option value libpq refuses before trying a server
// (sslmode=bogus), is a usage error (2), its password shown as "***"; a refused statement a
// failure (1).
#pragma once

#include "services/command/command.hpp"
#include "services/command/options.hpp"

#include "pg.hpp"
#include "schema.hpp"

#include <cstdlib>
#include <iostream>
#include <ostream>
#include <string>

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

inline constexpr int kExitQueueUnavailable = 75;
inline constexpr int kExitQueueRefused = 77;
inline constexpr int kExitQueueSchema = 78;

// The exit codes above and the commands' own, for --help (from the constants, so the help says
// what the code returns; docs/FLEET.md has the same table). `worker`: the worker's wording.
inline void print_queue_exit_codes(std::ostream& out, bool worker) {
  auto row = [&out](int code, const char* text) {
    const std::string c = std::to_string(code);
    out << "  " << c << std::string(4 - c.size(), ' ') << text << "\n";
  };
  out << "Exit status:\n";
  row(kExitSuccess, worker ? "stopped by SIGTERM or SIGINT (leases released, proofs on a device written)" : "done");
  row(kExitFailure, "any other failure, a statement the database refused included");
  row(kExitUsage, "a usage error: a bad flag, a URL that does not parse (its password shown as ***)");
  row(kExitQueueUnavailable, worker ? "[database unavailable] the database cannot be reached, or stayed away past "
                                      "--reconnect-ms"
                                    : "[database unavailable] the database cannot be reached");
  row(kExitQueueRefused, "[database refused the connection] authentication, role or database name");
  row(kExitQueueSchema, "[schema version] not this zkpipe's schema: zkpipe queue init or migrate, or upgrade");
}

// Help for a command that runs no host: its usage, options and exit codes, without the host's
// configuration reference.
inline void print_queue_help(std::ostream& out, const char* usage, const boost::program_options::options_description& d) {
  out << "Usage: " << usage << "\n\n" << d << "\n";
  print_queue_exit_codes(out, false);
}

// Runs a queue command's body, turning the store's failures into their exit codes with one
// line on stderr that names the failure (main() handles every other exception).
template <class Body>
int with_queue_errors(const char* command, Body&& body) {
  auto fail = [command](const std::exception& e, const char* what, int code) {
    std::cerr << "zkpipe " << command << ": " << e.what() << " [" << what << "]\n";
    return code;
  };
  try {
    return body();
  } catch (const queue::UrlError& e) {
    throw UsageError(e.what());
  } catch (const queue::SchemaError& e) {
    return fail(e, "schema version", kExitQueueSchema);
  } catch (const queue::RefusedError& e) {
    return fail(e, "database refused the connection", kExitQueueRefused);
  } catch (const queue::UnavailableError& e) {
    return fail(e, "database unavailable", kExitQueueUnavailable);
  }
}

}  // namespace zkp::cli
