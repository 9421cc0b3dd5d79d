#include "pi_controller.hpp"

#include "pi_gain_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace zkp::pacing {

const char* to_string(PiPhase phase) {
  switch (phase) {
    case PiPhase::kBootstrap: return "bootstrap";
    case PiPhase::kCalibrating: return "calibrating";
    case PiPhase::kSteady: return "steady";
  }
  return "unknown";
}

PiController::PiController(const PiConfig& config, uint32_t gpu_workers, uint64_t start_ns)
    : config_(config),
      gpu_workers_(gpu_workers),
      last_update_ns_(start_ns),
      bootstrap_remaining_(config.target_waiting) {
  if (gpu_workers == 0) throw std::invalid_argument("pi controller: zero GPU workers");
}

PiPhase PiController::phase() const {
  if (bootstrap_remaining_ > 0) return PiPhase::kBootstrap;
  if (!gpu_rate_known_) return PiPhase::kCalibrating;
  return PiPhase::kSteady;
}

uint32_t PiController::target() const {
  if (!config_.target_per_worker || gpu_workers_ <= 2.0) return config_.target_waiting;
  return static_cast<uint32_t>(std::llround(config_.target_waiting * gpu_workers_ / 2.0));
}

double PiController::error() const {
  const double target = this->target();
  return (target - ema_waiting_) / target;
}

double PiController::gain_scale() const {
  if (!config_.gain_schedule || !gpu_rate_known_ || !dead_time_known_ || gpu_processing_s_ <= 0.0) return 1.0;
  const double gpu_rate_per_s = gpu_workers_ / gpu_processing_s_;
  return zkp::pacing::gain_scale(config_.kp, target(), gpu_rate_per_s, dead_time_s_, config_.loop_gain);
}

double PiController::rate() const {
  const double scale = gain_scale();
  return std::clamp(1.0 + config_.kp * scale * error() + config_.ki * scale * integral_, config_.rate_min,
                    config_.rate_max);
}

uint64_t PiController::interval_ns() const {
  switch (phase()) {
    case PiPhase::kBootstrap:
      if (!gpu_rate_known_) {
        if (!dead_time_known_) return config_.bootstrap_spacing_ns;
        const auto scaled = static_cast<uint64_t>(std::llround(config_.bootstrap_fraction * dead_time_s_ * kNsPerSecond));
        return std::min(config_.bootstrap_spacing_ns, scaled);
      }
      return std::max(config_.rebootstrap_spacing_min_ns,
                      static_cast<uint64_t>(std::llround(gpu_effective_s() * kNsPerSecond)));
    case PiPhase::kCalibrating:
      return kWaitForEvent;
    case PiPhase::kSteady:
      break;
  }
  const double interval = gpu_effective_s() / rate() * kNsPerSecond;
  return std::clamp(static_cast<uint64_t>(std::llround(interval)), config_.interval_min_ns,
                    config_.interval_max_ns);
}

void PiController::update(const PipelineSample& s) {
  if (gpu_count_ > seen_count_) {
    const double per_partition_s = static_cast<double>(gpu_total_ns_ - seen_total_ns_) /
                                   static_cast<double>(gpu_count_ - seen_count_) / kNsPerSecond;
    if (per_partition_s > 0.0) {
      gpu_processing_s_ = gpu_rate_known_
                              ? config_.gpu_alpha * per_partition_s + (1.0 - config_.gpu_alpha) * gpu_processing_s_
                              : per_partition_s;
      gpu_rate_known_ = true;
    }
    seen_total_ns_ = gpu_total_ns_;
    seen_count_ = gpu_count_;
  }

  ema_waiting_ = config_.waiting_alpha * s.waiting + (1.0 - config_.waiting_alpha) * ema_waiting_;

  // Deviation from the reference: time during which the pipeline was empty is not
  // integrated. The reference integrated the whole gap since its previous update, so the
  // first update after an idle hour re-saturated the integral that the drain had just
  // reset (PACING.md failure 6 by another path).
  const double dt = s.now_ns > last_update_ns_ && !idle_since_last_update_
                        ? static_cast<double>(s.now_ns - last_update_ns_) / kNsPerSecond
                        : 0.0;
  integral_ = std::clamp(integral_ + error() * dt, config_.integral_min, config_.integral_max);
  last_update_ns_ = s.now_ns;
  idle_since_last_update_ = s.in_flight == 0;
}

