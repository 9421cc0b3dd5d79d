#include "pi_config.hpp"

#include <zkpipe/sdk/error.hpp>

#include <string>

namespace zkp::pacing {

namespace {

constexpr uint64_t kMaxMs = 24ull * 3600 * 1000;  // a day: longer is a typo
constexpr uint32_t kMaxTarget = 100'000;
constexpr double kMaxLoopGain = 100.0;  // far past pi/2: any loop that high rings

[[noreturn]] void reject(const zkp::sdk::Options& options, const std::string& what) {
  throw zkp::sdk::Error(ZKP_ERR_INVALID_ARGUMENT, options.owner() + ": " + what);
}

std::string num(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// A number in (0, 1]: an EMA weight of zero would never move.
double read_alpha(zkp::sdk::Options& options, const char* key, double fallback) {
  const double v = options.get_double(key, fallback, 0.0, 1.0);
  if (v <= 0.0) reject(options, std::string("option '") + key + "' = '" + num(v) + "' is not in (0, 1]");
  return v;
}

uint64_t read_ms(zkp::sdk::Options& options, const char* key, uint64_t fallback_ns, uint64_t min_ms) {
  return options.get_u64(key, fallback_ns / kNsPerMs, min_ms, kMaxMs) * kNsPerMs;
}

}  // namespace

PiConfig read_pi_config(zkp::sdk::Options& options) {
  PiConfig c;
  c.target_waiting = static_cast<uint32_t>(options.get_u64("target_waiting", c.target_waiting, 1, kMaxTarget));
  c.waiting_alpha = read_alpha(options, "waiting_alpha", c.waiting_alpha);
  c.gpu_alpha = read_alpha(options, "gpu_alpha", c.gpu_alpha);
  c.kp = options.get_double("kp", c.kp, 0.0, 100.0);
  c.ki = options.get_double("ki", c.ki, 0.0, 100.0);
  c.gain_schedule = options.get_bool("gain_schedule", c.gain_schedule);
  c.loop_gain = options.get_double("loop_gain", c.loop_gain, 0.0, kMaxLoopGain);
  c.synthesis_alpha = read_alpha(options, "synthesis_alpha", c.synthesis_alpha);
  c.integral_min = options.get_double("integral_min", c.integral_min, -1e9, 0.0);
  c.integral_max = options.get_double("integral_max", c.integral_max, 0.0, 1e9);
  c.rate_min = options.get_double("rate_min", c.rate_min, 0.0, 1000.0);
  c.rate_max = options.get_double("rate_max", c.rate_max, 0.0, 1000.0);
  c.interval_min_ns = read_ms(options, "interval_min_ms", c.interval_min_ns, 1);
  c.interval_max_ns = read_ms(options, "interval_max_ms", c.interval_max_ns, 1);
  c.bootstrap_spacing_ns = read_ms(options, "bootstrap_spacing_ms", c.bootstrap_spacing_ns, 0);
  c.rebootstrap_spacing_min_ns =
      read_ms(options, "rebootstrap_spacing_min_ms", c.rebootstrap_spacing_min_ns, 0);
  c.drained_below = options.get_double("drained_below", c.drained_below, 0.0, 1e6);
  c.status_every = static_cast<uint32_t>(options.get_u64("status_every", c.status_every, 0, UINT32_MAX));

  // A zero rate multiplier would make the interval infinite (a division by zero).
  if (c.rate_min <= 0.0) reject(options, "option 'rate_min' = '" + num(c.rate_min) + "' is not > 0");
  // A zero loop_gain would schedule both gains to zero: the law would be feed-forward only.
  if (c.loop_gain <= 0.0) reject(options, "option 'loop_gain' = '" + num(c.loop_gain) + "' is not > 0");
  if (c.rate_min > c.rate_max) {
    reject(options, "option 'rate_min' = '" + num(c.rate_min) + "' is above 'rate_max' = '" + num(c.rate_max) + "'");
  }
  if (c.interval_min_ns > c.interval_max_ns) {
    reject(options, "option 'interval_min_ms' = '" + std::to_string(c.interval_min_ns / kNsPerMs) +
                        "' is above 'interval_max_ms' = '" + std::to_string(c.interval_max_ns / kNsPerMs) + "'");
  }
  return c;
}

}  // namespace zkp::pacing
