// The pi control law, driven directly: each test is a failure from PACING.md, or a piece
// of the law that a regression would change.
#include "pi_controller.hpp"
#include "pi_gain_schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

using zkp::pacing::PiConfig;
using zkp::pacing::PiController;
using zkp::pacing::PiPhase;
using zkp::pacing::PipelineSample;
using zkp::pacing::gain_scale;
using zkp::pacing::loop_gain_kd;

constexpr uint64_t kMs = 1'000'000;
constexpr uint64_t kS = 1'000'000'000;
constexpr uint32_t kTwoWorkers = 2;

PipelineSample at(uint64_t now_ns, uint32_t waiting, uint32_t in_flight) { return {now_ns, waiting, in_flight}; }

// Runs the first bootstrap: `target` admissions at the controller's own spacing.
// Returns the time of the last admission.
uint64_t bootstrap(PiController& c, uint64_t start_ns) {
  uint64_t t = start_ns;
  for (uint32_t i = 0; i < c.config().target_waiting; ++i) {
    t += c.next_admission_ns(at(t, 0, i));
    c.on_admitted(at(t, 0, i + 1));
  }
  return t;
}

// The reference's bootstrap, for a cold pinned pool (bootstrap_spacing_ms = 3000).
PiConfig cold_pool() {
  PiConfig cfg;
  cfg.bootstrap_spacing_ns = 3 * kS;
  cfg.target_waiting = 8;  // the reference's
  return cfg;
}

TEST(PiController, BootstrapAdmitsTargetPartitionsThreeSecondsApartThenWaitsForTheGpu) {
  PiController c(cold_pool(), kTwoWorkers, 0);
  EXPECT_EQ(c.phase(), PiPhase::kBootstrap);
  EXPECT_EQ(c.next_admission_ns(at(0, 0, 0)), 0u);
  c.on_admitted(at(0, 0, 1));
  // Asked again 1 s later, the answer is the time remaining, not a fresh interval.
  EXPECT_EQ(c.next_admission_ns(at(1 * kS, 0, 1)), 2 * kS);
  EXPECT_EQ(c.next_admission_ns(at(3 * kS, 0, 1)), 0u);
  for (uint32_t i = 1; i < 8; ++i) c.on_admitted(at(3 * kS * i, 0, i + 1));
  EXPECT_EQ(c.phase(), PiPhase::kCalibrating);
  EXPECT_EQ(c.next_admission_ns(at(30 * kS, 0, 8)), PiController::kWaitForEvent);
  c.on_gpu_done(1 * kS, at(47 * kS, 0, 7));
  EXPECT_EQ(c.phase(), PiPhase::kSteady);
  // The last admission was long ago: admit at once.
  EXPECT_EQ(c.next_admission_ns(at(47 * kS, 0, 7)), 0u);
}

// Failure 1: the first completion comes after a ~47 s fill; the estimate is the worker's
// own gpu_duration, never the time since the pipeline started.
TEST(PiController, FillContaminationGpuEstimateIsTheMeasuredDurationPerWorker) {
  PiController c(PiConfig{}, kTwoWorkers, 0);
  bootstrap(c, 0);
  c.on_gpu_done(1 * kS, at(47 * kS, 0, 7));
  EXPECT_DOUBLE_EQ(c.gpu_processing_s(), 1.0);
  EXPECT_DOUBLE_EQ(c.gpu_effective_s(), 0.5);
  // The next sample is EMA'd with weight 0.2 onto the seed.
  c.on_gpu_done(1200 * kMs, at(48200 * kMs, 0, 6));
  EXPECT_DOUBLE_EQ(c.gpu_processing_s(), 0.2 * 1.2 + 0.8 * 1.0);
  // And the interval follows the estimate (about 0.5 s / rate), not the 47 s fill.
  EXPECT_LT(c.interval_ns(), 1 * kS);
}

// Failure 2: a starved GPU completes rarely; the time between completions must not leak
// into the estimate, or a slow pacer would make itself slower.
TEST(PiController, IdleContaminationStarvedGpuDoesNotLowerTheRate) {
  PiController c(PiConfig{}, kTwoWorkers, 0);
  uint64_t t = bootstrap(c, 0);
  for (int i = 0; i < 10; ++i) {
    t += 30 * kS;  // one completion every 30 s, each 1 s of GPU time
    c.on_gpu_done(1 * kS, at(t, 0, 1));
    c.on_admitted(at(t, 0, 1));
  }
  EXPECT_DOUBLE_EQ(c.gpu_processing_s(), 1.0);
  // Queue empty: the controller asks for more than the GPU rate, never less.
  EXPECT_LE(c.interval_ns(), static_cast<uint64_t>(0.5 * kS));
}

