// zkpipe serve [--config FILE] [key=value ...]: one long-running host (the prover, pacer and
// pipeline the same configuration gives `run` and `prove`) behind the gRPC API of
// host/serve/proto/zkpipe/v1/prover.proto, on a unix socket and, when configured, on TCP with a
// bearer token and optionally TLS ([serve] keys: host/serve/settings.hpp).
//
// SIGTERM or SIGINT: new work is refused, what is queued is cancelled, what is on a device
// gets serve.grace to finish, open Prove/Await calls get their outcome, and the command exits
// 0 (1 if the grace time passed with work still on a device). SIGHUP reads the configuration
// again and applies what can change without a restart: log_level, the bearer token file and the
// TLS certificate and key (Server::reload); a configuration that no longer parses, or a
// certificate and key that do not belong together, is logged and changes nothing.
#include "services/command/command.hpp"
#include "services/command/markdown_table.hpp"
#include "services/command/net_commands.hpp"
#include "services/command/options.hpp"

#include <zkpipe/host/host.hpp>
#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include "grpc_log.hpp"
#include "log_format.hpp"
#include "serve_options.hpp"
#include "server.hpp"
#include "settings.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <pthread.h>

namespace zkp::cli {

namespace {

constexpr const char* kUsage = "zkpipe serve [--config FILE] [key=value ...]   (serve.socket=PATH, serve.tcp=HOST:PORT, ...)";

// Blocks the stop signals in this thread before any other starts, so every thread the host
// and gRPC make inherits the mask and the signals wait for sigwait here.
sigset_t block_stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
}

// The README's table of the [serve] keys (under "## zkpipe serve"), from serve_options().
std::string serve_markdown_table() {
  std::vector<MarkdownRow> rows;
  for (const serve::ServeOption& o : serve::serve_options()) {
    const std::string default_text = o.machine != nullptr       ? o.machine->words
                                     : *o.default_text == '\0' ? ""
                                                               : markdown_code(o.default_text);
    rows.push_back({markdown_code(std::string("serve.").append(o.key)), default_text, o.meaning});
  }
  return markdown_table("key", rows);
}

void reload(const ParsedArgs& parsed, serve::Server& server) {
  try {
    const host::Config config = load_config(parsed);
    server.reload(config, serve::Settings::from(config));
  } catch (const std::exception& e) {
    host::log().error("serve: SIGHUP: the configuration was not reloaded, nothing changed: {}", e.what());
  }
}

int run_serve(const std::vector<std::string>& args) {
  boost::program_options::options_description specific("serve options");
  specific.add_options()("markdown", boost::program_options::bool_switch(),
                         "with --help: only the table of the [serve] keys, as README.md has it");
  const ParsedArgs parsed = parse_command_line(args, specific);
  const bool markdown = parsed.values["markdown"].as<bool>();
  if (markdown && !parsed.help) throw UsageError("--markdown goes with --help");
  if (parsed.help) {
    if (markdown) {
      std::cout << serve_markdown_table();  // scripts/update_readme_config.sh pastes it into README.md
    } else {
      std::cout << serve::settings_help() << "\n";
      print_command_help(std::cout, kUsage, specific);
    }
    return kExitSuccess;
  }
  require_key_value_overrides(parsed);
  host::Config config = load_config(parsed);
  serve::Settings settings;
  try {
    settings = serve::Settings::from(config);
  } catch (const sdk::Error& e) {
    throw UsageError(e.what());
  }
  serve::apply_log_format(settings.log_format);  // before the host starts, so its lines are in it too
  serve::route_grpc_log_lines();                 // and gRPC's own lines with them

  const sigset_t stop_signals = block_stop_signals();
  host::Host host(config);
  serve::Server server(host, settings, std::move(config));
  int signal = 0;
  while (sigwait(&stop_signals, &signal) != 0 || signal == SIGHUP) {
    if (signal == SIGHUP) reload(parsed, server);
    signal = 0;
  }
  host::log().info("serve: {}: shutting down (queued work cancelled, work on a device finished)", strsignal(signal));
  if (!server.drain()) {
    std::fflush(nullptr);
    std::_Exit(kExitFailure);  // the host's threads still wait on a device: nothing may join them
  }
  return kExitSuccess;
}

}  // namespace

ZKPIPE_COMMAND(serve, net::kServeSummary, kUsage, run_serve);

}  // namespace zkp::cli
