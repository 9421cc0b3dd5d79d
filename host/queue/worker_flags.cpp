// `zkpipe worker`'s flags (worker_flags.hpp). To add one: a WorkerOptions field with its
// default (queue_worker.hpp) and an entry here; --help, the usage line, the parsing and the
// README's table follow (the README test, tests/host/readme_tables.sh, says how to regenerate it).
#include "worker_flags.hpp"

#include "services/command/command.hpp"
#include "services/command/markdown_table.hpp"
#include "services/command/options.hpp"

#include <unistd.h>

#include <chrono>
#include <cstring>

namespace zkp::cli {

namespace {

namespace po = boost::program_options;
using queue::WorkerOptions;
using Millis = std::chrono::milliseconds;

// Heartbeats per lease when --heartbeat-ms is not given: two can then be lost before the lease
// expires (docs/FLEET.md, "Sizing the lease and the heartbeat").
constexpr int kHeartbeatsPerLease = 3;
// The usage line's width (within 100 columns after "Usage: "), and the indent of its
// continuation lines (under "--queue").
constexpr size_t kUsageWidth = 90;
constexpr const char* kUsageIndent = "              ";

std::string default_id() {
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) std::strcpy(host, "host");
  return std::string(host) + "-" + std::to_string(getpid());
}

std::string option(const char* name) { return std::string("--").append(name); }

// "--lease-ms MS", "--fail-host-local": as the usage line and the README spell the flag.
std::string spelled(const WorkerFlag& f) {
  std::string out = option(f.name);
  if (f.value_name != nullptr) out.append(" ").append(f.value_name);
  return out;
}

// A duration in milliseconds: 0 and up, or (positive) 1 and up; "1500", or with a unit ("2s",
// "1.5m"), at most 30 days (services::parse_duration, as every duration flag).
Millis millis_value(const char* name, const std::string& text, bool positive) {
  if (!text.empty() && text.front() == '-') {
    throw UsageError(option(name) + (positive ? " must be positive" : " must not be negative"));
  }
  const Millis ms = duration_flag(option(name), text, services::DurationUnit::milliseconds);
  if (positive && ms.count() < 1) throw UsageError(option(name) + " must be positive");
  return ms;
}

WorkerFlag millis(const char* name, Millis WorkerOptions::*field, bool positive, std::string meaning) {
  const int64_t d = (WorkerOptions{}.*field).count();
  return {name, "MS", std::to_string(d), nullptr, std::move(meaning),
          [d] { return po::value<std::string>()->default_value(std::to_string(d))->value_name("MS"); },
          [name, field, positive](const po::variables_map& v, WorkerOptions& o) {
            o.*field = millis_value(name, v[name].as<std::string>(), positive);
          }};
}

// A count, `min` and up.
WorkerFlag count(const char* name, uint32_t WorkerOptions::*field, uint32_t min, std::string meaning) {
  const uint32_t d = WorkerOptions{}.*field;
  return {name, "N", std::to_string(d), nullptr, std::move(meaning),
          [d] { return po::value<uint32_t>()->default_value(d)->value_name("N"); },
          [name, field, min](const po::variables_map& v, WorkerOptions& o) {
            const uint32_t n = v[name].as<uint32_t>();
            if (n < min) throw UsageError(option(name) + " must be at least " + std::to_string(min));
            o.*field = n;
          }};
}

std::string comma_separated(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& i : items) out.append(out.empty() ? "" : ",").append(i);
  return out;
}

}  // namespace

