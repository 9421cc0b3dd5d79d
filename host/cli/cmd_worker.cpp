// zkpipe worker --queue URL --id NAME [--config FILE] [key=value ...]: one host (the prover,
// pacer and pipeline the same configuration gives `run` and `serve`) fed from the fleet's job
// store (host/queue/queue_worker.hpp; the protocol in docs/FLEET.md).
//
// SIGTERM or SIGINT: nothing more is claimed, partitions not yet on a device are released
// (queued again at once), those on one finish and are written, and the command exits 0.
// SIGKILL (or a crash) loses nothing either: the leases expire and other workers reclaim
// them; a restart with the same --id requeues them at once.
#include "command.hpp"
#include "net/module.hpp"
#include "queue_options.hpp"

#include <zkpipe/host/host.hpp>
#include <zkpipe/host/logging.hpp>

#include "queue_worker.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <iostream>
#include <sstream>
#include <thread>

#include <pthread.h>

namespace zkp::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kUsage =
    "zkpipe worker --queue URL [--id NAME] [--lease-ms MS] [--heartbeat-ms MS] [--slots N]\n"
    "              [--reconnect-ms MS] [--attempt-deadline-ms MS] [--curves bn254,bls12_381]\n"
    "              [--result-batch N] [--result-batch-ms MS] [--key-idle-ms MS] [--fail-host-local]\n"
    "              [--config FILE] [key=value ...]";

std::string default_id() {
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) std::strcpy(host, "host");
  return std::string(host) + "-" + std::to_string(getpid());
}

