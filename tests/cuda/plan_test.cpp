// The MSM plan: window counts, bucket groups and sort width (host arithmetic, no GPU).
#include <gtest/gtest.h>

#include <stdexcept>

#include "cuda/msm/plan.hpp"

namespace zkp::cuda::msm {
namespace {

TEST(MsmPlan, WindowsCoverFoldedMagnitudesPlusTheCarry) {
  // BN254 r has 254 bits: folded magnitudes < 2^253, one more bit for the top carry.
  const Plan p = make_plan(1 << 20, 254, Config{16, 1});
  EXPECT_EQ(p.scalar_bits, 253u);
  EXPECT_EQ(p.windows, 16u);  // 16·16 = 256 ≥ 254
  EXPECT_EQ(p.copies, 1u);
  EXPECT_EQ(p.groups, 16u);
  EXPECT_EQ(p.half, 1u << 15);
  EXPECT_EQ(p.buckets(), std::size_t{16} << 15);
  EXPECT_EQ(p.sentinel_key(), 16u << 15);
  EXPECT_EQ(p.key_bits(), 20u);  // the sentinel 2^19 needs 20 bits
  EXPECT_EQ(p.entries, std::size_t{16} << 20);
  EXPECT_EQ(make_plan(1, 255, Config{22, 1}).windows, 12u);  // BLS12-381: 254 + 22 over 22
  EXPECT_EQ(make_plan(1, 255, Config{17, 1}).windows, 15u);
}

TEST(MsmPlan, PrecomputedCopiesShareBucketGroups) {
  const Plan all = make_plan(1000, 255, Config{22, 0});
  EXPECT_EQ(all.copies, all.windows);
  EXPECT_EQ(all.groups, 1u);
  EXPECT_EQ(all.key_bits(), 22u);  // sentinel 2^21
  const Plan some = make_plan(1000, 254, Config{10, 3});
  EXPECT_EQ(some.windows, 26u);
  EXPECT_EQ(some.groups, 9u);  // ⌈26/3⌉
  EXPECT_EQ(make_plan(1000, 254, Config{10, 99}).copies, 26u);  // capped at W
}

TEST(MsmPlan, ChosenWindowGrowsWithSizeAndPrecomputation) {
  unsigned previous = 0;
  for (std::size_t n = 1; n <= (std::size_t{1} << 24); n <<= 2) {
    const unsigned c = choose_window_bits(n, 254, 1);
    EXPECT_GE(c, previous) << n;
    EXPECT_LE(c, kMaxWindowBits);
    previous = c;
  }
  EXPECT_GT(choose_window_bits(std::size_t{1} << 24, 255, 0), choose_window_bits(std::size_t{1} << 24, 255, 1));
}

TEST(MsmPlan, RejectsBadWindowsAndTooManyReferences) {
  EXPECT_THROW(make_plan(10, 254, Config{1, 1}), std::invalid_argument);
  EXPECT_THROW(make_plan(10, 254, Config{kMaxWindowBits + 1, 1}), std::invalid_argument);
  EXPECT_THROW(make_plan(std::size_t{1} << 28, 254, Config{16, 0}), std::invalid_argument);  // 2^28·16 refs
}

}  // namespace
}  // namespace zkp::cuda::msm