void PiController::check_drained(const PipelineSample& s) {
  if (s.in_flight != 0) return;
  switch (phase()) {
    case PiPhase::kSteady:
      if (ema_waiting_ < config_.drained_below) {
        bootstrap_remaining_ = config_.target_waiting;
        integral_ = 0.0;
        ++rebootstraps_;
      }
      break;
    case PiPhase::kCalibrating:
      bootstrap_remaining_ = config_.target_waiting;
      break;
    case PiPhase::kBootstrap:
      break;
  }
}

void PiController::on_admitted(const PipelineSample& s) {
  update(s);
  ++admitted_;
  has_admitted_ = true;
  last_admission_ns_ = s.now_ns;
  if (bootstrap_remaining_ > 0) --bootstrap_remaining_;
}

void PiController::on_gpu_done(uint64_t gpu_duration_ns, const PipelineSample& s) {
  gpu_total_ns_ += gpu_duration_ns;
  ++gpu_count_;
  update(s);
  check_drained(s);
}

void PiController::on_synthesis_done(uint64_t synthesis_ns, const PipelineSample& s) {
  const double sample_s = static_cast<double>(synthesis_ns) / kNsPerSecond;
  if (sample_s > 0.0) {
    dead_time_s_ = dead_time_known_ ? config_.synthesis_alpha * sample_s + (1.0 - config_.synthesis_alpha) * dead_time_s_
                                    : sample_s;
    dead_time_known_ = true;
  }
  check_drained(s);
}

void PiController::on_other_event(const PipelineSample& s) { check_drained(s); }

double PiController::fill_window(const PipelineSample& s) const {
  if (config_.fill_factor <= 0.0 || !gpu_rate_known_ || !dead_time_known_ || gpu_processing_s_ <= 0.0) return 0.0;
  double d = dead_time_s_;
  if (s.cohort_oldest_admit_ns != PipelineSample::kNoCohort && s.now_ns > s.cohort_oldest_admit_ns) {
    d = std::max(d, static_cast<double>(s.now_ns - s.cohort_oldest_admit_ns) / kNsPerSecond);
  }
  return config_.fill_factor * (gpu_workers_ / gpu_processing_s_) * d + target();
}

bool PiController::filling(const PipelineSample& s) const {
  return static_cast<double>(s.synthesizing) + static_cast<double>(s.waiting) < fill_window(s);
}

bool PiController::cold_filling(const PipelineSample& s) const {
  // The fill window's D is a lower bound while the cold-start cohort synthesizes (its short
  // syntheses are the only samples yet): until the cohort is measured, the cold start holds.
  const bool window_unmeasured = config_.fill_factor > 0.0 && s.cohort_oldest_admit_ns != PipelineSample::kNoCohort;
  return config_.bootstrap_spacing_ns == 0 && (!gpu_rate_known_ || window_unmeasured) &&
         static_cast<double>(s.budget_used_bytes) < config_.cold_start_budget * static_cast<double>(s.budget_total_bytes);
}

uint64_t PiController::next_admission_ns(const PipelineSample& s) {
  check_drained(s);
  if (filling(s) || cold_filling(s)) return 0;
  const uint64_t interval = interval_ns();
  if (interval == kWaitForEvent) return kWaitForEvent;
  if (!has_admitted_) return 0;
  const uint64_t elapsed = s.now_ns > last_admission_ns_ ? s.now_ns - last_admission_ns_ : 0;
  return elapsed >= interval ? 0 : interval - elapsed;
}

}  // namespace zkp::pacing
