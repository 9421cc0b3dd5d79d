// zkpipe queue init|migrate|version --queue URL: creates the job store's schema in a
// PostgreSQL database, brings it to this zkpipe's version, or says which version it is at
// (host/queue/schema.hpp; the tables are in docs/FLEET.md).
#include "command.hpp"
#include "queue_options.hpp"

#include "schema.hpp"

#include <iostream>

namespace zkp::cli {

namespace {

constexpr const char* kUsage = "zkpipe queue init|migrate|version --queue URL";

int run_queue(const std::vector<std::string>& args) {
  boost::program_options::options_description specific("queue options");
  add_queue_option(specific);
  specific.add_options()("action", boost::program_options::value<std::string>()->value_name("ACTION"),
                         "init (create the schema), migrate (apply pending migrations), version");
  const ParsedArgs parsed = parse_command_line(args, specific, {"action"});
  if (parsed.help) {
    print_queue_help(std::cout, kUsage, specific);
    return kExitSuccess;
  }
  if (!parsed.values.count("action")) throw UsageError("expected init, migrate or version");
  if (!parsed.overrides.empty()) throw UsageError("unexpected argument '" + parsed.overrides.front() + "'");
  const std::string action = parsed.values["action"].as<std::string>();
  if (action != "init" && action != "migrate" && action != "version") {
    throw UsageError("unknown action '" + action + "' (init, migrate or version)");
  }
  queue::Connection db(queue_url(parsed));
  const int before = queue::schema_version(db);
  if (action == "version") {
    std::cout << "schema version " << before << " (this zkpipe: " << queue::latest_schema_version() << ")\n";
    return kExitSuccess;
  }
  if (action == "init" && before != 0) {
    // Not an error for a fleet whose hosts all run `init` at start; an old schema is.
    if (before != queue::latest_schema_version()) {
      std::cerr << "zkpipe queue init: the store exists at version " << before << "; run `zkpipe queue migrate`\n";
      return kExitFailure;
    }
    std::cout << "schema version " << before << " (already initialised)\n";
    return kExitSuccess;
  }
  const queue::Migrated m = queue::migrate(db);
  if (m.from == m.to) {
    std::cout << "schema version " << m.to << " (up to date)\n";
  } else {
    std::cout << "schema version " << m.from << " -> " << m.to << "\n";
  }
  return kExitSuccess;
}

}  // namespace

ZKPIPE_COMMAND(queue, "create or migrate the PostgreSQL job store of a fleet (docs/FLEET.md)", kUsage, run_queue);

}  // namespace zkp::cli
