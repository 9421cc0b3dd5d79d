#include "worker_endpoint.hpp"

#include "services/observe/exposition.hpp"

#include "core/formats/json.hpp"

#include <utility>

namespace zkp::queue {

namespace {

using observe::Exposition;

// One counter or gauge family with one sample, and its JSON twin.
struct Figure {
  const char* name;  // without the zkpipe_worker_ prefix
  Exposition::Type type;
  const char* help;
  uint64_t value;
};

std::vector<Figure> figures(const WorkerStatus& s) {
  const WorkerCounters& c = s.counters;
  using T = Exposition::Type;
  return {
      {"database_up", T::gauge, "1 while the worker's connections to the job store are up, 0 while it reconnects.",
       s.database_up ? 1u : 0u},
      {"partitions_in_flight", T::gauge, "Partitions claimed (leased) and not yet settled.", s.in_flight},
      {"claimed_total", T::counter, "Partitions claimed from the store.", c.claimed},
      {"results_written_total", T::counter, "Results written to the store.", c.written},
      {"results_dropped_total", T::counter,
       "Results dropped because another worker had written the partition's result first (a reclaimed lease).", c.dropped},
      {"released_total", T::counter, "Leases given back unstarted (a stop, a cancel), queued again at once.", c.released},
      {"leases_lost_total", T::counter, "Leases another worker reclaimed while this one still ran them.", c.lost_leases},
      {"requeued_at_start_total", T::counter, "Leases of this worker id's previous run requeued at its start.",
       c.abandoned_at_start},
      {"reconnects_total", T::counter, "Database outages survived (either connection).", c.reconnects},
      {"past_attempt_deadline_total", T::counter,
       "Partitions held past --attempt-deadline-ms and left to other workers.", c.overdue},
      {"failed_at_attempts_cap_total", T::counter,
       "The fleet's partitions this worker failed because their attempts reached their cap.", c.given_up},
      {"keys_unloaded_total", T::counter, "Keys unloaded after --key-idle-ms unused.", c.keys_unloaded},
      {"given_back_total", T::counter, "Partitions that failed here for a reason of this host's own, given back to the queue.",
       c.returned},
  };
}

}  // namespace

std::string worker_metrics_text(const std::string& id, const WorkerStatus& status) {
  Exposition e;
  e.family("zkpipe_worker_info", Exposition::Type::gauge, "The worker's id in the store (value 1).");
  e.sample("zkpipe_worker_info", {{"id", id}}, 1);
  for (const Figure& f : figures(status)) {
    const std::string name = std::string("zkpipe_worker_") + f.name;
    e.family(name, f.type, f.help);
    e.sample(name, static_cast<double>(f.value));
  }
  return e.text();
}

WorkerEndpoint::WorkerEndpoint(const std::string& address, std::string id, host::Host& host, const QueueWorker& worker,
                               const observe::Metrics& metrics)
    : id_(std::move(id)),
      host_(host),
      worker_(worker),
      metrics_(metrics),
      http_(address, [this](const observe::HttpRequest& request) { return page(request); }) {}

observe::Report WorkerEndpoint::report() const {
  const WorkerStatus status = worker_.status();
  observe::Report r = observe::host_report(host_, ZKPIPE_VERSION, started_);
  r.serving = !status.stopping;
  r.keys = status.keys;
  r.key_counters = status.key_counters;
  r.metrics = metrics_.snapshot();
  r.jobs_open = status.in_flight;  // each claim is a one-partition job of the host
  r.extra_metrics = worker_metrics_text(id_, status);
  std::map<std::string, uint64_t> worker;
  for (const Figure& f : figures(status)) worker[f.name] = f.value;
  r.extra_status.emplace_back("worker", observe::counts_json(worker));
  r.extra_status.emplace_back("worker_id", json_quoted(id_));
  return r;
}

observe::HttpResponse WorkerEndpoint::page(const observe::HttpRequest& request) const {
  const std::string& path = request.path;
  if (path == "/metrics") return {200, "text/plain; version=0.0.4; charset=utf-8", observe::metrics_text(report())};
  if (path == "/status") return {200, "application/json", observe::status_json(report())};
  if (path == "/healthz") {
    const WorkerStatus s = worker_.status();
    if (s.stopping) return {503, "text/plain; charset=utf-8", "stopping\n"};
    if (!s.database_up) return {503, "text/plain; charset=utf-8", "database unavailable: reconnecting\n"};
    return {200, "text/plain; charset=utf-8", "ok\n"};
  }
  return {404, "text/plain; charset=utf-8", "not found: the worker answers /metrics, /status and /healthz\n"};
}

}  // namespace zkp::queue
