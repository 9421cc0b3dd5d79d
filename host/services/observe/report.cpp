#include "report.hpp"

#include "exposition.hpp"
#include "services/names.hpp"

#include "core/formats/json.hpp"

#include <cstdio>

namespace zkp::observe {

namespace {

using Type = Exposition::Type;

double seconds(uint64_t ns) { return static_cast<double>(ns) / 1e9; }
double num(uint64_t n) { return static_cast<double>(n); }

// --- JSON, written by hand: the page is flat and small.
std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

class Object {
 public:
  Object& field(const std::string& key, const std::string& raw_json) {
    if (out_.size() > 1) out_ += ',';
    append_json_string(out_, key);
    out_ += ':';
    out_ += raw_json;
    return *this;
  }
  Object& str(const std::string& key, const std::string& v) { return field(key, json_quoted(v)); }
  Object& u64(const std::string& key, uint64_t v) { return field(key, std::to_string(v)); }
  Object& real(const std::string& key, double v) { return field(key, number(v)); }
  Object& boolean(const std::string& key, bool v) { return field(key, v ? "true" : "false"); }
  std::string done() const { return out_ + "}"; }

 private:
  std::string out_ = "{";
};

std::string array(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ',';
    out += items[i];
  }
  return out + "]";
}

std::string histogram_json(const Histogram& h) {
  return Object()
      .u64("count", h.count())
      .real("sum_seconds", h.sum_seconds())
      .real("mean_seconds", h.count() == 0 ? 0 : h.sum_seconds() / num(h.count()))
      .done();
}

std::string recent_json(const Recent& recent) {
  std::vector<std::string> series;
  for (const Recent::Bucket& b : recent.series) {
    series.push_back(Object()
                         .u64("start_unix_ms", b.start_unix_ms)
                         .u64("proofs", b.proofs)
                         .u64("failed", b.failed)
                         .real("latency_p50_seconds", b.p50_seconds)
                         .real("latency_p99_seconds", b.p99_seconds)
                         .done());
  }
  return Object()
      .real("window_seconds", static_cast<double>(Recent::kWindowMs) / 1e3)
      .u64("proofs", recent.proofs)
      .u64("failed", recent.failed)
      .real("proofs_per_second", recent.proofs_per_second)
      .real("latency_p50_seconds", recent.p50_seconds)
      .real("latency_p99_seconds", recent.p99_seconds)
      .real("bucket_seconds", static_cast<double>(Recent::kBucketMs) / 1e3)
      .field("series", array(series))
      .field("last_10s", Object()
                             .real("window_seconds", static_cast<double>(Recent::kShortWindowMs) / 1e3)
                             .u64("proofs", recent.proofs_short)
                             .real("proofs_per_second", recent.proofs_per_second_short)
                             .done())
      .done();
}

std::string completions_json(const std::deque<RecentCompletion>& ring) {
  std::vector<std::string> out;
  for (size_t i = ring.size() > kCompletionsShown ? ring.size() - kCompletionsShown : 0; i < ring.size(); ++i) {
    const RecentCompletion& c = ring[i];
    out.push_back(Object()
                      .u64("job_id", c.job_id)
                      .u64("partition", c.partition)
                      .str("status", status_label(c.status))
                      .field("gpu_index", std::to_string(c.gpu_index))
                      .real("gpu_duration_seconds", seconds(c.gpu_duration_ns))
                      .real("latency_seconds", seconds(c.total_ns))
                      .u64("unix_ms", c.unix_ms)
                      .done());
  }
  return array(out);
}

}  // namespace

std::string counts_json(const std::map<std::string, uint64_t>& m) {
  Object o;
  for (const auto& [k, v] : m) o.u64(k, v);
  return o.done();
}

Report host_report(host::Host& host, const std::string& version, std::chrono::steady_clock::time_point started) {
  Report r;
  r.version = version;
  r.prover = host.prover_name();
  r.simulated = host.simulated();
  r.pacer = host.pacer_name();
  r.pacer_status = host.pacer_status();
  r.uptime_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  r.unix_ms = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
  r.stats = host.stats();
  for (uint32_t d = 0; d < r.stats.device_count; ++d) r.devices.push_back(host.device_info(d));
  return r;
}

