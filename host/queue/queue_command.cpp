// zkpipe queue init|migrate|version|config --queue URL: creates the job store's schema in a
// PostgreSQL database, brings it to this zkpipe's version, says which version it is at
// (host/queue/schema.hpp; the tables are in docs/FLEET.md), or shows the store's settings
// (config; --max-attempts N sets the default cap of the jobs enqueued from then on).
#include "services/command/command.hpp"
#include "services/command/net_commands.hpp"
#include "queue_options.hpp"

#include "schema.hpp"
#include "store.hpp"

#include <iostream>

namespace zkp::cli {

namespace {

constexpr const char* kUsage = "zkpipe queue init|migrate|version|config --queue URL [--max-attempts N]";

int queue_body(const std::vector<std::string>& args) {
  boost::program_options::options_description specific("queue options");
  add_queue_option(specific);
  specific.add_options()("action", boost::program_options::value<std::string>()->value_name("ACTION"),
                         "init (create the schema), migrate (apply pending migrations), version, config")(
      "max-attempts", boost::program_options::value<int32_t>()->value_name("N"),
      "config: the default max_attempts of the jobs enqueued from now on (lost attempts before a partition fails)");
  const ParsedArgs parsed = parse_command_line(args, specific, {"action"});
  if (parsed.help) {
    print_queue_help(std::cout, kUsage, specific);
    return kExitSuccess;
  }
  if (!parsed.values.count("action")) throw UsageError("expected init, migrate or version");
  if (!parsed.overrides.empty()) throw UsageError("unexpected argument '" + parsed.overrides.front() + "'");
  const std::string action = parsed.values["action"].as<std::string>();
  if (action != "init" && action != "migrate" && action != "version" && action != "config") {
    throw UsageError("unknown action '" + action + "' (init, migrate, version or config)");
  }
  if (parsed.values.count("max-attempts") && action != "config") throw UsageError("--max-attempts goes with config");
  if (action == "config") {
    queue::Store store(queue_url(parsed));
    if (parsed.values.count("max-attempts")) {
      const int32_t n = parsed.values["max-attempts"].as<int32_t>();
      if (n <= 0) throw UsageError("--max-attempts is at least 1");
      store.set_default_max_attempts(n);
    }
    std::cout << "max_attempts " << store.default_max_attempts() << "\n";
    return kExitSuccess;
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
      std::cerr << "zkpipe queue init: the store exists at version " << before << "; run `zkpipe queue migrate`"
                << " [schema version]\n";
      return kExitQueueSchema;
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

int run_queue(const std::vector<std::string>& args) {
  return with_queue_errors("queue", [&] { return queue_body(args); });
}

}  // namespace

ZKPIPE_COMMAND(queue, net::kQueueSummary, kUsage, run_queue);

}  // namespace zkp::cli
