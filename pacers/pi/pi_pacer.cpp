#include "pi_pacer.hpp"

#include <zkpipe/sdk/error.hpp>

#include <algorithm>
#include <cstdio>

namespace zkp::pacing {

namespace {

constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kNsPerMsD = 1e6;

}  // namespace

PipelineSample to_sample(const zkp_pipeline_state_t& state) {
  return {state.now_ns,       state.waiting,           state.synthesizing + state.waiting + state.proving,
          state.synthesizing, state.budget_used_bytes, state.budget_total_bytes};
}

uint32_t gpu_workers(const zkp_pacer_facts_t& facts, const std::string& owner) {
  const uint64_t workers = static_cast<uint64_t>(facts.device_count) * facts.workers_per_device;
  if (workers == 0 || workers > UINT32_MAX) {
    throw zkp::sdk::Error(ZKP_ERR_INVALID_ARGUMENT,
                          owner + ": needs at least one GPU worker (facts: device_count=" +
                              std::to_string(facts.device_count) +
                              ", workers_per_device=" + std::to_string(facts.workers_per_device) + ")");
  }
  return static_cast<uint32_t>(workers);
}

PiPacer::PiPacer(const zkp::sdk::HostServices& host, const zkp_pacer_facts_t& facts, zkp::sdk::Options& options)
    : host_(host),
      controller_(read_pi_config(options), gpu_workers(facts, options.owner()), facts.start_ns) {}

PipelineSample PiPacer::sample(const zkp_pipeline_state_t& state) const {
  PipelineSample s = to_sample(state);
  for (const auto& entry : cohort_) s.cohort_oldest_admit_ns = std::min(s.cohort_oldest_admit_ns, entry.second);
  return s;
}

void PiPacer::on_event(const zkp_pacer_event_t& event) {
  last_ = event.state;
  const std::pair<uint64_t, uint32_t> id{event.job_id, event.partition};
  if (event.kind == ZKP_PACER_EVENT_ADMITTED && !controller_.gpu_rate_known()) cohort_.emplace(id, event.state.now_ns);
  if (event.kind == ZKP_PACER_EVENT_SYNTHESIS_DONE || event.kind == ZKP_PACER_EVENT_FAILED) cohort_.erase(id);
  // Nothing in flight, nothing of the cohort can still be synthesizing: a partition whose
  // last event a pacer never saw must not leave an age that grows for good.
  if (event.state.synthesizing == 0) cohort_.clear();
  const PipelineSample sample = this->sample(event.state);
  switch (event.kind) {
    case ZKP_PACER_EVENT_ADMITTED: {
      controller_.on_admitted(sample);
      const uint32_t every = controller_.config().status_every;
      if (every != 0 && controller_.admitted() % every == 0) host_.info(status_line());
      break;
    }
    case ZKP_PACER_EVENT_GPU_DONE:
      controller_.on_gpu_done(event.gpu_duration_ns, sample);
      break;
    case ZKP_PACER_EVENT_SYNTHESIS_DONE:
      controller_.on_synthesis_done(event.synthesis_ns, sample);
      break;
    default:
      controller_.on_other_event(sample);
      break;
  }
}

uint64_t PiPacer::next_admission_ns(const zkp_pipeline_state_t& state) {
  last_ = state;
  const uint64_t wait = controller_.next_admission_ns(sample(state));
  return wait == PiController::kWaitForEvent ? ZKP_PACER_WAIT_FOR_EVENT : wait;
}

std::string PiPacer::status_line() { return pi_status_line(kName, controller_, last_); }

std::string pi_status_line(const char* name, const PiController& c, const zkp_pipeline_state_t& last) {
  const uint64_t interval = c.interval_ns();
  char interval_text[32];
  if (interval == PiController::kWaitForEvent) {
    std::snprintf(interval_text, sizeof interval_text, "wait");
  } else {
    std::snprintf(interval_text, sizeof interval_text, "%.0f", static_cast<double>(interval) / kNsPerMsD);
  }
  const double ms_per_s = 1e3;
  char line[512];
  std::snprintf(line, sizeof line,
                "%s: phase=%s admitted=%llu waiting=%u ema_waiting=%.2f gpu_proc_ms=%.0f gpu_eff_ms=%.0f "
                "interval_ms=%s integral=%.2f kp_eff=%.4f dead_time_ms=%.0f synthesizing=%u proving=%u "
                "budget_gib=%.1f/%.1f rebootstraps=%llu fill_window=%.1f",
                name, to_string(c.phase()), static_cast<unsigned long long>(c.admitted()), last.waiting,
                c.ema_waiting(), c.gpu_processing_s() * ms_per_s, c.gpu_effective_s() * ms_per_s, interval_text,
                c.integral(), c.kp_effective(), c.dead_time_s() * ms_per_s, last.synthesizing, last.proving,
                static_cast<double>(last.budget_used_bytes) / kBytesPerGiB,
                static_cast<double>(last.budget_total_bytes) / kBytesPerGiB,
                static_cast<unsigned long long>(c.rebootstraps()), c.fill_window(to_sample(last)));
  return line;
}

}  // namespace zkp::pacing
