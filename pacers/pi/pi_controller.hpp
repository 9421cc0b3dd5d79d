// The control law of the `pi` pacer (shared/design/PACING.md, "The controller"), as a pure
// class: no clock, no ABI, no logging. Time comes in with every call (now_ns), so tests and
// the pacing simulator drive it exactly as the plugin does.
//
// The controller answers "how long until the next admission" from these pieces of state:
//  - ema_waiting: an EMA of the GPU queue depth, one sample per admission and per GPU
//    completion (the reference engine's update points), steered toward the target;
//  - the GPU estimate: an EMA of gpu_duration per partition, from a nanosecond total and a
//    completion count (delta total / delta count at each update). It is measured by the
//    workers, so pipeline fill (failure 1) and GPU idle gaps (failure 2) never enter it,
//    and it is updated on every completion whatever the queue depth (failure 3);
//  - the integral of the normalized error, reset when the pipeline drains (failure 6);
//  - the dead time D: an EMA of synthesis_ns from SYNTHESIS_DONE, which with the GPU rate
//    schedules the gains (pi_gain_schedule.hpp) so the loop stays stable on many devices;
//  - the fill window: with G and D measured, fewer than fill_factor x G x D + target
//    partitions synthesizing or waiting means the GPU queue is about to run dry, and the
//    controller admits at once (pi_config.hpp, fill_factor). Every timescale it uses comes
//    from those measurements, so the same law paces 40 s syntheses and 20 ms ones;
//  - the cold start: with no bootstrap spacing (a warm pinned pool) it admits at once up to
//    cold_start_budget of the budget, before the first GPU completion and, with a fill
//    window, for as long as the cold-start cohort is synthesizing (the window's D is only a
//    lower bound until then);
//  - the time of the last admission, so next_admission_ns() answers the time remaining,
//    not a fresh full interval each time the host asks.
// There is no synthesis-throughput cap (failure 4): the memory budget is the backpressure.
#pragma once

#include "pi_config.hpp"

#include <cstdint>

namespace zkp::pacing {

// What the controller reads of the pipeline at one instant.
struct PipelineSample {
  uint64_t now_ns = 0;
  uint32_t waiting = 0;    // synthesized, in the GPU queue (not counting those being proved)
  uint32_t in_flight = 0;  // synthesizing + waiting + proving
  uint32_t synthesizing = 0;  // admitted, synthesis not done
  uint64_t budget_used_bytes = 0;
  uint64_t budget_total_bytes = 0;
  // The admission time of the oldest partition of the cold-start cohort (admitted before
  // the first GPU completion) still synthesizing; kNoCohort when none is. Until the whole
  // cohort is synthesized, the synthesis samples seen are its short ones (they finish
  // first: 20-30 s of a U(20, 60) s cohort at minute 0.5), and the oldest one's age is the
  // better lower bound on the synthesis time.
  static constexpr uint64_t kNoCohort = UINT64_MAX;
  uint64_t cohort_oldest_admit_ns = kNoCohort;
};

enum class PiPhase {
  kBootstrap,    // admitting `target` partitions at bootstrap spacing
  kCalibrating,  // first bootstrap done; waiting for the first GPU completion
  kSteady,       // PI control
};

const char* to_string(PiPhase phase);

class PiController {
 public:
  // Returned by next_admission_ns when the controller waits for the next event.
  static constexpr uint64_t kWaitForEvent = UINT64_MAX;

  // gpu_workers: all GPU workers on all devices (>= 1). start_ns: the pipeline clock now.
  PiController(const PiConfig& config, uint32_t gpu_workers, uint64_t start_ns);

  // A partition was admitted at s.now_ns (s: the pipeline after the admission).
  void on_admitted(const PipelineSample& s);
  // A GPU worker finished a partition after gpu_duration_ns of its own time.
  void on_gpu_done(uint64_t gpu_duration_ns, const PipelineSample& s);
  // A partition entered the GPU queue after synthesis_ns of synthesis: a dead-time sample.
  void on_synthesis_done(uint64_t synthesis_ns, const PipelineSample& s);
  // Any other event: only the drain check looks at it.
  void on_other_event(const PipelineSample& s);

