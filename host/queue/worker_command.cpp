// zkpipe worker --queue URL --id NAME [--config FILE] [key=value ...]: one host (the prover,
// pacer and pipeline the same configuration gives `run` and `serve`) fed from the fleet's job
// store (host/queue/queue_worker.hpp; the protocol in docs/FLEET.md). Its flags, their defaults
// and checks are declared in worker_flags.cpp.
//
// SIGTERM or SIGINT: nothing more is claimed, partitions not yet on a device are released
// (queued again at once), those on one finish and are written, and the command exits 0.
// SIGKILL (or a crash) loses nothing either: the leases expire and other workers reclaim
// them; a restart with the same --id requeues them at once.
#include "services/command/command.hpp"
#include "services/command/net_commands.hpp"
#include "queue_options.hpp"
#include "worker_flags.hpp"

#include <zkpipe/host/host.hpp>
#include <zkpipe/host/logging.hpp>

#include "queue_worker.hpp"
#include "services/address.hpp"
#include "services/names.hpp"
#include "services/observe/metrics.hpp"
#include "worker_endpoint.hpp"

#include <fmt/format.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include <pthread.h>

namespace zkp::cli {

namespace {

namespace po = boost::program_options;

int worker_body(const std::vector<std::string>& args) {
  po::options_description specific("worker options");
  add_queue_option(specific);
  add_worker_flags(specific);
  specific.add_options()("markdown", po::bool_switch(), "with --help: only the table of these flags, as README.md has it");
  const ParsedArgs parsed = parse_command_line(args, specific);
  const bool markdown = parsed.values["markdown"].as<bool>();
  if (markdown && !parsed.help) throw UsageError("--markdown goes with --help");
  if (parsed.help) {
    if (markdown) {
      std::cout << worker_markdown_table();  // scripts/update_readme_config.sh pastes it into README.md
    } else {
      print_command_help(std::cout, worker_usage().c_str(), specific);
      std::cout << "\n";
      print_queue_exit_codes(std::cout, true);
    }
    return kExitSuccess;
  }
  require_key_value_overrides(parsed);
  const std::string url = queue_url(parsed);  // first, as before: a missing store is the first thing said
  queue::WorkerOptions options = worker_options_from(parsed.values);
  options.url = url;
  options.curves.clear();
  std::stringstream curves(parsed.values["curves"].as<std::string>());
  for (std::string c; std::getline(curves, c, ',');) {
    // The fleet's spelling (services/names.hpp), which the store compares.
    const std::optional<zkp_curve_t> curve = services::curve_from_fleet_name(c);
    if (!curve) throw UsageError("--curves lists bn254 and bls12_381, not '" + c + "'");
    options.curves.emplace_back(services::fleet_curve_name(*curve));
  }
  std::string http;
  if (parsed.values.count("http")) {
    http = parsed.values["http"].as<std::string>();
    if (!services::is_loopback_address(http)) {
      throw UsageError("--http takes a loopback HOST:PORT (127.0.0.1:PORT, [::1]:PORT or localhost:PORT), not '" + http +
                       "': the endpoint has no authentication");
    }
  }
  host::Config config = load_config(parsed);
  // What --http's /metrics and /status count, fed by every completion of the host.
  observe::Metrics metrics;
  options.on_completion = [&metrics](const zkp_completion_t& record, uint64_t key_id) {
    metrics.observe_partition(record, key_id);
  };

  // The stop signals wait for sigwait on one thread; every thread started after this
  // inherits the mask.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);

  host::Host host(std::move(config));
  queue::QueueWorker worker(host, options);
  std::optional<queue::WorkerEndpoint> endpoint;  // after the worker: it goes first
  if (!http.empty()) {
    endpoint.emplace(http, options.id, host, worker, metrics);
    host::log().info("worker {}: http:{} (/metrics, /status, /healthz)", options.id, endpoint->address());
  }
  std::atomic<bool> finished{false};
  std::thread signals([&] {
    for (;;) {
      int signal = 0;
      if (sigwait(&set, &signal) != 0) continue;
      if (finished) return;  // run() is over: main woke this thread to end it
      host::log().info("worker {}: {}: stopping (unstarted leases released, proofs on a device finished)", options.id,
                       strsignal(signal));
      worker.stop();
    }
  });
  queue::WorkerCounters c;
  try {
    c = worker.run();
  } catch (...) {
    finished = true;
    pthread_kill(signals.native_handle(), SIGTERM);
    signals.join();
    throw;
  }
  finished = true;
  pthread_kill(signals.native_handle(), SIGTERM);
  signals.join();
  // The summary is the command's closing line: JSON where the log is (log_format = json).
  print_closing_line(fmt::format("zkpipe worker {}: claimed {}, written {}, dropped (late) {}, released {}, leases lost {}, "
                                 "requeued at start {}, reconnects {}, past the attempt deadline {}, failed at the "
                                 "attempts cap {}, keys unloaded {}, given back {}",
                                 options.id, c.claimed, c.written, c.dropped, c.released, c.lost_leases,
                                 c.abandoned_at_start, c.reconnects, c.overdue, c.given_up, c.keys_unloaded, c.returned),
                     false);
  return kExitSuccess;
}

int run_worker(const std::vector<std::string>& args) {
  return with_queue_errors("worker", [&] { return worker_body(args); });
}

}  // namespace

// The usage line is made from the flags' table (worker_flags.hpp), like --help.
ZKPIPE_COMMAND(worker, net::kWorkerSummary, worker_usage().c_str(), run_worker);

}  // namespace zkp::cli