std::string metrics_text(const Report& r) {
  Exposition e;
  const zkp_host_stats_t& s = r.stats;
  e.family("zkpipe_build_info", Type::gauge, "The process's zkpipe version, prover and pacer (value 1).");
  e.sample("zkpipe_build_info", {{"version", r.version}, {"prover", r.prover}, {"pacer", r.pacer}}, 1);
  e.family("zkpipe_up", Type::gauge, "1 while the process takes work (serve: accepts calls; worker: claims), 0 once it is stopping.");
  e.sample("zkpipe_up", r.serving ? 1 : 0);
  e.family("zkpipe_uptime_seconds", Type::gauge, "Seconds since the process started.");
  e.sample("zkpipe_uptime_seconds", r.uptime_seconds);

  e.family("zkpipe_jobs_submitted_total", Type::counter, "Jobs the host accepted.");
  e.sample("zkpipe_jobs_submitted_total", num(s.jobs_submitted));
  // Every status from the start (0 until seen), named in snake_case (metrics.hpp).
  e.family("zkpipe_jobs_total", Type::counter, "Jobs finished through the service, by outcome (the first failure's status).");
  for (const auto& [status, n] : r.metrics.jobs) e.sample("zkpipe_jobs_total", {{"status", status}}, num(n));
  e.family("zkpipe_jobs_open", Type::gauge, "Jobs submitted through the service and not finished.");
  e.sample("zkpipe_jobs_open", num(r.jobs_open));
  e.family("zkpipe_partitions_total", Type::counter, "Partitions (proofs) completed through the service, by status.");
  for (const auto& [status, n] : r.metrics.partitions) e.sample("zkpipe_partitions_total", {{"status", status}}, num(n));

  e.family("zkpipe_queue_depth", Type::gauge, "Partitions in each stage of the host's pipeline now.");
  e.sample("zkpipe_queue_depth", {{"stage", "pending"}}, s.pending);
  e.sample("zkpipe_queue_depth", {{"stage", "synthesizing"}}, s.synthesizing);
  e.sample("zkpipe_queue_depth", {{"stage", "waiting"}}, s.waiting);
  e.sample("zkpipe_queue_depth", {{"stage", "proving"}}, s.proving);

  e.family("zkpipe_budget_total_bytes", Type::gauge, "The host's memory budget for synthesized partitions.");
  e.sample("zkpipe_budget_total_bytes", num(s.budget_total_bytes));
  e.family("zkpipe_budget_used_bytes", Type::gauge, "Bytes of the memory budget held now.");
  e.sample("zkpipe_budget_used_bytes", num(s.budget_used_bytes));
  e.family("zkpipe_budget_peak_bytes", Type::gauge, "The most bytes of the memory budget ever held.");
  e.sample("zkpipe_budget_peak_bytes", num(s.budget_peak_bytes));

  e.family("zkpipe_pacer_info", Type::gauge, "The pacer and its status line (value 1).");
  e.sample("zkpipe_pacer_info", {{"pacer", r.pacer}, {"status", r.pacer_status}}, 1);
  e.family("zkpipe_pacer_interval_seconds", Type::gauge, "Time between the host's last two admissions (0 before two).");
  e.sample("zkpipe_pacer_interval_seconds", seconds(s.admission_interval_ns));
  e.family("zkpipe_admission_stalls_total", Type::counter,
           "Stalls the host's admission watchdog reported (work admissible, nothing admitted).");
  e.sample("zkpipe_admission_stalls_total", num(s.admission_stalls));

  e.family("zkpipe_device_busy_seconds_total", Type::counter, "Device time reported by each device's workers.");
  for (size_t d = 0; d < r.devices.size(); ++d) {
    e.sample("zkpipe_device_busy_seconds_total", {{"gpu", std::to_string(d)}}, seconds(r.devices[d].busy_ns));
  }
  e.family("zkpipe_device_partitions_started_total", Type::counter, "Partitions started on each device.");
  for (size_t d = 0; d < r.devices.size(); ++d) {
    e.sample("zkpipe_device_partitions_started_total", {{"gpu", std::to_string(d)}}, num(r.devices[d].partitions_started));
  }
  e.family("zkpipe_device_partitions_proved_total", Type::counter, "Partitions proved on each device.");
  for (size_t d = 0; d < r.devices.size(); ++d) {
    e.sample("zkpipe_device_partitions_proved_total", {{"gpu", std::to_string(d)}}, num(r.devices[d].partitions_proved));
  }
  e.family("zkpipe_device_memory_bytes", Type::gauge, "Each device's memory (0 where the prover has none to report).");
  for (size_t d = 0; d < r.devices.size(); ++d) {
    e.sample("zkpipe_device_memory_bytes", {{"gpu", std::to_string(d)}}, num(r.devices[d].memory_bytes));
  }
  e.family("zkpipe_device_memory_free_bytes", Type::gauge, "Each device's free memory now (0 where not reported).");
  for (size_t d = 0; d < r.devices.size(); ++d) {
    e.sample("zkpipe_device_memory_free_bytes", {{"gpu", std::to_string(d)}}, num(r.devices[d].memory_free_bytes));
  }
  e.family("zkpipe_devices_quarantined", Type::gauge,
           "Devices quarantined now after a device error (no unpinned work while another device is usable).");
  e.sample("zkpipe_devices_quarantined", num(s.devices_quarantined));
  e.family("zkpipe_device_restarts_total", Type::counter,
           "Device processes restarted after they died or were killed (isolation = process).");
  e.sample("zkpipe_device_restarts_total", num(s.device_restarts));

  e.family("zkpipe_gpu_duration_seconds", Type::histogram, "Device time of each partition, by device.");
  for (const auto& [gpu, h] : r.metrics.gpu_duration) e.histogram("zkpipe_gpu_duration_seconds", {{"gpu", std::to_string(gpu)}}, h);
  e.family("zkpipe_synthesis_seconds", Type::histogram, "Synthesis time of each partition.");
  e.histogram("zkpipe_synthesis_seconds", {}, r.metrics.synthesis);
  e.family("zkpipe_queue_wait_seconds", Type::histogram, "Time each partition waited in the GPU queue.");
  e.histogram("zkpipe_queue_wait_seconds", {}, r.metrics.queue_wait);
  e.family("zkpipe_partition_seconds", Type::histogram, "Submit to completion, each partition.");
  e.histogram("zkpipe_partition_seconds", {}, r.metrics.total);

  const services::KeyTable::Counters& k = r.key_counters;
  e.family("zkpipe_keys_loaded", Type::gauge, "Keys loaded now.");
  e.sample("zkpipe_keys_loaded", num(r.keys.size()));
  e.family("zkpipe_key_loads_total", Type::counter, "Keys loaded from their files.");
  e.sample("zkpipe_key_loads_total", num(k.loads));
  e.family("zkpipe_key_hits_total", Type::counter, "LoadKey calls answered by a key already loaded (warm).");
  e.sample("zkpipe_key_hits_total", num(k.hits));
  e.family("zkpipe_key_evictions_total", Type::counter, "Idle keys unloaded to keep within serve.key_budget.");
  e.sample("zkpipe_key_evictions_total", num(k.evictions));
  e.family("zkpipe_key_budget_refusals_total", Type::counter, "LoadKey calls refused: the key did not fit in serve.key_budget.");
  e.sample("zkpipe_key_budget_refusals_total", num(k.refused));
  e.family("zkpipe_key_load_failures_total", Type::counter,
           "LoadKey calls the key table failed: a missing file, a key the prover refuses, serve.key_budget (those also "
           "in zkpipe_key_budget_refusals_total). A path outside serve.key_dirs is refused before and not counted.");
  e.sample("zkpipe_key_load_failures_total", num(k.failed));
  e.family("zkpipe_key_bytes", Type::gauge, "Bytes the loaded keys are charged against serve.key_budget.");
  e.sample("zkpipe_key_bytes", num(k.used_bytes));
  e.family("zkpipe_key_budget_bytes", Type::gauge, "serve.key_budget (0: none).");
  e.sample("zkpipe_key_budget_bytes", num(k.budget_bytes));

  return e.text() + r.extra_metrics;
}