// Failure 3: with two workers the queue is empty while both are busy; that is not idle,
// and the estimate must keep following the measured durations.
TEST(PiController, TwoWorkersBusyWithAnEmptyQueueKeepUpdatingTheEstimate) {
  PiController c(PiConfig{}, kTwoWorkers, 0);
  uint64_t t = bootstrap(c, 0);
  c.on_gpu_done(1 * kS, at(t += 20 * kS, 0, 8));
  double previous = c.gpu_processing_s();
  for (int i = 0; i < 20; ++i) {
    // waiting = 0, two partitions on the GPU, more synthesizing.
    c.on_gpu_done(2400 * kMs, at(t += 1200 * kMs, 0, 10));
    EXPECT_GT(c.gpu_processing_s(), previous);
    previous = c.gpu_processing_s();
  }
  EXPECT_NEAR(c.gpu_processing_s(), 2.4, 0.02);
  EXPECT_EQ(c.rebootstraps(), 0u);  // in flight: not drained, whatever ema_waiting says
}

PiConfig reference_gains() {
  PiConfig cfg;
  cfg.kp = 0.5;  // the reference engine's values, to check the law with its constants
  cfg.target_waiting = 8;
  return cfg;
}

// Drives ema_waiting toward `waiting` with completions of `gpu_s` seconds.
uint64_t settle(PiController& c, uint64_t t, uint32_t waiting, double gpu_s, int samples) {
  for (int i = 0; i < samples; ++i) {
    t += 100 * kMs;
    c.on_gpu_done(static_cast<uint64_t>(gpu_s * kS), at(t, waiting, waiting + 2));
  }
  return t;
}

TEST(PiController, IntervalIsFeedForwardOverTheClampedPiRate) {
  PiController c(reference_gains(), kTwoWorkers, 0);
  uint64_t t = bootstrap(c, 0);
  settle(c, t, 4, 1.2, 30);
  const double e = (8.0 - c.ema_waiting()) / 8.0;
  const double rate = std::clamp(1.0 + 0.5 * e + 0.001 * c.integral(), 0.3, 3.0);
  EXPECT_DOUBLE_EQ(c.rate(), rate);
  EXPECT_NEAR(static_cast<double>(c.interval_ns()), c.gpu_effective_s() / rate * kS, 1.0);
  EXPECT_GT(c.integral(), 0.0);  // queue below target: the integral pushes faster
}

TEST(PiController, RateAndIntervalClamps) {
  {
    // A queue far over target: rate floor 0.3 -> interval = ff / 0.3.
    PiController c(reference_gains(), kTwoWorkers, 0);
    settle(c, bootstrap(c, 0), 200, 1.2, 60);
    EXPECT_DOUBLE_EQ(c.rate(), 0.3);
    EXPECT_NEAR(static_cast<double>(c.interval_ns()), c.gpu_effective_s() / 0.3 * kS, 1.0);
  }
  {
    // A tiny GPU time: by default only the GPU rate bounds the interval (ff / rate_max at
    // most as fast), so 10 ms proofs are paced in milliseconds (issue 11)...
    PiController c(reference_gains(), kTwoWorkers, 0);
    settle(c, bootstrap(c, 0), 0, 0.01, 10);
    EXPECT_NEAR(static_cast<double>(c.interval_ns()), c.gpu_effective_s() / c.rate() * kS, 1.0);
    EXPECT_LT(c.interval_ns(), 10 * kMs);
  }
  {
    // ...and a configured floor (the reference's 50 ms) still binds.
    PiConfig cfg = reference_gains();
    cfg.interval_min_ns = 50 * kMs;
    PiController c(cfg, kTwoWorkers, 0);
    settle(c, bootstrap(c, 0), 0, 0.01, 10);
    EXPECT_EQ(c.interval_ns(), 50 * kMs);
  }
  {
    // A huge GPU time: the interval ceiling is 60 s.
    PiController c(reference_gains(), 1, 0);
    settle(c, bootstrap(c, 0), 100, 600.0, 10);
    EXPECT_EQ(c.interval_ns(), 60 * kS);
  }
  {
    // An empty queue and a saturated integral with a large ki: 1 + 0.5 + 0.1 x 100 -> 3.
    PiConfig cfg = reference_gains();
    cfg.ki = 0.1;
    PiController c(cfg, kTwoWorkers, 0);
    uint64_t t = bootstrap(c, 0);
    c.on_gpu_done(1 * kS, at(t += kS, 0, 8));
    for (int i = 0; i < 300; ++i) c.on_admitted(at(t += kS, 0, 8));
    EXPECT_DOUBLE_EQ(c.integral(), 100.0);
    EXPECT_DOUBLE_EQ(c.rate(), 3.0);
  }
}

