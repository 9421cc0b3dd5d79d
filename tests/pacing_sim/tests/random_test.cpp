// The simulator's randomness is the same under every standard library.
#include "sim/random.hpp"

#include <gtest/gtest.h>

#include <random>

namespace {

using zkp::pacing_sim::Rng;

// The C++ standard fixes the 10000th output of a default-seeded mt19937_64.
TEST(Rng, EngineIsTheStandardMersenneTwister) {
  constexpr uint64_t kDefaultSeed = 5489;
  constexpr uint64_t kTenThousandth = 9981545732273789042ull;
  Rng rng(kDefaultSeed);
  uint64_t x = 0;
  for (int i = 0; i < 10000; ++i) x = rng.next_u64();
  EXPECT_EQ(x, kTenThousandth);
}

TEST(Rng, UnitIsTheTop53BitsOfOneDraw) {
  Rng rng(7);
  std::mt19937_64 engine(7);
  for (int i = 0; i < 1000; ++i) {
    const double expected = static_cast<double>(engine() >> 11) * 0x1.0p-53;
    EXPECT_EQ(rng.unit(), expected);
  }
}

TEST(Rng, UniformStaysInRangeAndCentres) {
  Rng rng(11);
  double sum = 0.0;
  constexpr int kDraws = 100000;
  for (int i = 0; i < kDraws; ++i) {
    const double v = rng.uniform(20.0, 60.0);
    ASSERT_GE(v, 20.0);
    ASSERT_LT(v, 60.0);
    sum += v;
  }
  EXPECT_NEAR(sum / kDraws, 40.0, 0.2);
}

TEST(Rng, ExponentialHasItsMean) {
  Rng rng(13);
  double sum = 0.0;
  constexpr int kDraws = 100000;
  for (int i = 0; i < kDraws; ++i) sum += rng.exponential(5.0);
  EXPECT_NEAR(sum / kDraws, 5.0, 0.1);
}

}  // namespace
