// zkpipe jobs --queue URL [JOB]: the job store's jobs (newest first), or one job and its
// partitions (state, attempts, the worker that holds or wrote it, the result's status).
// --write DIR writes each succeeded partition's proof as DIR/P.proof.json and
// DIR/P.public.json (snarkjs's files: `zkpipe verify` and `snarkjs groth16 verify` read them);
// --wait SECONDS first waits for the job to finish (LISTEN/NOTIFY, re-read every second).
// --attempts lists every attempt at the job's partitions (one lease each: worker, start, end,
// outcome), which says why a partition failed at its attempts cap.
#include "services/command/command.hpp"
#include "services/command/net_commands.hpp"
#include "queue_options.hpp"
#include "services/output_files.hpp"

#include <zkpipe/sdk/error.hpp>

#include "store.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

namespace zkp::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kUsage = "zkpipe jobs --queue URL [--limit N] [JOB [--wait SECONDS] [--write DIR] [--attempts]]";

void print_jobs(const std::vector<queue::JobStatus>& jobs) {
  std::printf("%-8s %-5s %4s %6s %6s %6s %6s %7s  %-19s  %-19s  %s\n", "job", "state", "prio", "parts", "ok", "failed",
              "leased", "dropped", "created", "finished", "key");
  for (const queue::JobStatus& j : jobs) {
    std::printf("%-8llu %-5s %4d %6u %6u %6u %6u %7llu  %-19s  %-19s  %s\n", static_cast<unsigned long long>(j.id),
                j.state.c_str(), j.priority, j.partitions, j.succeeded, j.failed, j.leased,
                static_cast<unsigned long long>(j.dropped), j.created_at.c_str(),
                j.finished_at.empty() ? "-" : j.finished_at.c_str(), j.key_path.c_str());
  }
}

int jobs_body(const std::vector<std::string>& args) {
  po::options_description specific("jobs options");
  add_queue_option(specific);
  specific.add_options()
      ("job", po::value<uint64_t>()->value_name("JOB"), "one job: its partitions")
      ("limit,n", po::value<uint32_t>()->default_value(20)->value_name("N"), "how many jobs the list shows")
      ("wait", po::value<std::string>()->value_name("SECONDS"),
       "wait for JOB to finish first, SECONDS at most (or 500ms, 2m, 1h; at most 30 days; exit 1 if it does not)")
      ("write", po::value<std::string>()->value_name("DIR"), "write JOB's proofs: DIR/P.proof.json, DIR/P.public.json")
      ("attempts", po::bool_switch(), "list every attempt at JOB's partitions: worker, start, end, outcome");
  const ParsedArgs parsed = parse_command_line(args, specific, {"job"});
  if (parsed.help) {
    print_queue_help(std::cout, kUsage, specific);
    return kExitSuccess;
  }
  if (!parsed.overrides.empty()) throw UsageError("unexpected argument '" + parsed.overrides.front() + "'");
  const bool one = parsed.values.count("job") != 0;
  const bool attempts = parsed.values["attempts"].as<bool>();
  if (!one && (parsed.values.count("wait") || parsed.values.count("write") || attempts)) {
    throw UsageError("--wait, --write and --attempts need a JOB");
  }
  // Before the store is reached: a bad value is a usage error whatever the database does.
  const std::optional<std::chrono::milliseconds> wait =
      parsed.values.count("wait") ? std::optional(duration_flag("--wait", parsed.values["wait"].as<std::string>(),
                                                                services::DurationUnit::seconds))
                                  : std::nullopt;
  queue::Store store(queue_url(parsed));
  if (!one) {
    print_jobs(store.jobs(parsed.values["limit"].as<uint32_t>()));
    return kExitSuccess;
  }
  const uint64_t id = parsed.values["job"].as<uint64_t>();
  std::optional<queue::JobStatus> job;
  if (wait) {
    job = store.wait_done(id, *wait);
  } else {
    job = store.job(id);
  }
  if (!job) throw sdk::Error(ZKP_ERR_NOT_FOUND, "no job " + std::to_string(id) + " in the store");
  print_jobs({*job});
  const bool write = parsed.values.count("write") != 0;
  const std::vector<queue::PartitionStatus> parts = store.partitions(id, write);
  std::printf("\n%-6s %-7s %8s %-7s %-24s %s\n", "part", "state", "attempts", "status", "worker", "message");
  for (const queue::PartitionStatus& p : parts) {
    std::printf("%-6u %-7s %8u %-7s %-24s %s\n", p.index, p.state.c_str(), p.attempts,
                p.status ? std::to_string(*p.status).c_str() : "-", p.worker.empty() ? "-" : p.worker.c_str(),
                p.message.c_str());
  }
  if (attempts) {
    std::printf("\n%-6s %-8s %-24s %-23s %-23s %s\n", "part", "lease", "worker", "started", "ended", "outcome");
    for (const queue::Attempt& a : store.attempts(id)) {
      std::printf("%-6u %-8llu %-24s %-23s %-23s %s\n", a.index, static_cast<unsigned long long>(a.lease_id),
                  a.worker.c_str(), a.started.c_str(), a.ended.empty() ? "-" : a.ended.c_str(),
                  a.outcome.empty() ? "held" : a.outcome.c_str());
    }
  }
  if (write) {
    const std::filesystem::path dir = parsed.values["write"].as<std::string>();
    std::filesystem::create_directories(dir);
    size_t written = 0;
    for (const queue::PartitionStatus& p : parts) {
      if (p.state != "done" || p.proof_json.empty()) continue;
      // The pair together or not at all (services/output_files.hpp).
      services::write_files_together({{(dir / (std::to_string(p.index) + ".proof.json")).string(), p.proof_json},
                                      {(dir / (std::to_string(p.index) + ".public.json")).string(), p.public_json}});
      ++written;
    }
    std::fprintf(stderr, "zkpipe jobs: %zu proofs written to %s\n", written, dir.c_str());
  }
  if (wait && job->state != "done") {
    throw sdk::Error(ZKP_ERR_TIMEOUT, "job " + std::to_string(id) + " is not done yet");
  }
  return kExitSuccess;
}

int run_jobs(const std::vector<std::string>& args) {
  return with_queue_errors("jobs", [&] { return jobs_body(args); });
}

}  // namespace

ZKPIPE_COMMAND(jobs, net::kJobsSummary, kUsage, run_jobs);

}  // namespace zkp::cli