TEST(PiController, IntegralIsClampedAsymmetrically) {
  PiController c(reference_gains(), kTwoWorkers, 0);
  uint64_t t = bootstrap(c, 0);
  c.on_gpu_done(1 * kS, at(t += kS, 0, 8));
  for (int i = 0; i < 400; ++i) c.on_admitted(at(t += kS, 0, 8));  // e = +1 for 400 s
  EXPECT_DOUBLE_EQ(c.integral(), 100.0);
  for (int i = 0; i < 400; ++i) c.on_gpu_done(1 * kS, at(t += kS, 40, 42));  // e = -4 at most
  EXPECT_DOUBLE_EQ(c.integral(), -20.0);
}

// Failure 6: after a drain the integral is reset, the GPU estimate kept, and the
// pipeline is refilled by a bootstrap spaced by the feed-forward (the pool is warm; the
// reference's 2 s floor is rebootstrap_spacing_min_ms, 0 by default). Fill off: this is
// the bootstrap's own spacing.
TEST(PiController, DrainReBootstrapsResetsTheIntegralAndKeepsTheEstimate) {
  PiConfig cfg;
  cfg.fill_factor = 0.0;
  PiController c(cfg, kTwoWorkers, 0);
  uint64_t t = bootstrap(c, 0);
  c.on_gpu_done(1 * kS, at(t += 20 * kS, 0, 7));
  for (int i = 0; i < 100; ++i) c.on_admitted(at(t += kS, 0, 8));
  ASSERT_GT(c.integral(), 50.0);
  // Drain: the last partitions complete with an empty queue.
  for (uint32_t left = 8; left > 0; --left) c.on_gpu_done(1 * kS, at(t += kS, 0, left - 1));
  EXPECT_EQ(c.rebootstraps(), 1u);
  EXPECT_EQ(c.phase(), PiPhase::kBootstrap);
  EXPECT_DOUBLE_EQ(c.integral(), 0.0);
  EXPECT_DOUBLE_EQ(c.gpu_processing_s(), 1.0);
  EXPECT_EQ(c.interval_ns(), 500 * kMs);  // the feed-forward, 1 s / 2 workers
  // New work: admitted at once, then 0.5 s apart.
  EXPECT_EQ(c.next_admission_ns(at(t += 10 * kS, 0, 0)), 0u);
  c.on_admitted(at(t, 0, 1));
  EXPECT_EQ(c.next_admission_ns(at(t + 200 * kMs, 0, 1)), 300 * kMs);
}

// The fill window (issue 11): with G and D measured, fewer than fill_factor x G x D +
// target partitions synthesizing or waiting are admitted at once, whatever the PI law's
// interval; at the window the interval applies again.
TEST(PiController, TargetGrowsWithTheWorkersBeyondTwo) {
  EXPECT_EQ(PiController(PiConfig{}, 1, 0).target(), 10u);
  EXPECT_EQ(PiController(PiConfig{}, kTwoWorkers, 0).target(), 10u);
  EXPECT_EQ(PiController(PiConfig{}, 16, 0).target(), 80u);
  PiConfig fixed_target;
  fixed_target.target_per_worker = false;
  EXPECT_EQ(PiController(fixed_target, 16, 0).target(), 10u);
}

