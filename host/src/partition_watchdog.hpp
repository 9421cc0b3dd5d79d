// The partition watchdog (issue 17): notices a partition that has been on a device far
// longer than its key's partitions take, a hung device.
//
// A partition is on a device from the moment its worker calls prove_start until its
// prove_finish returns. It is declared hung, once, when that has lasted
//   threshold = max(10 x the median gpu_duration_ns of its key's last partitions, floor),
// the floor being watchdog_floor_ms (0 turns the watchdog off). Before a key has a proof,
// the floor alone is its threshold. The median is of the last kWindow proofs of the key
// on this host, so a key that got slower (a bigger witness, a busy device) moves it.
//
// A pure class: no clock, no lock, no logging, like AdmissionWatchdog. The pipeline calls
// it under its scheduler lock, with the pipeline clock; tests drive it in virtual time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

namespace zkp::host {

class PartitionWatchdog {
 public:
  static constexpr uint64_t kNever = UINT64_MAX;
  static constexpr uint64_t kMediansPerHang = 10;
  static constexpr size_t kWindow = 64;

  // A partition declared hung by check().
  struct Hung {
    uint64_t id = 0;  // what started() returned
    uint32_t device = 0;
    uint64_t job_id = 0;
    uint32_t partition = 0;
    uint64_t on_device_ns = 0;  // how long it had been on the device
    uint64_t threshold_ns = 0;
    uint64_t median_ns = 0;     // its key's median gpu_duration (0: no proof yet)
  };

  // floor_ns: 0 turns the watchdog off (started() still hands out ids; nothing hangs).
  explicit PartitionWatchdog(uint64_t floor_ns) : floor_ns_(floor_ns) {}

  bool enabled() const { return floor_ns_ != 0; }

  // A partition went onto `device` at now_ns; the id names it in ended() (never 0).
  uint64_t started(uint32_t device, uint64_t key_id, uint64_t job_id, uint32_t partition, uint64_t now_ns);
  // It left the device. Returns whether it had been declared hung.
  bool ended(uint64_t id);
  // A proof of `key_id` took gpu_duration_ns on its device.
  void proved(uint64_t key_id, uint64_t gpu_duration_ns);

  // Partitions that have reached their threshold at now_ns and were not declared before.
  std::vector<Hung> check(uint64_t now_ns);
  // When check() would next declare one (for the watchdog thread's wait); kNever if none.
  uint64_t deadline_ns() const;

  uint64_t threshold_ns(uint64_t key_id) const;
  uint64_t median_ns(uint64_t key_id) const;
  // Partitions declared hung so far.
  uint64_t hung() const { return hung_; }

 private:
  struct OnDevice {
    uint32_t device = 0;
    uint64_t key_id = 0;
    uint64_t job_id = 0;
    uint32_t partition = 0;
    uint64_t since_ns = 0;
    bool declared = false;
  };

  uint64_t floor_ns_;
  uint64_t next_id_ = 1;
  std::map<uint64_t, OnDevice> on_device_;
  std::map<uint64_t, std::deque<uint64_t>> durations_;  // per key, the last kWindow
  uint64_t hung_ = 0;
};

}  // namespace zkp::host
