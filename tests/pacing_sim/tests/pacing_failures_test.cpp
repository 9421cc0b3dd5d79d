// PACING.md's failures, each run through the simulator with the real plugins: every test
// asserts what would break if the failure came back.
#include "doubles/synthesis_capped_pacer.hpp"
#include "pi_config.hpp"
#include "sim/engine.hpp"
#include "sim/figures.hpp"
#include "sim/run.hpp"
#include "sim/scenario.hpp"
#include "sim/workload.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

using namespace zkp::pacing_sim;

constexpr double kMeanSeedSynthesisS = 40.0;  // U(20, 60)
constexpr size_t kBootstrapPartitions = 8;    // pi's target_waiting

Scenario scenario(const std::string& name) {
  return load_scenario(std::string(ZKPIPE_SCENARIO_DIR) + "/" + name + ".conf");
}

PacerSpec pacer(const std::string& name, const Scenario& s, const std::vector<OptionOverride>& o = {}) {
  return plugin_pacer(name, ZKPIPE_PACER_DIR, s, o);
}

PacerSpec synthesis_cap_double(const Scenario& s) {
  PacerSpec spec;
  spec.label = "synthesis-cap-double";
  spec.factory = &synthesis_capped_pacer_factory();
  spec.options = s.options_for("pi");
  return spec;
}

struct SimRun {
  Workload workload;
  RunTrace trace;
  Figures figures;
};

SimRun run(const Scenario& s, const PacerSpec& p) {
  SimRun r;
  r.workload = make_workload(s);
  r.trace = simulate(s, r.workload, p);
  r.figures = compute_figures(s, r.workload, r.trace);
  return r;
}

// A number after "key=" in a status line; NaN when absent.
double field(const std::string& line, const std::string& key) {
  const auto at = line.find(" " + key + "=");
  if (at == std::string::npos) return std::nan("");
  return std::stod(line.substr(at + key.size() + 2));
}

// Time of a log line "[   123.456 s] ...".
double log_time(const std::string& line) { return std::stod(line.substr(1)); }

// Failure 4: capping admission to the observed synthesis rate collapses the pipeline.
TEST(PacingFailures, SynthesisCapCollapsesAndPiDoesNot) {
  const Scenario s = scenario("seed");
  const SimRun capped = run(s, synthesis_cap_double(s));
  const SimRun pi = run(s, pacer("pi", s));
  EXPECT_GT(capped.figures.collapses, 10u);
  EXPECT_LT(capped.figures.steady_fraction, 0.5);
  EXPECT_EQ(pi.figures.collapses, 0u);
  EXPECT_GT(pi.figures.steady_fraction, 0.95);
}