TEST(PiController, FillWindowAdmitsAtOnceBelowGpuRateTimesSynthesisTime) {
  PiController c(PiConfig{}, kTwoWorkers, 0);
  EXPECT_DOUBLE_EQ(c.fill_window(at(0, 0, 0)), 0.0);  // nothing measured
  uint64_t t = bootstrap(c, 0);
  c.on_synthesis_done(10 * kS, at(t += kS, 1, 8));
  c.on_gpu_done(1 * kS, at(t += kS, 0, 7));  // G = 2 workers / 1 s, D = 10 s
  const PiConfig d;
  const double window = d.fill_factor * 2.0 * 10.0 + d.target_waiting;
  EXPECT_DOUBLE_EQ(c.fill_window(at(t, 0, 7)), window);
  c.on_admitted(at(t, 0, 8));
  const auto below = static_cast<uint32_t>(window) - 1;
  PipelineSample s = at(t, 0, below);
  s.synthesizing = below;
  EXPECT_TRUE(c.filling(s));
  EXPECT_EQ(c.next_admission_ns(s), 0u);  // just admitted, yet admitted again at once
  s.synthesizing = static_cast<uint32_t>(window) + 1;
  s.in_flight = s.synthesizing;
  EXPECT_FALSE(c.filling(s));
  EXPECT_GT(c.next_admission_ns(s), 0u);
}

// The first bootstrap's spacing is bootstrap_spacing_ms at most, and bootstrap_fraction
// of the first measured synthesis time: 3 s beside 40 s syntheses, 1.5 ms beside 20 ms.
TEST(PiController, FirstBootstrapSpacingScalesWithTheMeasuredSynthesisTime) {
  PiController c(cold_pool(), kTwoWorkers, 0);
  EXPECT_EQ(c.interval_ns(), 3 * kS);
  c.on_admitted(at(0, 0, 1));
  c.on_synthesis_done(20 * kMs, at(20 * kMs, 1, 1));
  EXPECT_EQ(c.interval_ns(), 1500 * 1000u);  // 0.075 x 20 ms
  EXPECT_EQ(c.next_admission_ns(at(20 * kMs, 1, 1)), 0u);
  PiController slow(cold_pool(), kTwoWorkers, 0);
  slow.on_synthesis_done(60 * kS, at(60 * kS, 1, 1));
  EXPECT_EQ(slow.interval_ns(), 3 * kS);  // min(3 s, 4.5 s)
}

// With a warm pool (the default, bootstrap_spacing_ms = 0) the cold start admits at once
// until cold_start_budget of the budget is reserved, then waits for the first GPU
// completion; after it, the fill window and the PI law decide.
TEST(PiController, WarmPoolColdStartAdmitsAtOnceUpToHalfTheBudget) {
  PiController c(PiConfig{}, kTwoWorkers, 0);
  constexpr uint64_t kGiB = 1ull << 30;
  auto with_budget = [](PipelineSample s, uint64_t used, uint64_t total) {
    s.budget_used_bytes = used;
    s.budget_total_bytes = total;
    return s;
  };
  for (uint32_t i = 0; i < 49; ++i) {
    const PipelineSample s = with_budget(at(0, 0, i), i * 9 * kGiB, 900 * kGiB);
    ASSERT_TRUE(c.cold_filling(s)) << i;
    ASSERT_EQ(c.next_admission_ns(s), 0u) << i;
    c.on_admitted(with_budget(at(0, 0, i + 1), (i + 1) * 9 * kGiB, 900 * kGiB));
  }
  const PipelineSample half = with_budget(at(0, 0, 50), 450 * kGiB, 900 * kGiB);
  EXPECT_FALSE(c.cold_filling(half));
  EXPECT_EQ(c.next_admission_ns(half), PiController::kWaitForEvent);  // calibrating
  c.on_gpu_done(1 * kS, with_budget(at(21 * kS, 0, 49), 441 * kGiB, 900 * kGiB));
  EXPECT_FALSE(c.cold_filling(with_budget(at(21 * kS, 0, 49), 0, 900 * kGiB)));  // measured: over
}

