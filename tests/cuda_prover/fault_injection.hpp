// Faults injected from outside the prover, the way a bad kernel or a failing GPU produces them.
#pragma once

#include <cstddef>
#include <string>

namespace zkp::test {

// Launches a kernel on CUDA device `ordinal` that stores through a wild pointer. The error
// it raises (cudaErrorIllegalAddress) is sticky: the device's context in this process is
// unusable from then on, for every library in the process, as after an Xid fault. Returns the
// runtime's text for the error, or "" if the device did not fault. Run it only in a test
// process of its own: nothing on that device works afterwards.
std::string break_device(int ordinal);

// Whether CUDA calls on `ordinal` still succeed (creates and destroys an event). After
// break_device(0) this tells whether the runtime kept device `ordinal` apart from the
// fault: on H200s with CUDA 13 it does not (a sticky fault breaks every device of the
// process), and the tests check the prover's behaviour against what the runtime does.
bool device_usable(int ordinal);

// Device memory held until destroyed, to leave another allocation short of memory.
class MemoryHog {
 public:
  // Allocates on `ordinal` all but `leave_free` bytes of what is free now.
  MemoryHog(int ordinal, std::size_t leave_free);
  ~MemoryHog();
  MemoryHog(const MemoryHog&) = delete;
  MemoryHog& operator=(const MemoryHog&) = delete;
  std::size_t bytes() const { return bytes_; }

 private:
  int ordinal_;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// Free bytes on `ordinal` (cudaMemGetInfo).
std::size_t free_device_bytes(int ordinal);

}  // namespace zkp::test