int worker_body(const std::vector<std::string>& args) {
  po::options_description specific("worker options");
  add_queue_option(specific);
  specific.add_options()
      ("id", po::value<std::string>()->value_name("NAME"),
       "this worker's name in the store (default host-pid); a restart with the same name requeues its old leases at once")
      ("lease-ms", po::value<int64_t>()->default_value(30000)->value_name("MS"),
       "how long a claim lasts without a heartbeat: a dead worker's partitions wait this long")
      ("heartbeat-ms", po::value<int64_t>()->value_name("MS"), "how often leases are renewed (default lease/3)")
      ("poll-ms", po::value<int64_t>()->default_value(500)->value_name("MS"),
       "longest idle wait between claims (enqueue's NOTIFY wakes the worker sooner)")
      ("slots", po::value<uint32_t>()->default_value(0)->value_name("N"),
       "partitions in flight at most (0: devices x workers per device x 4)")
      ("reconnect-ms", po::value<int64_t>()->default_value(60000)->value_name("MS"),
       "how long the database may stay unreachable (a restart, a failover) before the worker exits 1")
      ("attempt-deadline-ms", po::value<int64_t>()->default_value(0)->value_name("MS"),
       "give a partition up to other workers (stop renewing its lease) once it has been in this host this long; "
       "0: never")
      ("result-batch", po::value<uint32_t>()->default_value(16)->value_name("N"),
       "write results in one transaction per N (1: each on its own)")
      ("result-batch-ms", po::value<int64_t>()->default_value(20)->value_name("MS"),
       "and at most MS after the first of a batch completed (at once when nothing else is in flight)")
      ("key-idle-ms", po::value<int64_t>()->default_value(0)->value_name("MS"),
       "unload a key no partition has used for MS (loaded again when a claim needs it); 0: keep every key loaded")
      ("fail-host-local", po::bool_switch(),
       "fail a partition that fails here for a reason of this host's own (a device fault, memory, a path it cannot "
       "read) instead of giving it back to the queue for another worker")
      ("curves", po::value<std::string>()->default_value("bn254,bls12_381")->value_name("LIST"),
       "the curves of the jobs with a curve constraint this worker claims (bn254, bls12_381; comma-separated)");
  const ParsedArgs parsed = parse_command_line(args, specific);
  if (parsed.help) {
    print_command_help(std::cout, kUsage, specific);
    return kExitSuccess;
  }
  for (const std::string& o : parsed.overrides) {
    if (o.find('=') == std::string::npos) throw UsageError("unexpected argument '" + o + "' (overrides are key=value)");
  }
  queue::WorkerOptions options;
  options.url = queue_url(parsed);
  options.id = parsed.values.count("id") ? parsed.values["id"].as<std::string>() : default_id();
  options.lease = std::chrono::milliseconds(parsed.values["lease-ms"].as<int64_t>());
  options.heartbeat = parsed.values.count("heartbeat-ms") ? std::chrono::milliseconds(parsed.values["heartbeat-ms"].as<int64_t>())
                                                          : options.lease / 3;
  options.poll = std::chrono::milliseconds(parsed.values["poll-ms"].as<int64_t>());
  options.slots = parsed.values["slots"].as<uint32_t>();
  options.reconnect_for = std::chrono::milliseconds(parsed.values["reconnect-ms"].as<int64_t>());
  if (options.reconnect_for.count() < 0) throw UsageError("--reconnect-ms must not be negative");
  options.attempt_deadline = std::chrono::milliseconds(parsed.values["attempt-deadline-ms"].as<int64_t>());
  if (options.attempt_deadline.count() < 0) throw UsageError("--attempt-deadline-ms must not be negative");
  options.result_batch = parsed.values["result-batch"].as<uint32_t>();
  options.result_batch_wait = std::chrono::milliseconds(parsed.values["result-batch-ms"].as<int64_t>());
  if (options.result_batch == 0) throw UsageError("--result-batch must be at least 1");
  if (options.result_batch_wait.count() < 0) throw UsageError("--result-batch-ms must not be negative");
  options.key_idle = std::chrono::milliseconds(parsed.values["key-idle-ms"].as<int64_t>());
  if (options.key_idle.count() < 0) throw UsageError("--key-idle-ms must not be negative");
  options.give_back_host_failures = !parsed.values["fail-host-local"].as<bool>();
  options.curves.clear();
  std::stringstream curves(parsed.values["curves"].as<std::string>());
  for (std::string c; std::getline(curves, c, ',');) {
    if (c != "bn254" && c != "bls12_381") throw UsageError("--curves lists bn254 and bls12_381, not '" + c + "'");
    options.curves.push_back(c);
  }
  if (options.id.empty()) throw UsageError("--id must not be empty");
  if (options.lease.count() <= 0 || options.heartbeat.count() <= 0 || options.poll.count() <= 0) {
    throw UsageError("--lease-ms, --heartbeat-ms and --poll-ms must be positive");
  }
  if (options.heartbeat >= options.lease) {
    throw UsageError("--heartbeat-ms must be shorter than --lease-ms (a lease would expire between heartbeats)");
  }
  host::Config config = load_config(parsed);

  // The stop signals wait for sigwait on one thread; every thread started after this
  // inherits the mask.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);

  host::Host host(std::move(config));
  queue::QueueWorker worker(host, options);
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
  std::fprintf(stderr,
               "zkpipe worker %s: claimed %llu, written %llu, dropped (late) %llu, released %llu, leases lost %llu, "
               "requeued at start %llu, reconnects %llu, past the attempt deadline %llu, failed at the attempts cap %llu, keys unloaded %llu, given back %llu\n",
               options.id.c_str(), static_cast<unsigned long long>(c.claimed), static_cast<unsigned long long>(c.written),
               static_cast<unsigned long long>(c.dropped), static_cast<unsigned long long>(c.released),
               static_cast<unsigned long long>(c.lost_leases), static_cast<unsigned long long>(c.abandoned_at_start),
               static_cast<unsigned long long>(c.reconnects), static_cast<unsigned long long>(c.overdue),
               static_cast<unsigned long long>(c.given_up), static_cast<unsigned long long>(c.keys_unloaded),
               static_cast<unsigned long long>(c.returned));
  return kExitSuccess;
}

int run_worker(const std::vector<std::string>& args) {
  return with_queue_errors("worker", [&] { return worker_body(args); });
}

}  // namespace

ZKPIPE_COMMAND(worker, net::kWorkerSummary, kUsage, run_worker);

}  // namespace zkp::cli