// The cold start outlasts the first GPU completion while partitions of the cold-start
// cohort still synthesize: until then the synthesis samples are its short ones and the
// fill window's D is low (eight_devices_gpu_bound lost 1.1% of makespan to it, admitting
// the second burst over 20 s where greedy took it at once). Without a fill window
// (fill_factor = 0, the reference's law) it ends at the first completion, as before.
TEST(PiController, WarmPoolColdStartHoldsWhileTheCohortSynthesizes) {
  constexpr uint64_t kGiB = 1ull << 30;
  auto sample = [](uint64_t now_ns, uint64_t used, uint64_t cohort_admit_ns) {
    PipelineSample s = at(now_ns, 0, 40);
    s.synthesizing = 38;
    s.budget_used_bytes = used;
    s.budget_total_bytes = 900 * kGiB;
    s.cohort_oldest_admit_ns = cohort_admit_ns;
    return s;
  };
  PiConfig no_fill;
  no_fill.fill_factor = 0.0;
  for (const PiConfig& config : {PiConfig{}, no_fill}) {
    PiController c(config, kTwoWorkers, 0);
    c.on_admitted(sample(0, 9 * kGiB, 0));
    c.on_synthesis_done(20 * kS, sample(20 * kS, 9 * kGiB, 0));
    c.on_gpu_done(1 * kS, sample(21 * kS, 9 * kGiB, 0));
    ASSERT_TRUE(c.gpu_rate_known());
    const bool fill = config.fill_factor > 0.0;
    EXPECT_EQ(c.cold_filling(sample(25 * kS, 360 * kGiB, 0)), fill);  // cohort synthesizing
    EXPECT_FALSE(c.cold_filling(sample(25 * kS, 450 * kGiB, 0)));       // half the budget
    EXPECT_FALSE(c.cold_filling(sample(61 * kS, 360 * kGiB, PipelineSample::kNoCohort)));  // cohort done
  }
}

TEST(PiController, ReBootstrapSpacingIsTheGpuInterval) {
  PiController c(PiConfig{}, 1, 0);
  uint64_t t = bootstrap(c, 0);
  c.on_gpu_done(6 * kS, at(t += 30 * kS, 0, 0));  // one worker, 6 s per partition
  EXPECT_EQ(c.rebootstraps(), 1u);
  EXPECT_EQ(c.interval_ns(), 6 * kS);
}

// Deviation from the reference (pi_controller.cpp): idle time is not integrated, so the
// first admission after an idle hour does not re-saturate the integral just reset.
TEST(PiController, IdleTimeAfterADrainIsNotIntegrated) {
  PiController c(PiConfig{}, kTwoWorkers, 0);
  uint64_t t = bootstrap(c, 0);
  for (uint32_t left = 8; left > 0; --left) c.on_gpu_done(1 * kS, at(t += kS, 0, left - 1));
  ASSERT_EQ(c.rebootstraps(), 1u);
  t += 2 * 3600 * kS;
  ASSERT_EQ(c.next_admission_ns(at(t, 0, 0)), 0u);
  c.on_admitted(at(t, 0, 1));
  EXPECT_DOUBLE_EQ(c.integral(), 0.0);
  c.on_admitted(at(t + 2 * kS, 0, 2));
  EXPECT_LE(c.integral(), 2.0);  // e <= 1 over 2 s
}

TEST(PiController, NoReBootstrapWhileWorkIsInFlightOrTheQueueAverageIsHigh) {
  PiController c(PiConfig{}, kTwoWorkers, 0);
  uint64_t t = bootstrap(c, 0);
  c.on_gpu_done(1 * kS, at(t += kS, 0, 7));
  c.on_other_event(at(t += kS, 0, 3));  // ema < 1 but three in flight
  EXPECT_EQ(c.rebootstraps(), 0u);
  settle(c, t, 20, 1.0, 20);  // ema_waiting high
  c.on_other_event(at(t += 10 * kS, 0, 0));
  EXPECT_GE(c.ema_waiting(), 1.0);
  EXPECT_EQ(c.rebootstraps(), 0u);
}

// If every bootstrap partition fails, no GPU completion can ever calibrate the rate;
// waiting for one would stall the pipeline, so the bootstrap starts again.
TEST(PiController, CalibrationRestartsWhenEveryBootstrapPartitionFailed) {
  PiController c(PiConfig{}, kTwoWorkers, 0);
  const uint64_t t = bootstrap(c, 0);
  ASSERT_EQ(c.next_admission_ns(at(t + kS, 0, 3)), PiController::kWaitForEvent);
  c.on_other_event(at(t + 2 * kS, 0, 0));  // the last one failed
  EXPECT_EQ(c.phase(), PiPhase::kBootstrap);
  EXPECT_EQ(c.next_admission_ns(at(t + 3 * kS, 0, 0)), 0u);
}

