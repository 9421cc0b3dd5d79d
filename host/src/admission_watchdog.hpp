// The admission watchdog (issue 11): notices a pacer that admits nothing while the
// pipeline could take work. A pacer that answers a non-zero next_admission_ns forever
// (the README's first example plugin did: the ABI reads N as "ask me again in N ns") used
// to hang the host with no output; now the operator sees it within a minute.
//
// A stall is a stretch during which partitions are pending, the budget could grant the
// next one, and the pacer admits nothing. It ends at an admission or when the pipeline
// stops being admissible (nothing pending, or the budget full: not the pacer's doing).
// A stall is reported once, when it has lasted
//   threshold = max(min_threshold, 20 x the pacer's last interval between admissions),
// so a pacer that paces slowly on purpose (fixed at 60 s) is not a stall until 20 of its
// intervals have passed.
//
// A pure class: no clock, no lock, no logging. The pipeline calls it on its admission
// thread under the scheduler lock, with the pipeline clock; tests drive it in virtual time.
#pragma once

#include <cstdint>

namespace zkp::host {

class AdmissionWatchdog {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;
  static constexpr uint64_t kIntervalsPerStall = 20;

  // min_threshold_ns: 0 turns the watchdog off.
  explicit AdmissionWatchdog(uint64_t min_threshold_ns) : min_threshold_ns_(min_threshold_ns) {}

  // A partition was admitted at now_ns: ends any stall, and the time since the previous
  // admission becomes the pacer's last interval.
  void admitted(uint64_t now_ns);
  // Nothing can be admitted now (nothing pending, or the budget could not grant it).
  void not_admissible();
  // The pipeline is admissible at now_ns and the pacer did not admit. Returns true once
  // per stall: the first call at or after the stall has lasted threshold_ns().
  bool stalled(uint64_t now_ns);

  // When stalled() would next return true (for the admission thread's wait); kNever when
  // off, not stalled, or this stall was already reported.
  uint64_t deadline_ns() const;
  uint64_t threshold_ns() const;
  // How long the current stall has lasted at now_ns (0: none).
  uint64_t stalled_for_ns(uint64_t now_ns) const;
  // Stalls reported so far.
  uint64_t stalls() const { return stalls_; }
  // The time between the last two admissions (0 until there were two).
  uint64_t last_interval_ns() const { return last_interval_ns_; }

 private:
  uint64_t min_threshold_ns_;
  uint64_t last_admission_ns_ = kNever;
  uint64_t last_interval_ns_ = 0;
  uint64_t since_ns_ = kNever;  // the current stall's start; kNever: none
  bool reported_ = false;
  uint64_t stalls_ = 0;
};

}  // namespace zkp::host