std::string status_json(const Report& r) {
  const zkp_host_stats_t& s = r.stats;
  const Recent recent = summarize(r.metrics.recent_completions, r.unix_ms, r.devices.size(), s.workers_per_device);
  std::vector<std::string> devices;
  for (size_t d = 0; d < r.devices.size(); ++d) {
    const zkp_device_info_t& i = r.devices[d];
    const auto h = r.metrics.gpu_duration.find(static_cast<int32_t>(d));
    devices.push_back(Object()
                          .u64("gpu_index", d)
                          .str("name", i.name)
                          .u64("memory_bytes", i.memory_bytes)
                          .u64("memory_free_bytes", i.memory_free_bytes)
                          .u64("partitions_started", i.partitions_started)
                          .u64("partitions_proved", i.partitions_proved)
                          .real("busy_seconds", seconds(i.busy_ns))
                          .real("busy_share", recent.busy_share[d])
                          .real("busy_share_10s", recent.busy_share_short[d])
                          .field("gpu_duration", histogram_json(h == r.metrics.gpu_duration.end() ? Histogram() : h->second))
                          .done());
  }
  std::vector<std::string> keys;
  for (const services::KeyEntry& k : r.keys) {
    Recent::KeyWindow last_minute;  // zeros for a key with no completion in it
    for (const Recent::KeyWindow& w : recent.by_key) {
      if (w.key_id == k.id) last_minute = w;
    }
    keys.push_back(Object()
                       .u64("key_id", k.id)
                       .str("path", k.path)
                       .str("format", std::string(services::key_format_name(k.format)))
                       .str("curve", std::string(services::snarkjs_curve_name(k.info.curve)))
                       .u64("n_vars", k.info.n_vars)
                       .u64("n_public", k.info.n_public)
                       .u64("domain_size", k.info.domain_size)
                       .u64("bytes", k.file_size)
                       .u64("synthesis_bytes", k.info.synthesis_bytes)
                       .u64("device_bytes", k.info.device_bytes)
                       .u64("loaded_unix_ms", k.loaded_unix_ms)
                       .real("load_seconds", seconds(k.load_ns))
                       .u64("jobs_submitted", k.jobs_submitted)
                       .field("recent", Object()
                                            .u64("proofs", last_minute.proofs)
                                            .u64("failed", last_minute.failed)
                                            .real("latency_p50_seconds", last_minute.p50_seconds)
                                            .real("latency_p99_seconds", last_minute.p99_seconds)
                                            .done())
                       .done());
  }
  std::vector<std::string> failures;
  for (const Metrics::Failure& f : r.metrics.recent_failures) {
    failures.push_back(Object()
                           .u64("job_id", f.job_id)
                           .u64("partition", f.partition)
                           .str("status", f.status)
                           .str("message", f.message)
                           .field("gpu_index", std::to_string(f.gpu_index))
                           .u64("unix_ms", f.unix_ms)
                           .done());
  }
  const services::KeyTable::Counters& kc = r.key_counters;
  Object page;
  page
             .str("version", r.version)
             .boolean("serving", r.serving)
             .real("uptime_seconds", r.uptime_seconds)
             .str("prover", r.prover)
             .boolean("simulated", r.simulated)
             .field("pacer", Object()
                                 .str("name", r.pacer)
                                 .str("status", r.pacer_status)
                                 .real("interval_seconds", seconds(s.admission_interval_ns))
                                 .u64("admission_stalls", s.admission_stalls)
                                 .done())
             .field("jobs", Object()
                                .u64("submitted", s.jobs_submitted)
                                .u64("finished", s.jobs_finished)
                                .u64("open", r.jobs_open)
                                .field("by_status", counts_json(r.metrics.jobs))
                                .done())
             .field("partitions", Object()
                                      .u64("succeeded", s.partitions_succeeded)
                                      .u64("failed", s.partitions_failed)
                                      .field("by_status", counts_json(r.metrics.partitions))
                                      .done())
             .field("queue", Object()
                                 .u64("pending", s.pending)
                                 .u64("synthesizing", s.synthesizing)
                                 .u64("waiting", s.waiting)
                                 .u64("proving", s.proving)
                                 .done())
             .field("budget", Object()
                                  .u64("total_bytes", s.budget_total_bytes)
                                  .u64("used_bytes", s.budget_used_bytes)
                                  .u64("peak_bytes", s.budget_peak_bytes)
                                  .done())
             .field("durations", Object()
                                     .field("synthesis", histogram_json(r.metrics.synthesis))
                                     .field("queue_wait", histogram_json(r.metrics.queue_wait))
                                     .field("partition", histogram_json(r.metrics.total))
                                     .done())
             .u64("workers_per_device", s.workers_per_device)
             .u64("devices_quarantined", s.devices_quarantined)
             .u64("device_restarts", s.device_restarts)
             .field("devices", array(devices))
             .field("key_cache", Object()
                                     .u64("loaded", r.keys.size())
                                     .u64("loads", kc.loads)
                                     .u64("hits", kc.hits)
                                     .u64("evictions", kc.evictions)
                                     .u64("budget_refusals", kc.refused)
                                     .u64("load_failures", kc.failed)
                                     .u64("used_bytes", kc.used_bytes)
                                     .u64("budget_bytes", kc.budget_bytes)
                                     .done())
             .field("keys", array(keys))
             .field("recent_failures", array(failures))
             .u64("generated_unix_ms", r.unix_ms)
             .field("recent", recent_json(recent))
             .field("recent_completions", completions_json(r.metrics.recent_completions));
  for (const auto& [key, raw_json] : r.extra_status) page.field(key, raw_json);
  return page.done() + "\n";
}

}  // namespace zkp::observe
