#include "pi_gain_schedule.hpp"

namespace zkp::pacing {

double loop_gain_kd(double kp, uint32_t target_waiting, double gpu_rate_per_s, double dead_time_s) {
  if (target_waiting == 0) return 0.0;
  return kp * gpu_rate_per_s * dead_time_s / static_cast<double>(target_waiting);
}

double gain_scale(double kp, uint32_t target_waiting, double gpu_rate_per_s, double dead_time_s, double loop_gain) {
  const double kd = loop_gain_kd(kp, target_waiting, gpu_rate_per_s, dead_time_s);
  return kd > loop_gain ? loop_gain / kd : 1.0;
}

}  // namespace zkp::pacing
