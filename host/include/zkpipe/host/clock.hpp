// The pipeline clock. Every time a pacer, a completion record or a plugin's now_ns()
// sees comes from here, so durations measured in different threads compare.
#pragma once

#include <chrono>
#include <cstdint>

namespace zkp::host {

// Monotonic nanoseconds (steady_clock); never goes back, unrelated to wall time.
inline uint64_t now_ns() noexcept {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// The steady_clock time point of a pipeline-clock reading (for condition waits).
inline std::chrono::steady_clock::time_point to_time_point(uint64_t ns) noexcept {
  return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(ns));
}

}  // namespace zkp::host