// The schedule as a function: 1 while kp x G x D / target is under loop_gain, then exactly
// what holds K x D at loop_gain, and never rising as G x D grows.
TEST(PiGainSchedule, ScaleFallsAsGpuRateTimesDeadTimeGrows) {
  constexpr double kp = 0.05, loop_gain = 0.5;
  constexpr uint32_t target = 8;
  // One seed device (G = 2 / 1.2 s, D = 40 s): K x D = 0.42, under 0.5, untouched.
  EXPECT_NEAR(loop_gain_kd(kp, target, 2.0 / 1.2, 40.0), 0.4167, 1e-4);
  EXPECT_DOUBLE_EQ(gain_scale(kp, target, 2.0 / 1.2, 40.0, loop_gain), 1.0);
  double previous = 1.0;
  for (const double devices : {1.0, 2.0, 4.0, 8.0, 16.0}) {
    for (const double dead_s : {20.0, 40.0, 60.0}) {
      const double g = 2.0 * devices / 1.2;
      const double scale = gain_scale(kp, target, g, dead_s, loop_gain);
      EXPECT_GT(scale, 0.0);
      EXPECT_LE(scale, 1.0);
      // Scheduled K x D never exceeds the target, and equals it whenever scheduling acts.
      const double scheduled_kd = loop_gain_kd(kp * scale, target, g, dead_s);
      EXPECT_LE(scheduled_kd, loop_gain + 1e-12);
      if (scale < 1.0) {
        EXPECT_NEAR(scheduled_kd, loop_gain, 1e-12);
      }
    }
    const double scale = gain_scale(kp, target, 2.0 * devices / 1.2, 40.0, loop_gain);
    EXPECT_LE(scale, previous) << devices << " devices";
    previous = scale;
  }
  // Eight devices: G x D doubles from two to four devices and from four to eight, and so
  // does the cut.
  EXPECT_NEAR(gain_scale(kp, target, 16.0 / 1.2, 40.0, loop_gain), 0.15, 1e-12);
  EXPECT_NEAR(gain_scale(kp, target, 8.0 / 1.2, 40.0, loop_gain), 0.30, 1e-12);
  // Nothing measured: nothing to schedule.
  EXPECT_DOUBLE_EQ(gain_scale(kp, target, 0.0, 40.0, loop_gain), 1.0);
  EXPECT_DOUBLE_EQ(gain_scale(kp, target, 16.0 / 1.2, 0.0, loop_gain), 1.0);
  EXPECT_DOUBLE_EQ(gain_scale(0.0, target, 16.0 / 1.2, 40.0, loop_gain), 1.0);
}

// A controller on `workers` GPU workers, past its bootstrap, that has seen GPU completions
// of `gpu_s` and syntheses of `synthesis_s`.
PiController measured(const PiConfig& cfg, uint32_t workers, double gpu_s, double synthesis_s) {
  PiController c(cfg, workers, 0);
  uint64_t t = bootstrap(c, 0);
  c.on_synthesis_done(static_cast<uint64_t>(synthesis_s * kS), at(t += kS, 1, 8));
  c.on_gpu_done(static_cast<uint64_t>(gpu_s * kS), at(t += kS, 0, 7));
  return c;
}

