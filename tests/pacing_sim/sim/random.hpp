// Seeded randomness whose every draw is the same under every standard library.
// std::mt19937_64's output sequence is fixed by the C++ standard; the distributions are
// not (libstdc++ and libc++ give different std::uniform_real_distribution values), so the
// few this simulator needs are written here from raw 64-bit draws.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace zkp::pacing_sim {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}

  uint64_t next_u64() { return engine_(); }

  // Uniform in [0, 1): the top 53 bits of one draw, scaled by 2^-53 (exact in a double).
  double unit() {
    constexpr int kDropBits = 64 - 53;
    constexpr double kScale = 0x1.0p-53;
    return static_cast<double>(engine_() >> kDropBits) * kScale;
  }

  // Uniform in [lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }

  // Exponential with the given mean, by inversion: -mean * ln(1 - u).
  double exponential(double mean) { return -mean * std::log1p(-unit()); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace zkp::pacing_sim
