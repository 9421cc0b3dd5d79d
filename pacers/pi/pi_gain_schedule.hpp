// Gain scheduling of the pi pacer's PI law (docs/PACING-RESULTS.md, "Gain scheduling").
//
// The queue the pacer steers is an integrator behind a dead time: an admission enters the
// GPU queue one synthesis later (D seconds), and the GPU drains it at G partitions/s. With
// the law rate = 1 + kp x e, e = (target - queue) / target, the loop gain is
// K = kp x G / target (1/s), its crossover is near K and the dead time takes K x D radians
// of phase there: the loop holds only while K x D stays well under pi/2, and it rings as
// K x D nears 1. G grows with every GPU-bound device and D with the circuit, so a constant
// kp tuned on one device oscillates on eight.
//
// The schedule scales both gains by one factor so that K x D never exceeds `loop_gain`:
//   scale = min(1, loop_gain / (kp x G x D / target)),  kp_eff = scale x kp,
//   ki_eff = scale x ki  (the integral time kp / ki, and the integral's share of the
//                         correction, stay what they were tuned to).
// Where the configured kp already keeps K x D under loop_gain (one device at kp = 0.05:
// K x D = 0.42 against the default 0.6) the schedule changes nothing.
#pragma once

#include <cstdint>

namespace zkp::pacing {

// The factor in (0, 1] that keeps kp x G x D / target at or under loop_gain.
// gpu_rate_per_s: G, all workers together; dead_time_s: D. A zero kp, G or D (nothing
// measured, nothing to schedule) gives 1.
double gain_scale(double kp, uint32_t target_waiting, double gpu_rate_per_s, double dead_time_s, double loop_gain);

// kp x G x D / target: the phase, in radians at crossover, that the dead time costs.
double loop_gain_kd(double kp, uint32_t target_waiting, double gpu_rate_per_s, double dead_time_s);

}  // namespace zkp::pacing
