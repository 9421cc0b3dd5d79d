#include "admission_watchdog.hpp"

#include <algorithm>

namespace zkp::host {

void AdmissionWatchdog::admitted(uint64_t now_ns) {
  if (last_admission_ns_ != kNever && now_ns >= last_admission_ns_) last_interval_ns_ = now_ns - last_admission_ns_;
  last_admission_ns_ = now_ns;
  since_ns_ = kNever;
  reported_ = false;
}

void AdmissionWatchdog::not_admissible() {
  since_ns_ = kNever;
  reported_ = false;
}

uint64_t AdmissionWatchdog::threshold_ns() const {
  const uint64_t scaled =
      last_interval_ns_ > kNever / kIntervalsPerStall ? kNever : last_interval_ns_ * kIntervalsPerStall;
  return std::max(min_threshold_ns_, scaled);
}

bool AdmissionWatchdog::stalled(uint64_t now_ns) {
  if (min_threshold_ns_ == 0) return false;
  if (since_ns_ == kNever) since_ns_ = now_ns;
  if (reported_ || stalled_for_ns(now_ns) < threshold_ns()) return false;
  reported_ = true;
  ++stalls_;
  return true;
}

uint64_t AdmissionWatchdog::deadline_ns() const {
  if (min_threshold_ns_ == 0 || since_ns_ == kNever || reported_) return kNever;
  const uint64_t t = threshold_ns();
  return since_ns_ > kNever - t ? kNever : since_ns_ + t;
}

uint64_t AdmissionWatchdog::stalled_for_ns(uint64_t now_ns) const {
  return since_ns_ == kNever || now_ns < since_ns_ ? 0 : now_ns - since_ns_;
}

}  // namespace zkp::host