  // Nanoseconds until the next admission (0: admit now), or kWaitForEvent.
  uint64_t next_admission_ns(const PipelineSample& s);

  // Whether the cold start admits at once: no bootstrap spacing (a warm pinned pool), less
  // than cold_start_budget of the budget reserved, and nothing measured yet or (with a fill
  // window) a partition of the cold-start cohort still synthesizing.
  bool cold_filling(const PipelineSample& s) const;
  // Whether the fill window is open for `s`: G and D are measured and fewer than
  // fill_factor x G x D partitions are synthesizing or waiting.
  bool filling(const PipelineSample& s) const;
  // fill_factor x G x D + target(), the partitions the fill window keeps synthesizing or
  // waiting; 0 until both are measured. D is the dead time, or the age of the cold-start
  // cohort's oldest partition still synthesizing when that is longer (PipelineSample).
  double fill_window(const PipelineSample& s) const;

  // The interval the controller wants between admissions now (bootstrap spacing or the
  // PI interval); kWaitForEvent while calibrating.
  uint64_t interval_ns() const;

  PiPhase phase() const;
  // The queue depth steered to: target_waiting, x workers / 2 with target_per_worker.
  uint32_t target() const;
  double ema_waiting() const { return ema_waiting_; }
  bool gpu_rate_known() const { return gpu_rate_known_; }
  // EMA of gpu_duration per partition (seconds); meaningful once gpu_rate_known().
  double gpu_processing_s() const { return gpu_processing_s_; }
  // The feed-forward: gpu_processing_s() / gpu workers.
  double gpu_effective_s() const { return gpu_processing_s_ / gpu_workers_; }
  double integral() const { return integral_; }
  // The rate multiplier clamp(1 + kp_eff*e + ki_eff*integral) of the PI law.
  double rate() const;
  // EMA of synthesis_ns (seconds), the loop's dead time; meaningful once dead_time_known().
  bool dead_time_known() const { return dead_time_known_; }
  double dead_time_s() const { return dead_time_s_; }
  // The gain schedule's factor in (0, 1]: 1 with gain_schedule=false and until both the
  // GPU rate and the dead time are measured (bootstrap and calibration use kp and ki).
  double gain_scale() const;
  double kp_effective() const { return config_.kp * gain_scale(); }
  double ki_effective() const { return config_.ki * gain_scale(); }
  uint64_t admitted() const { return admitted_; }
  uint32_t bootstrap_remaining() const { return bootstrap_remaining_; }
  uint64_t rebootstraps() const { return rebootstraps_; }
  bool has_admitted() const { return has_admitted_; }
  uint64_t last_admission_ns() const { return last_admission_ns_; }
  uint64_t gpu_completions() const { return gpu_count_; }
  const PiConfig& config() const { return config_; }

 private:
  // One control step: queue EMA, GPU estimate from the counters, integral.
  void update(const PipelineSample& s);
  // Re-enters bootstrap when the pipeline has drained; restarts the first bootstrap when
  // every calibration partition left without a GPU completion (it failed), since waiting
  // for a completion that cannot come would stall the pipeline.
  void check_drained(const PipelineSample& s);
  double error() const;

  PiConfig config_;
  double gpu_workers_;

  double ema_waiting_ = 0.0;

  // The workers' running totals and the values at the last update that consumed them.
  uint64_t gpu_total_ns_ = 0;
  uint64_t gpu_count_ = 0;
  uint64_t seen_total_ns_ = 0;
  uint64_t seen_count_ = 0;
  bool gpu_rate_known_ = false;
  double gpu_processing_s_ = 0.0;

  bool dead_time_known_ = false;
  double dead_time_s_ = 0.0;

  double integral_ = 0.0;
  uint64_t last_update_ns_;
  // Whether the pipeline was empty at the last update (it starts empty).
  bool idle_since_last_update_ = true;

  uint32_t bootstrap_remaining_;
  uint64_t rebootstraps_ = 0;

  uint64_t admitted_ = 0;
  bool has_admitted_ = false;
  uint64_t last_admission_ns_ = 0;
};

}  // namespace zkp::pacing
