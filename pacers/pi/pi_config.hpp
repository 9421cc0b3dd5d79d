// The constants of the `pi` pacer. A default is the reference engine's value
// (shared/design/PACING.md, "The controller") unless its comment says why it is not; since
// issue 11 the timescales come from what pi measures, and these are factors on those
// measurements or floors under them. Each one is a pacer option of the same name, so an
// operator can retune without a rebuild and a config typo is an error.
#pragma once

#include <zkpipe/sdk/option_table.hpp>
#include <zkpipe/sdk/options.hpp>

#include <cstdint>

namespace zkp::pacing {

inline constexpr uint64_t kNsPerMs = 1'000'000;
inline constexpr double kNsPerSecond = 1e9;

struct PiConfig {
  // Partitions the controller keeps waiting in the GPU queue (per two GPU workers: below);
  // also the number of partitions admitted by a bootstrap. 10, not the reference's 8: with
  // 8, one GPU-bound device lost 1.1-1.2% of makespan to greedy where the GPU's demand
  // moves (thermal, when the throttle lifts; mixed, between partition classes); 10 holds
  // both within 1% for two more partitions of memory (docs/PACING-RESULTS.md).
  uint32_t target_waiting = 10;
  // The target grows with the GPU workers beyond two (PACING.md's machine): target_waiting
  // x workers / 2. A queue of 8 covers 4.8 s of work on one device and 0.6 s on eight,
  // less than the arrival noise of 20-60 s syntheses: there the GPU starved between
  // waves, 2.5-2.8% of the makespan on the four- and eight-device GPU-bound scenarios.
  bool target_per_worker = true;
  // EMA weight of one queue-depth sample (one sample per admission and per GPU completion).
  double waiting_alpha = 0.15;
  // EMA weight of one gpu_duration sample; the first sample seeds the average.
  double gpu_alpha = 0.2;
  // Gains on the normalized error e = (target - ema_waiting) / target, which lies in
  // about [-2, +1]; ki = 0.001 is a trim that takes minutes to saturate.
  //
  // kp deviates from the reference (0.5). An admission reaches the GPU queue one synthesis
  // later (20-60 s), so the loop has a dead time D of about 40 s, and its gain is
  // K = kp x G / target, G the GPU rate in partitions/s. A loop like that holds only while
  // K x D stays well under pi/2. With the reference's kp, on the seed machine
  // (G = 2 / 1.2 s, target 8) K x D = 4.2: in the pacing simulator the queue swings
  // between 0 and 40 with a period of about 136 s. The GPU starves in every trough
  // (86% of capacity when GPU-bound, 25 pp GPU-busy jitter): the "jumpy" GPU of PACING.md
  // failure 7, from the controller itself and not from herding. kp = 0.05 gives
  // K x D = 0.42 there and 0.83 on two such devices; see docs/PACING-RESULTS.md. With
  // gain_schedule=false, keep kp x G / target under about 0.02/s when retuning.
  double kp = 0.05;
  double ki = 0.001;
  // Gain scheduling (pi_gain_schedule.hpp). K x D grows with every GPU-bound device: at
  // kp = 0.05 it is 1.7 on four and 3.3 on eight, where the constant gain oscillates again
  // (92.9% of capacity, 13.6 pp jitter on eight_devices_gpu_bound). Once G (the
  // feed-forward) and D (synthesis_ns) are measured, kp and ki are both scaled by
  // min(1, loop_gain / (kp x G x D / target)). The sweep in docs/PACING-RESULTS.md ("Gain
  // scheduling", 0.2-1.0): on eight GPU-bound devices lower is smoother (99.7% and 1.2 pp
  // at 0.2, 99.1% and 2.2 pp at 0.6, 98.7% and 3.5 pp at 1.0), but at 0.5 and below the
  // schedule starts to act on one device too (K x D = 0.42 there, and D's estimate is
  // biased long while a pipeline drains: the long syntheses finish last). 0.6 is the
  // smallest value that leaves every one-device scenario exactly as it was; it keeps a
  // phase margin of about 56 degrees. gain_schedule=false: the constant kp and ki, always.
  bool gain_schedule = true;
  double loop_gain = 0.6;
  // EMA weight of one synthesis_ns sample (SYNTHESIS_DONE), the dead time D; the first
  // sample seeds it. Synthesis times spread widely (U(20, 60) s on the seed machine), so the
  // weight is small: 0.05 leaves about 2 s of noise on a 40 s mean.
  double synthesis_alpha = 0.05;
  // Asymmetric integral clamp (error-seconds): slowing below the GPU rate drains the
  // pipeline, so its authority is small (-0.02) against +0.10 for speeding up.
  double integral_min = -20.0;
  double integral_max = 100.0;
  // Clamp of 1 + correction, the multiplier on the GPU rate.
  double rate_min = 0.3;
  double rate_max = 3.0;
  // Clamp of the steady admission interval. The shortest interval follows from the
  // measurement: the PI law never admits faster than rate_max x the GPU rate, so a fixed
  // floor only matters when it binds, and the reference's 50 ms bound millisecond-scale
  // work (circom proofs of 10-50 ms on 4 workers want an admission every 3-12 ms: issue 11,
  // pi at 16.5% of capacity). 0: no floor beyond the GPU rate.
  uint64_t interval_min_ns = 0;
  uint64_t interval_max_ns = 60'000 * kNsPerMs;
  // Cold start, before anything is measured. With a cold pinned pool, admissions 200 ms
  // apart serialized the driver's pinned allocations and made GPU time 4x (PACING.md
  // failure 5): bootstrap_spacing_ms > 0 is the reference's answer, `target` partitions
  // that far apart (at most bootstrap_fraction x the synthesis time once one is measured:
  // 3 s beside 40 s syntheses, 1.5 ms beside 20 ms; alone, 3 s made a 20-partition run of
  // 50 ms proofs take 30 s instead of 0.3 s, issue 11). Set it where the prover allocates
  // pinned memory per partition (the seed scenario models that).
  //
  // 0, the default, is the other fix PACING.md names, a pre-warmed pool: zkpipe's cuda
  // prover allocates and touches its pinned staging at key load, and the cpu prover has
  // none. Then nothing argues for spacing, and every second of it is GPU time lost for
  // good where the GPU or the synthesis threads are the bottleneck (a 20-60 s synthesis
  // means the first proofs are 20 s away whatever the pacer does next). So the cold start
  // admits at once until cold_start_budget of the budget is reserved, then waits for the
  // first GPU completion. Half: where the GPU is the bottleneck the pipeline it needs
  // (G x D partitions) fits in the budget with room to spare (or the budget would be the
  // bottleneck), and half of it holds G x D on every GPU-bound scenario of the simulator
  // while leaving the memory greedy would fill. The first completion measures G, but not
  // yet D: the cohort's short syntheses finish first, so until its last one is done the fill
  // window below is sized from a D that is too short (24 s of a 40 s mean at minute 0.4),
  // and on eight GPU-bound devices that cost 1.1% of makespan against greedy (the second
  // burst admitted over 20 s instead of at once). So with a fill window the cold start
  // holds until the cohort is synthesized; then the window takes over with measured G and D.
  uint64_t bootstrap_spacing_ns = 0;
  double bootstrap_fraction = 0.075;  // 3 s of a 40 s synthesis
  double cold_start_budget = 0.5;
  // Re-bootstrap (and bootstrap once the GPU rate is known): max(this, feed-forward). The
  // pool is warm by then, so the GPU interval alone is the spacing (the reference's 2 s
  // floor added seconds of latency to every job under light load).
  uint64_t rebootstrap_spacing_min_ns = 0;
  // Fill: once the GPU rate G and the synthesis time D are measured, the pacer admits at
  // once while fewer than fill_factor x G x D + target partitions are synthesizing or
  // waiting (G x D is Little's law: the partitions in synthesis that keep the GPU fed; D
  // is at least the age of the oldest cold-start partition still synthesizing, since the
  // first samples are the short syntheses: pi_controller.hpp). Below that the
  // GPU queue is about to run dry whatever the PI law says, so waiting can only cost
  // throughput; above it the PI law steers the queue. It is what makes pi admit as fast as
  // work arrives when the queue cannot fill (synthesis- or memory-bound, light load) and
  // after a drain, and it is a window, not a rate, so the dead time cannot make it ring.
  // The factor sits under 1 because D is an estimate: where G x D is hundreds (eight
  // GPU-bound devices, 533 partitions) a window at 1.0 turns D's noise into tens of extra
  // queued partitions (measured with a target of 8: queue mean 63 on
  // eight_devices_gpu_bound, 12 on gpu_bound); at 0.8 the window stays below the PI law's
  // equilibrium and the PI law sets the depth (19 and 8.9), while a pipeline that cannot
  // fill still gets its work at once.
  // 0: off (the reference's law alone).
  double fill_factor = 0.8;
  // ema_waiting below this with nothing in flight means the pipeline has drained.
  double drained_below = 1.0;
  // A status line is logged every this many admissions (0: never).
  uint32_t status_every = 5;
};

// Every option above: its name, field, range and help; the defaults are PiConfig's.
// Its help() is the pacer's options_help.
const zkp::sdk::OptionTable<PiConfig>& pi_option_table();

// Reads every option of pi_option_table() from `options` (defaults where absent) and
// checks the relations between values. Throws zkp::sdk::Error(ZKP_ERR_INVALID_ARGUMENT)
// with a message naming the pacer (options.owner()) and the key. Does not call
// options.finish().
PiConfig read_pi_config(zkp::sdk::Options& options);

}  // namespace zkp::pacing
