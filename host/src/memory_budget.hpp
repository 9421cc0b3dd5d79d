// The host memory budget for synthesized partitions, byte-accurate: a partition
// reserves its key's synthesis_bytes at admission and releases them when its synthesis
// is freed (after prove_finish, or when it fails or is cancelled). It is the pipeline's
// backpressure (PACING.md, failure 4: no other cap on admission).
//
// Not synchronized: the pipeline calls it under its scheduler lock.
#pragma once

#include <cstdint>

namespace zkp::host {

class MemoryBudget {
 public:
  explicit MemoryBudget(uint64_t total_bytes) : total_(total_bytes) {}

  uint64_t total() const { return total_; }
  uint64_t used() const { return used_; }
  uint64_t peak() const { return peak_; }  // the highest used() ever reached

  // Whether reserve(bytes) would stay within the total now.
  bool can_grant(uint64_t bytes) const { return bytes <= total_ - used_; }

  // Takes `bytes`. The caller checked can_grant(); exceeding the total is a broken
  // invariant of the host and aborts with a message rather than over-commit memory.
  void reserve(uint64_t bytes);

  // Gives back `bytes` of an earlier reservation (an over-release aborts likewise).
  void release(uint64_t bytes);

 private:
  uint64_t total_;
  uint64_t used_ = 0;
  uint64_t peak_ = 0;
};

}  // namespace zkp::host
