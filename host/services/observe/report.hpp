// The facts /metrics and /status show, gathered at once (serve's Service::report, the fleet
// worker's HTTP endpoint), and the two pages made from them: Prometheus text exposition and
// JSON. Every figure comes from the host's counters (zkp_host_stats, zkp_host_device_info, the
// pacer's status line), the key table, or the completion metrics (metrics.hpp); the two pages
// show the same facts, under the same names in both front ends.
#pragma once

#include "services/key_table.hpp"
#include "metrics.hpp"

#include <zkpipe/host/host.hpp>
#include <zkpipe/zkpipe.h>

#include <chrono>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace zkp::observe {

struct Report {
  std::string version;
  std::string prover;
  bool simulated = false;
  std::string pacer;
  std::string pacer_status;
  bool serving = true;
  double uptime_seconds = 0;
  uint64_t unix_ms = 0;  // when the report was made (the dashboard's "last minutes" end here)
  zkp_host_stats_t stats{};
  std::vector<zkp_device_info_t> devices;
  std::vector<services::KeyEntry> keys;
  services::KeyTable::Counters key_counters;
  Metrics::Snapshot metrics;
  uint64_t jobs_open = 0;
  // What the front end adds of its own: families of Prometheus text appended to /metrics
  // (serve's auth refusals, the fleet worker's store counters), and fields of /status, each a
  // key and its raw JSON value.
  std::string extra_metrics;
  std::vector<std::pair<std::string, std::string>> extra_status;
};

constexpr size_t kCompletionsShown = 20;  // of Metrics' ring, in /status

std::string metrics_text(const Report& r);  // text/plain; version=0.0.4
// application/json. Besides the facts /metrics shows: "generated_unix_ms", "recent" (the last
// 60 s and 10 s buckets of the last 5 minutes, recent.hpp), each device's "busy_share" (last
// 60 s), each histogram's "mean_seconds", and "recent_completions" (the latest kCompletionsShown,
// oldest first): what the dashboard (GET /) shows.
std::string status_json(const Report& r);

// A Report with the host's own facts filled in (version, prover, pacer, stats, devices, uptime
// since `started`, the time now); the front end adds the rest (serving, keys, metrics, jobs
// open, its extras). One place for what serve's and the worker's pages both show.
Report host_report(host::Host& host, const std::string& version, std::chrono::steady_clock::time_point started);

// {"name": count, ...}: a map of counts as a JSON object, for Report::extra_status.
std::string counts_json(const std::map<std::string, uint64_t>& counts);

}  // namespace zkp::observe