// In the controller: the effective gains fall with the measured G (more workers) and D
// (longer syntheses), both by the same factor, and the PI law uses them.
TEST(PiController, ScheduledGainsFallAsTheMeasuredGpuRateTimesDeadTimeGrows) {
  PiConfig cfg;
  cfg.target_per_worker = false;  // the schedule against one fixed target, the reference's 8
  cfg.target_waiting = 8;
  std::vector<double> kps;
  for (const uint32_t workers : {2u, 4u, 8u, 16u, 32u}) {
    const PiController c = measured(cfg, workers, 1.2, 40.0);
    ASSERT_EQ(c.phase(), PiPhase::kSteady);
    EXPECT_DOUBLE_EQ(c.dead_time_s(), 40.0);
    const double g = workers / 1.2;
    EXPECT_DOUBLE_EQ(c.gain_scale(), gain_scale(cfg.kp, cfg.target_waiting, g, 40.0, cfg.loop_gain));
    EXPECT_DOUBLE_EQ(c.ki_effective() / cfg.ki, c.kp_effective() / cfg.kp);
    const double e = (8.0 - c.ema_waiting()) / 8.0;
    EXPECT_DOUBLE_EQ(c.rate(), std::clamp(1.0 + c.kp_effective() * e + c.ki_effective() * c.integral(), 0.3, 3.0));
    kps.push_back(c.kp_effective());
  }
  EXPECT_DOUBLE_EQ(kps.front(), cfg.kp);  // one device: K x D = 0.42 < 0.5, the configured kp
  for (size_t i = 1; i < kps.size(); ++i) EXPECT_LT(kps[i], kps[i - 1]);
  // 16 workers: loop_gain x 8 / (13.3 x 40), which holds K x D at loop_gain exactly.
  EXPECT_NEAR(kps[3], cfg.loop_gain * 8.0 / (16.0 / 1.2 * 40.0), 1e-12);
  EXPECT_NEAR(loop_gain_kd(kps[3], 8, 16.0 / 1.2, 40.0), cfg.loop_gain, 1e-12);
  // Longer syntheses, lower gain, on the same GPUs.
  EXPECT_LT(measured(cfg, 16, 1.2, 60.0).kp_effective(), measured(cfg, 16, 1.2, 30.0).kp_effective());
}

// Before G and D are both measured the law runs on the configured gains; gain_schedule
// = false keeps them for good.
TEST(PiController, ConfiguredGainsUntilMeasuredAndWhenTheScheduleIsOff) {
  PiConfig cfg;
  cfg.target_per_worker = false;
  {
    PiController c(cfg, 16, 0);
    uint64_t t = bootstrap(c, 0);
    EXPECT_DOUBLE_EQ(c.kp_effective(), cfg.kp);
    c.on_synthesis_done(40 * kS, at(t += kS, 1, 8));  // D known, G not yet
    EXPECT_TRUE(c.dead_time_known());
    EXPECT_DOUBLE_EQ(c.kp_effective(), cfg.kp);
    EXPECT_DOUBLE_EQ(c.ki_effective(), cfg.ki);
    c.on_gpu_done(1200 * kMs, at(t += kS, 0, 7));  // now both
    EXPECT_LT(c.kp_effective(), cfg.kp);
  }
  {
    PiController c(cfg, 16, 0);
    uint64_t t = bootstrap(c, 0);
    c.on_gpu_done(1200 * kMs, at(t += kS, 0, 7));  // G known, D not yet
    EXPECT_DOUBLE_EQ(c.kp_effective(), cfg.kp);
  }
  cfg.gain_schedule = false;
  const PiController off = measured(cfg, 16, 1.2, 40.0);
  EXPECT_DOUBLE_EQ(off.gain_scale(), 1.0);
  EXPECT_DOUBLE_EQ(off.kp_effective(), cfg.kp);
  EXPECT_DOUBLE_EQ(off.ki_effective(), cfg.ki);
}

// D is an EMA of synthesis_ns seeded by the first sample; it survives a drain, as the GPU
// estimate does, so a re-bootstrap starts on the measured loop.
TEST(PiController, DeadTimeIsAnEmaOfSynthesisTimesKeptAcrossADrain) {
  PiController c(PiConfig{}, kTwoWorkers, 0);
  uint64_t t = bootstrap(c, 0);
  c.on_synthesis_done(20 * kS, at(t += kS, 1, 8));
  EXPECT_DOUBLE_EQ(c.dead_time_s(), 20.0);
  c.on_synthesis_done(60 * kS, at(t += kS, 2, 8));
  EXPECT_DOUBLE_EQ(c.dead_time_s(), 0.05 * 60.0 + 0.95 * 20.0);
  c.on_synthesis_done(0, at(t += kS, 3, 8));  // no measurement: ignored
  EXPECT_DOUBLE_EQ(c.dead_time_s(), 0.05 * 60.0 + 0.95 * 20.0);
  for (uint32_t left = 8; left > 0; --left) c.on_gpu_done(1 * kS, at(t += kS, 0, left - 1));
  ASSERT_EQ(c.rebootstraps(), 1u);
  EXPECT_DOUBLE_EQ(c.dead_time_s(), 0.05 * 60.0 + 0.95 * 20.0);
}

}  // namespace
