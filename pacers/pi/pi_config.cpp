#include "pi_config.hpp"

#include <zkpipe/sdk/error.hpp>

#include <string>

namespace zkp::pacing {

namespace {

using zkp::sdk::flag;
using zkp::sdk::format_double;
using zkp::sdk::integer;
using zkp::sdk::number;
using zkp::sdk::number_above;

constexpr uint64_t kMaxMs = 24ull * 3600 * 1000;  // a day: longer is a typo
constexpr uint32_t kMaxTarget = 100'000;
constexpr double kMaxGain = 100.0;
constexpr double kMaxLoopGain = 100.0;  // far past pi/2: any loop that high rings
constexpr double kMaxIntegral = 1e9;
constexpr double kMaxRate = 1000.0;
constexpr double kMaxDrained = 1e6;
constexpr double kMaxFill = 100.0;

[[noreturn]] void reject(const zkp::sdk::Options& options, const std::string& what) {
  throw zkp::sdk::Error(ZKP_ERR_INVALID_ARGUMENT, options.owner() + ": " + what);
}

}  // namespace

// EMA weights, rate_min and loop_gain are in (0, max]: a weight of zero would never move,
// a zero rate multiplier would make the interval infinite (a division by zero), and a
// zero loop_gain would schedule both gains to zero (feed-forward only).
const zkp::sdk::OptionTable<PiConfig>& pi_option_table() {
  static const zkp::sdk::OptionTable<PiConfig> table{
      integer("target_waiting", &PiConfig::target_waiting, 1, kMaxTarget,
              "partitions to keep waiting in the GPU queue (and to admit per bootstrap)"),
      flag("target_per_worker", &PiConfig::target_per_worker,
           "the target is target_waiting x GPU workers / 2 beyond two workers (false: target_waiting)"),
      number_above("waiting_alpha", &PiConfig::waiting_alpha, 0.0, 1.0, "EMA weight of one queue-depth sample"),
      number_above("gpu_alpha", &PiConfig::gpu_alpha, 0.0, 1.0, "EMA weight of one gpu_duration sample"),
      number("kp", &PiConfig::kp, 0.0, kMaxGain,
             "proportional gain on (target - ema_waiting) / target (reference: 0.5)"),
      number("ki", &PiConfig::ki, 0.0, kMaxGain, "integral gain, per error-second"),
      flag("gain_schedule", &PiConfig::gain_schedule,
           "scale kp and ki down so kp x G x D / target <= loop_gain (false: constant gains)"),
      number_above("loop_gain", &PiConfig::loop_gain, 0.0, kMaxLoopGain,
                   "the largest K x D the schedule allows (G: GPU partitions/s, D: synthesis s)"),
      number_above("synthesis_alpha", &PiConfig::synthesis_alpha, 0.0, 1.0,
                   "EMA weight of one synthesis_ns sample (the dead time D)"),
      number("integral_min", &PiConfig::integral_min, -kMaxIntegral, 0.0,
             "lower clamp of the integral (error-seconds)"),
      number("integral_max", &PiConfig::integral_max, 0.0, kMaxIntegral,
             "upper clamp of the integral (error-seconds)"),
      number_above("rate_min", &PiConfig::rate_min, 0.0, kMaxRate,
                   "lower clamp of the rate multiplier 1 + correction, at most rate_max"),
      number("rate_max", &PiConfig::rate_max, 0.0, kMaxRate, "upper clamp of the rate multiplier"),
      integer("interval_min_ms", &PiConfig::interval_min_ns, 0, kMaxMs,
              "shortest steady admission interval, at most interval_max_ms (0: only the GPU rate bounds it)",
              kNsPerMs),
      integer("interval_max_ms", &PiConfig::interval_max_ns, 1, kMaxMs, "longest steady admission interval",
              kNsPerMs),
      integer("bootstrap_spacing_ms", &PiConfig::bootstrap_spacing_ns, 0, kMaxMs,
              "spacing of the first bootstrap, for a cold pinned pool (0: a warm pool, admit up to "
              "cold_start_budget at once)",
              kNsPerMs),
      number("cold_start_budget", &PiConfig::cold_start_budget, 0.0, 1.0,
             "share of the budget admitted at once before the first GPU completion (with a fill window, until "
             "the partitions admitted before it are synthesized), when bootstrap_spacing_ms=0"),
      number("bootstrap_fraction", &PiConfig::bootstrap_fraction, 0.0, 1.0,
             "first-bootstrap spacing is at most this x the measured synthesis time"),
      integer("rebootstrap_spacing_min_ms", &PiConfig::rebootstrap_spacing_min_ns, 0, kMaxMs,
              "re-bootstrap spacing is max(this, GPU interval)", kNsPerMs),
      number("fill_factor", &PiConfig::fill_factor, 0.0, kMaxFill,
             "admit at once while synthesizing + waiting < this x GPU rate x synthesis time (0: off)"),
      number("drained_below", &PiConfig::drained_below, 0.0, kMaxDrained,
             "ema_waiting under this with nothing in flight means drained"),
      integer("status_every", &PiConfig::status_every, 0, UINT32_MAX,
              "admissions between status lines in the log (0: never)"),
  };
  return table;
}

PiConfig read_pi_config(zkp::sdk::Options& options) {
  const PiConfig c = pi_option_table().read(options);
  if (c.rate_min > c.rate_max) {
    reject(options, "option 'rate_min' = '" + format_double(c.rate_min) + "' is above 'rate_max' = '" +
                        format_double(c.rate_max) + "'");
  }
  if (c.interval_min_ns > c.interval_max_ns) {
    reject(options, "option 'interval_min_ms' = '" + std::to_string(c.interval_min_ns / kNsPerMs) +
                        "' is above 'interval_max_ms' = '" + std::to_string(c.interval_max_ns / kNsPerMs) + "'");
  }
  return c;
}

}  // namespace zkp::pacing
