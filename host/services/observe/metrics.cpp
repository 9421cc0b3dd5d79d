#include "metrics.hpp"

#include <cctype>
#include <chrono>

namespace zkp::observe {

namespace {

uint64_t unix_ms_now() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}

}  // namespace

std::string status_label(zkp_status_t status) {
  std::string out = zkp_status_name(status);
  for (char& c : out) c = c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

Metrics::Metrics() {
  for (zkp_status_t s = 0; s < ZKP_STATUS_COUNT; ++s) {
    s_.partitions[status_label(s)] = 0;
    s_.jobs[status_label(s)] = 0;
  }
}

void Metrics::observe_partition(const zkp_completion_t& r, uint64_t key_id) {
  const uint64_t now = unix_ms_now();
  std::lock_guard lock(mu_);
  ++s_.partitions[status_label(r.status)];
  // A partition cancelled or failed before a device ran it has no device time, and one that
  // failed in synthesis no queue wait: only stages it went through are observed.
  if (r.gpu_index >= 0) s_.gpu_duration[r.gpu_index].observe_ns(r.gpu_duration_ns);
  if (r.synthesis_ns > 0) s_.synthesis.observe_ns(r.synthesis_ns);
  if (r.gpu_index >= 0) s_.queue_wait.observe_ns(r.queue_wait_ns);
  s_.total.observe_ns(r.total_ns);
  if (r.status != ZKP_OK && r.status != ZKP_ERR_CANCELLED) {
    Failure f;
    f.job_id = r.job_id;
    f.partition = r.partition;
    f.status = status_label(r.status);
    f.message = r.message != nullptr ? r.message : "";
    f.gpu_index = r.gpu_index;
    f.unix_ms = now;
    s_.recent_failures.push_back(std::move(f));
    if (s_.recent_failures.size() > kRecentFailures) s_.recent_failures.pop_front();
  }
  s_.recent_completions.push_back({r.job_id, r.partition, key_id, r.status, r.gpu_index, r.gpu_duration_ns, r.total_ns, now});
  if (s_.recent_completions.size() > kRecentCompletions) s_.recent_completions.pop_front();
}

void Metrics::observe_job(const zkp_job_summary_t& summary) {
  std::lock_guard lock(mu_);
  ++s_.jobs[status_label(summary.status)];
}

Metrics::Snapshot Metrics::snapshot() const {
  std::lock_guard lock(mu_);
  return s_;
}

}  // namespace zkp::observe