// Failure 5: partitions admitted 200 ms apart allocate their pinned buffers within the
// same second and get x4 GPU time; pi's 3 s bootstrap spacing avoids it.
TEST(PacingFailures, BootstrapSpacingAvoidsThePinnedAllocationStall) {
  const Scenario s = scenario("seed");
  auto first_admitted = [](const RunTrace& tr) {
    std::vector<PartitionRecord> rs = tr.partitions;
    std::sort(rs.begin(), rs.end(), [](const auto& a, const auto& b) { return a.admit_ns < b.admit_ns; });
    rs.resize(kBootstrapPartitions);
    return rs;
  };
  const SimRun paced = run(s, pacer("pi", s));
  for (const auto& r : first_admitted(paced.trace)) {
    EXPECT_FALSE(r.pinned_stall);
    EXPECT_LE(r.gpu_done_ns - r.gpu_start_ns, 1'250'000'000u);  // 1.0 s alone, 1.2 s contended
  }
  const SimRun flooded = run(s, pacer("pi", s, {{"pi", "bootstrap_spacing_ms", "200"}}));
  for (const auto& r : first_admitted(flooded.trace)) {
    EXPECT_TRUE(r.pinned_stall);
    EXPECT_GE(r.gpu_done_ns - r.gpu_start_ns, 4'000'000'000u);
  }
}

// Failure 6: after a drain, pi re-bootstraps with a reset integral and is back at full
// throughput within two synthesis times.
TEST(PacingFailures, DrainAndRestartRecoversWithinTwoSynthesisTimes) {
  const Scenario s = scenario("seed");
  const SimRun pi = run(s, pacer("pi", s));
  ASSERT_EQ(pi.figures.recover_s.size(), 1u);
  EXPECT_LE(pi.figures.recover_s[0], 2 * kMeanSeedSynthesisS);

  // The integral before the drain and right after the restart (the second bursts start
  // after 8 bursts a minute apart and a 900 s pause).
  const double restart_s = 8 * 60 + 900;
  double before = std::nan(""), after = std::nan("");
  for (const auto& line : pi.trace.log) {
    if (log_time(line) < restart_s) before = field(line, "integral");
    if (log_time(line) >= restart_s && std::isnan(after)) {
      after = field(line, "integral");
      EXPECT_NE(line.find("phase=bootstrap"), std::string::npos) << line;
    }
  }
  EXPECT_GE(before, 50.0);
  EXPECT_LE(after, 10.0);  // at most e = 1 for the 8 s of a re-bootstrap
}

// Failures 1 and 2 end to end: the estimate the pacer logs is the GPU time per partition
// (1.2 s with both workers busy), not the fill before the first completion nor the idle
// hours before a burst.
TEST(PacingFailures, GpuEstimateIgnoresFillAndIdleTime) {
  const Scenario s = scenario("burst_after_idle");
  const SimRun pi = run(s, pacer("pi", s));
  int checked = 0;
  for (const auto& line : pi.trace.log) {
    const double proc = field(line, "gpu_proc_ms");
    if (line.find("phase=calibrating") != std::string::npos || proc == 0.0) continue;
    EXPECT_GE(proc, 900.0) << line;
    EXPECT_LE(proc, 4.0 * 1200.0) << line;  // a pinned-stalled partition takes up to 4x
    ++checked;
  }
  EXPECT_GT(checked, 50);
}

// Failure 3 and the feed-forward's worker count: on two devices the interval is the GPU
// time over all four workers; dividing by one device's two would halve admission.
TEST(PacingFailures, FeedForwardCountsEveryWorkerOnEveryDevice) {
  const Scenario s = scenario("two_devices");
  const SimRun pi = run(s, pacer("pi", s));
  EXPECT_GT(pi.figures.steady_fraction, 0.95);
  const std::string& last = pi.trace.log.back();
  EXPECT_NEAR(field(last, "gpu_eff_ms"), field(last, "gpu_proc_ms") / 4.0, 1.0) << last;
}

// Failure 7: herding. A backlog admitted all at once synthesizes in generations that
// finish together, so the GPU sees waves; each generation's spread of synthesis times
// blurs them, so longer runs are smoother. Early: 40-160 s, the first three generations
// after the fill (an idle GPU waiting for the first synthesis is not a wave); late:
// 600-1200 s. Averaged over ten seeds: one run's 10 s windows are too noisy to compare.
TEST(PacingFailures, HerdingWavesFromABurstSmoothOutOverTheRun) {
  Scenario s = scenario("herding");
  constexpr int kSeeds = 10;
  double early = 0.0, late = 0.0;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    s.seed = static_cast<uint64_t>(seed);
    const SimRun greedy = run(s, pacer("greedy", s));
    early += gpu_busy_jitter_pp(s, greedy.trace, 40, 160) / kSeeds;
    late += gpu_busy_jitter_pp(s, greedy.trace, 600, 1200) / kSeeds;
    EXPECT_GT(greedy.figures.steady_fraction, 0.95);  // waves, not lost throughput
  }
  EXPECT_GT(early, 1.4 * late) << "early " << early << " pp, late " << late << " pp";
}

// The "jumpy" GPU of failure 7 is also what the reference gains do on their own: with
// kp = 0.5 the 20-60 s synthesis delay turns the loop into an oscillation even though pi
// spaces its admissions. The shipped gain keeps a GPU-bound pipeline smooth. (The
// reference's law had no gain schedule; with one, kp = 0.5 would be cut to loop_gain.)
TEST(PacingFailures, PiGainsDoNotOscillateWithTheSynthesisDelay) {
  const Scenario s = scenario("gpu_bound");
  const SimRun shipped = run(s, pacer("pi", s));
  // The reference's law alone: no gain schedule and no fill window (which holds the
  // pipeline at G x D whatever the gains, and so hides the PI law's own ringing).
  const SimRun reference =
      run(s, pacer("pi", s, {{"pi", "kp", "0.5"}, {"pi", "gain_schedule", "false"}, {"pi", "fill_factor", "0"}}));
  EXPECT_LT(shipped.figures.jitter_pp, 5.0);
  EXPECT_GT(shipped.figures.steady_fraction, 0.98);
  EXPECT_EQ(shipped.figures.collapses, 0u);
  EXPECT_GT(reference.figures.jitter_pp, 15.0);
  EXPECT_LT(reference.figures.steady_fraction, 0.9);
}

// The same oscillation comes back with the shipped kp on many GPU-bound devices, since the
// loop gain grows with the GPU rate (K x D = 3.3 on eight devices at kp = 0.05). The gain
// schedule holds K x D at loop_gain: full throughput, a smooth GPU and a queue that stays
// in tens where the constant gain swings it past a hundred. The status line shows the
// schedule at work: kp_eff x G x D / target = loop_gain, from the logged estimates.
TEST(PacingFailures, ScheduledGainHoldsEightGpuBoundDevicesWhereAConstantGainOscillates) {
  const Scenario s = scenario("eight_devices_gpu_bound");
  // The PI law alone, against the one target it was tuned with: no fill window (which
  // holds the pipeline at G x D whatever the gains) and no per-worker target (which cuts
  // K x D by the same factor as the schedule).
  const std::vector<OptionOverride> law = {
      {"pi", "fill_factor", "0"}, {"pi", "target_per_worker", "false"}, {"pi", "target_waiting", "8"}};
  std::vector<OptionOverride> constant_law = law;
  constant_law.push_back({"pi", "gain_schedule", "false"});
  const SimRun scheduled = run(s, pacer("pi", s, law));
  const SimRun constant = run(s, pacer("pi", s, constant_law));
  EXPECT_GE(scheduled.figures.steady_fraction, 0.98);
  EXPECT_LT(scheduled.figures.jitter_pp, 5.0);
  EXPECT_EQ(scheduled.figures.collapses, 0u);
  constexpr double kReferenceTarget = 8;
  EXPECT_LT(scheduled.figures.queue_mean, 3.0 * kReferenceTarget);  // greedy holds 554
  EXPECT_LT(scheduled.figures.queue_max, 0.8 * constant.figures.queue_max);
  EXPECT_LT(constant.figures.steady_fraction, 0.95);
  EXPECT_GT(constant.figures.jitter_pp, 10.0);

  // The shipped pi (fill window, target 10 x 16 / 2 = 80) on the same devices.
  const zkp::pacing::PiConfig defaults;
  const SimRun shipped = run(s, pacer("pi", s));
  EXPECT_GE(shipped.figures.steady_fraction, 0.98);
  EXPECT_LT(shipped.figures.jitter_pp, 5.0);
  EXPECT_EQ(shipped.figures.collapses, 0u);
  EXPECT_LT(shipped.figures.queue_mean, 3.0 * defaults.target_waiting * 16 / 2);

  // Every steady status line; the tolerance covers the line's rounding (kp_eff to 4
  // decimals, gpu_eff_ms to 1 ms).
  int steady_lines = 0;
  for (const auto& line : scheduled.trace.log) {
    if (line.find("phase=steady") == std::string::npos) continue;
    const double g = 1000.0 / field(line, "gpu_eff_ms");
    const double d = field(line, "dead_time_ms") / 1000.0;
    EXPECT_NEAR(field(line, "kp_eff") * g * d / kReferenceTarget, defaults.loop_gain, 0.02) << line;
    ++steady_lines;
  }
  EXPECT_GT(steady_lines, 1000);
  for (const auto& line : constant.trace.log) EXPECT_NE(line.find("kp_eff=0.0500"), std::string::npos) << line;
}

// On one device K x D stays under loop_gain (0.42 at the mean synthesis time, and under
// 0.6 through D's noise and drain bias), so the schedule leaves every one-device scenario
// of one partition class admission for admission as the constant gain had it. mixed is the
// exception: its GPU estimate follows the class mix faster (weight 0.2) than D does
// (0.05), so a run of small partitions pairs their GPU rate with a D still near the large
// ones' and the schedule trims the gain, rarely and slightly. Its figures stay where they were.
TEST(PacingFailures, GainScheduleLeavesEveryOneDeviceScenarioAsItWas) {
  for (const char* name : {"seed", "gpu_bound", "thermal", "burst_after_idle", "synthesis_bound", "herding"}) {
    const Scenario s = scenario(name);
    ASSERT_EQ(s.devices, 1u) << name;
    const SimRun scheduled = run(s, pacer("pi", s));
    const SimRun constant = run(s, pacer("pi", s, {{"pi", "gain_schedule", "false"}}));
    EXPECT_TRUE(scheduled.trace.admissions_ns == constant.trace.admissions_ns) << name;
  }
  const Scenario s = scenario("mixed");
  const SimRun scheduled = run(s, pacer("pi", s));
  const SimRun constant = run(s, pacer("pi", s, {{"pi", "gain_schedule", "false"}}));
  EXPECT_NEAR(scheduled.figures.steady_fraction, constant.figures.steady_fraction, 0.005);
  EXPECT_NEAR(scheduled.figures.jitter_pp, constant.figures.jitter_pp, 1.0);
  EXPECT_NEAR(scheduled.figures.queue_mean, constant.figures.queue_mean, 0.5);
}

// GPU-bound, pi keeps the queue near its target and holds far less memory and latency
// than greedy at the same throughput: the point of pacing.
TEST(PacingFailures, GpuBoundPiHoldsTheQueueAtTargetWithLessMemoryThanGreedy) {
  const Scenario s = scenario("gpu_bound");
  const SimRun pi = run(s, pacer("pi", s));
  const SimRun greedy = run(s, pacer("greedy", s));
  EXPECT_NEAR(pi.figures.queue_mean, zkp::pacing::PiConfig{}.target_waiting, 2.0);
  EXPECT_GE(pi.figures.steady_fraction, greedy.figures.steady_fraction - 0.01);
  EXPECT_LT(pi.figures.peak_memory_gib, 0.8 * greedy.figures.peak_memory_gib);
  EXPECT_LT(pi.figures.latency_p99_s, 0.8 * greedy.figures.latency_p99_s);
}

// Thermal throttling: the feed-forward follows the measured GPU time up and back down.
TEST(PacingFailures, FeedForwardFollowsAThrottledGpu) {
  const Scenario s = scenario("thermal");
  const SimRun pi = run(s, pacer("pi", s));
  double during = 0.0, after = 0.0;
  for (const auto& line : pi.trace.log) {
    const double t = log_time(line);
    if (t > 1100 && t < 1500) during = std::max(during, field(line, "gpu_proc_ms"));
    if (t > 1800) after = field(line, "gpu_proc_ms");
  }
  EXPECT_NEAR(during, 2400.0, 150.0);
  EXPECT_NEAR(after, 1200.0, 100.0);
  EXPECT_EQ(pi.figures.collapses, 0u);
}

TEST(Simulator, SameScenarioSameRun) {
  const Scenario s = scenario("mixed");
  const SimRun a = run(s, pacer("pi", s));
  const SimRun b = run(s, pacer("pi", s));
  EXPECT_EQ(a.trace.admissions_ns, b.trace.admissions_ns);
  EXPECT_EQ(a.trace.log, b.trace.log);
  EXPECT_EQ(a.figures.latency_p99_s, b.figures.latency_p99_s);
}

// The pipeline model: memory never above the budget, contention makes both workers
// slower, and every admitted partition completes.
TEST(Simulator, ModelHonoursBudgetAndContention) {
  const Scenario s = scenario("seed");
  const SimRun greedy = run(s, pacer("greedy", s));
  EXPECT_LE(greedy.figures.peak_memory_gib, s.budget_gib);
  EXPECT_GT(greedy.figures.peak_memory_gib, s.budget_gib - 9.0);  // greedy fills it
  EXPECT_EQ(greedy.figures.completed, greedy.figures.submitted);
  uint64_t longest = 0;
  for (const auto& r : greedy.trace.partitions) {
    if (!r.pinned_stall) longest = std::max(longest, r.gpu_done_ns - r.gpu_start_ns);
  }
  EXPECT_EQ(longest, 1'200'000'000u);  // two busy workers: 1.2 s each, never more
}

}  // namespace
