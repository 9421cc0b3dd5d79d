// The MSM's work split (core/msm/split.hpp): the makespan model by hand, and what the choice
// must do with it. The MSM's results for every split are test_msm.cpp's business.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <string>

#include "core/msm/msm.hpp"
#include "core/msm/scalars.hpp"
#include "core/msm/split.hpp"

namespace zkp::msm {
namespace {

constexpr std::size_t kBn254Bits = 253;  // magnitudes min(s, r − s) < r/2

constexpr std::size_t kG1 = 64, kG2 = 128;  // sizeof(PointXY<F>), BN254

double makespan_of(std::size_t n, std::size_t units, std::size_t threads, WorkSplit s) {
  return modeled_makespan(n, window_count(kBn254Bits, s.c), s.c, s.chunks, units, threads);
}

std::size_t scratch_of(std::size_t n, std::size_t threads, std::size_t point_bytes, WorkSplit s) {
  return modeled_scratch_bytes(n, window_count(kBn254Bits, s.c), s.c, s.chunks, threads, point_bytes);
}

// The rule before split.hpp, written out again: the table's c, and 3·threads tasks spread over
// the windows.
WorkSplit old_rule(std::size_t n, std::size_t threads) {
  const unsigned c = window_bits_for(n);
  const std::size_t windows = window_count(kBn254Bits, c);
  const std::size_t want = (3 * threads + windows - 1) / windows;
  return {c, std::clamp<std::size_t>(want, 1, std::max<std::size_t>(1, n >> c))};
}

TEST(WorkSplit, MakespanModelByHand) {
  // 10 windows of c = 4 in 2 chunks of 500: tasks of 500 + 3·8 = 524, 20 of them on 4 threads.
  EXPECT_DOUBLE_EQ(modeled_makespan(1000, 10, 4, 2, 0, 4), 5 * 524.0);
  // 21 tasks on 4 threads take a sixth round.
  EXPECT_DOUBLE_EQ(modeled_makespan(1000, 21, 4, 1, 0, 4), 6 * 1024.0);
  // Units are spread over the threads: 4 tasks of 1024 and 4000 units on 4 threads.
  EXPECT_DOUBLE_EQ(modeled_makespan(1000, 4, 4, 1, 4000, 4), (4 * 1024.0 + 4000) / 4);
  // Uneven chunks: ⌈1001 / 2⌉ = 501 entries.
  EXPECT_DOUBLE_EQ(modeled_makespan(1001, 1, 4, 2, 0, 1), 2 * 525.0);
}

TEST(WorkSplit, ScratchModelByHand) {
  // 20 tasks on 4 threads: 4 workers, each 8 bytes for 500 scalars and 8 buckets of 64 bytes.
  EXPECT_EQ(modeled_scratch_bytes(1000, 10, 4, 2, 4, 64), 4u * (8 * 500 + 8 * 64));
  // 3 tasks on 16 threads: 3 workers.
  EXPECT_EQ(modeled_scratch_bytes(1000, 3, 4, 1, 16, 64), 3u * (8 * 1000 + 8 * 64));
  for (const std::size_t threads : {1u, 2u, 16u}) {
    const WorkSplit f = fixed_rule_split(std::size_t{1} << 18, kBn254Bits, threads);
    EXPECT_EQ(f.c, old_rule(std::size_t{1} << 18, threads).c);
    EXPECT_EQ(f.chunks, old_rule(std::size_t{1} << 18, threads).chunks);
  }
}

// 2^20 witness scalars less the zeros and ones (the table's c = 15: 17 windows). On 2 threads,
// 16 windows of c = 16 are 8 rounds where 17 took 9, within the 32 MiB floor. On 16 threads the
// 51 tasks of the old rule took 4 rounds; one chunk of c = 16 would be one round but twice the
// old rule's scratch, so the split must find a faster one within it.
TEST(WorkSplit, TwoToTheTwentyOnTwoAndSixteenThreads) {
  const std::size_t n = (std::size_t{1} << 20) - 5000;
  ASSERT_EQ(window_bits_for(n), 15u);
  for (const std::size_t pb : {kG1, kG2}) {
    const WorkSplit two = split_work(n, kBn254Bits, 0, 2, pb);
    EXPECT_EQ(two.c, 16u) << pb;
    EXPECT_EQ(two.chunks, 1u) << pb;
    const WorkSplit sixteen = split_work(n, kBn254Bits, 0, 16, pb);
    EXPECT_LE(scratch_of(n, 16, pb, sixteen), scratch_of(n, 16, pb, old_rule(n, 16))) << pb;
    EXPECT_LT(makespan_of(n, 0, 16, sixteen), 0.9 * makespan_of(n, 0, 16, old_rule(n, 16)))
        << pb << ": c " << sixteen.c << " chunks " << sixteen.chunks;
    EXPECT_GT(scratch_of(n, 16, pb, WorkSplit{16, 1}), scratch_of(n, 16, pb, old_rule(n, 16))) << pb;
  }
}

TEST(WorkSplit, OneThreadTakesOneChunkNearTheTable) {
  for (unsigned log_n = 4; log_n <= 24; ++log_n) {
    const std::size_t n = std::size_t{1} << log_n;
    const WorkSplit s = split_work(n, kBn254Bits, 0, 1, kG1);
    EXPECT_EQ(s.chunks, 1u) << "2^" << log_n;
    EXPECT_GE(s.c + 2, window_bits_for(n)) << "2^" << log_n;
    EXPECT_LE(s.c, std::min(kMaxWindowBits, window_bits_for(n) + 1)) << "2^" << log_n;
  }
}

// Over sizes, thread counts, unit shares and point sizes (BN254 and BLS12-381, G1 and G2): never
// modelled slower than the old rule, never more scratch than it or the 32 MiB floor, chunks
// never shorter than 2^c scalars where there are that many, c within the search range.
TEST(WorkSplit, NeverWorseThanTheOldRuleAndWithinBounds) {
  for (unsigned log_n = 8; log_n <= 24; ++log_n) {
    for (const std::size_t n : {std::size_t{1} << log_n, (std::size_t{3} << log_n) / 2}) {
      for (const std::size_t threads : {1u, 2u, 3u, 4u, 6u, 8u, 12u, 16u, 24u, 32u, 64u}) {
        for (const std::size_t units : {std::size_t{0}, n / 2}) {
          for (const std::size_t pb : {std::size_t{64}, std::size_t{96}, std::size_t{128}, std::size_t{192}}) {
            const WorkSplit s = split_work(n, kBn254Bits, units, threads, pb);
            const WorkSplit old = old_rule(n, threads);
            const unsigned table = window_bits_for(n);
            ASSERT_GE(s.c, std::max(kMinWindowBits, table - 2));
            ASSERT_LE(s.c, std::min(kMaxWindowBits, table + 1));
            ASSERT_GE(s.chunks, 1u);
            if (n >= (std::size_t{1} << s.c)) {
              EXPECT_GE(n / s.chunks, std::size_t{1} << s.c) << n << " " << threads;
            }
            const std::string what = "n " + std::to_string(n) + " threads " + std::to_string(threads) + " units " +
                                     std::to_string(units) + " point " + std::to_string(pb) + ": c " +
                                     std::to_string(s.c) + " chunks " + std::to_string(s.chunks);
            EXPECT_LE(makespan_of(n, units, threads, s), makespan_of(n, units, threads, old) * 1.0000001) << what;
            EXPECT_LE(scratch_of(n, threads, pb, s),
                      std::max(scratch_of(n, threads, pb, old), std::size_t{32} << 20)) << what;
          }
        }
      }
    }
  }
}

TEST(WorkSplit, AFixedWindowIsKept) {
  for (const unsigned c : {2u, 9u, 16u}) {
    const WorkSplit s = split_work(std::size_t{1} << 18, kBn254Bits, 0, 16, kG1, c);
    EXPECT_EQ(s.c, c);
    EXPECT_GE(s.chunks, 1u);
  }
  // Nothing to split: no windows.
  EXPECT_EQ(split_work(0, 0, 100, 8, kG1).chunks, 1u);
}

}  // namespace
}  // namespace zkp::msm