const std::vector<WorkerFlag>& worker_flags() {
  static const std::vector<WorkerFlag> flags{
      {"id", "NAME", "", "HOSTNAME-PID",
       "this worker's name in the store; a restart with the same name requeues its old leases at once",
       [] { return po::value<std::string>()->value_name("NAME"); },
       [](const po::variables_map& v, WorkerOptions& o) {
         o.id = v.count("id") ? v["id"].as<std::string>() : default_id();
         if (o.id.empty()) throw UsageError("--id must not be empty");
       }},
      millis("lease-ms", &WorkerOptions::lease, true,
             "how long a claim lasts without a heartbeat: a dead worker's partitions wait this long"),
      {"heartbeat-ms", "MS", "", "a third of --lease-ms", "how often leases are renewed",
       [] { return po::value<std::string>()->value_name("MS"); },
       [](const po::variables_map& v, WorkerOptions& o) {  // after lease-ms, which it must be shorter than
         o.heartbeat = v.count("heartbeat-ms") ? millis_value("heartbeat-ms", v["heartbeat-ms"].as<std::string>(), true)
                                               : o.lease / kHeartbeatsPerLease;
         if (o.heartbeat.count() <= 0) throw UsageError("--heartbeat-ms must be positive");
         if (o.heartbeat >= o.lease) {
           throw UsageError("--heartbeat-ms must be shorter than --lease-ms (a lease would expire between heartbeats)");
         }
       }},
      millis("poll-ms", &WorkerOptions::poll, true,
             "longest idle wait between claims (enqueue's NOTIFY wakes the worker sooner)"),
      count("slots", &WorkerOptions::slots, 0, "partitions in flight at most (0: devices x workers per device x 4)"),
      millis("reconnect-ms", &WorkerOptions::reconnect_for, false,
             "how long the database may stay unreachable (a restart, a failover) before the worker exits 75 "
             "[database unavailable]"),
      millis("attempt-deadline-ms", &WorkerOptions::attempt_deadline, false,
             "give a partition up to other workers (stop renewing its lease) once it has been in this host this "
             "long; 0: never"),
      count("result-batch", &WorkerOptions::result_batch, 1,
            "write results in one transaction per N (1: each on its own)"),
      millis("result-batch-ms", &WorkerOptions::result_batch_wait, false,
             "and at most MS after the first of a batch completed (at once when nothing else is in flight)"),
      millis("key-idle-ms", &WorkerOptions::key_idle, false,
             "unload a key no partition has used for MS (loaded again when a claim needs it); 0: keep every key "
             "loaded"),
      {"fail-host-local", nullptr, "", nullptr,
       "fail a partition that fails here for a reason of this host's own (a device fault, memory, a path it "
       "cannot read) instead of giving it back to the queue for another worker",
       [] { return po::bool_switch(); },
       [](const po::variables_map& v, WorkerOptions& o) {
         o.give_back_host_failures = !v["fail-host-local"].as<bool>();
       }},
      {"http", "HOST:PORT", "", nullptr,
       "also answer GET /metrics (Prometheus text, serve's names where they mean the same), /status (JSON) and "
       "/healthz (200 while claiming with the database up, 503 with the reason) over plain HTTP on a loopback "
       "HOST:PORT (127.0.0.1, [::1] or localhost; port 0: a free port, logged)",
       [] { return po::value<std::string>()->value_name("HOST:PORT"); },
       {}},
      {"curves", "LIST", comma_separated(WorkerOptions{}.curves), nullptr,
       "the curves of the jobs with a curve constraint this worker claims (bn254, bls12_381; comma-separated)",
       [] { return po::value<std::string>()->default_value(comma_separated(WorkerOptions{}.curves))->value_name("LIST"); },
       {}},
  };
  return flags;
}

void add_worker_flags(po::options_description& d) {
  for (const WorkerFlag& f : worker_flags()) {
    std::string meaning = f.meaning;
    if (f.words != nullptr) meaning.append(" (default ").append(f.words).append(")");
    d.add_options()(f.name, f.semantic(), meaning.c_str());
  }
}

WorkerOptions worker_options_from(const po::variables_map& values) {
  WorkerOptions options;
  for (const WorkerFlag& f : worker_flags()) {
    if (f.set) f.set(values, options);
  }
  return options;
}

const std::string& worker_usage() {
  static const std::string usage = [] {
    std::vector<std::string> parts;
    for (const WorkerFlag& f : worker_flags()) {
      parts.push_back(std::string("[").append(spelled(f)).append("]"));
    }
    parts.push_back("[--config FILE]");
    parts.push_back("[key=value ...]");
    std::string out = "zkpipe worker --queue URL";
    size_t line_start = 0;
    for (const std::string& p : parts) {
      if (out.size() - line_start + 1 + p.size() > kUsageWidth) {
        out.append("\n");
        line_start = out.size();
        out.append(kUsageIndent).append(p);
      } else {
        out.append(" ").append(p);
      }
    }
    return out;
  }();
  return usage;
}

std::string worker_markdown_table() {
  std::vector<MarkdownRow> rows;
  for (const WorkerFlag& f : worker_flags()) {
    const std::string default_text = f.words != nullptr        ? f.words
                                     : f.default_text.empty() ? ""
                                                              : markdown_code(f.default_text);
    rows.push_back({markdown_code(spelled(f)), default_text, f.meaning});
  }
  return markdown_table("flag", rows);
}

}  // namespace zkp::cli
