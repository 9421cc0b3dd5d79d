// The facts /metrics and /status show, gathered at once (Service::report), and the two pages
// made from them: Prometheus text exposition and JSON. Every figure comes from the host's
// counters (zkp_host_stats, zkp_host_device_info, the pacer's status line), the key table, or
// the service's completion metrics; the two pages show the same facts.
#pragma once

#include "key_table.hpp"
#include "metrics.hpp"

#include <zkpipe/zkpipe.h>

#include <string>
#include <vector>

namespace zkp::serve {

struct Report {
  std::string version;
  std::string prover;
  bool simulated = false;
  std::string pacer;
  std::string pacer_status;
  bool serving = true;
  double uptime_seconds = 0;
  zkp_host_stats_t stats{};
  std::vector<zkp_device_info_t> devices;
  std::vector<KeyEntry> keys;
  KeyTable::Counters key_counters;
  Metrics::Snapshot metrics;
  uint64_t jobs_open = 0;
};

std::string metrics_text(const Report& r);  // text/plain; version=0.0.4
std::string status_json(const Report& r);   // application/json

}  // namespace zkp::serve
