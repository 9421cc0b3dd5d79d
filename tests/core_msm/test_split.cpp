// The MSM's work split (core/msm/split.hpp): the makespan model by hand, and what the choice
// must do with it. The MSM's results for every split are test_msm.cpp's business.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>

#include "core/msm/msm.hpp"
#include "core/msm/scalars.hpp"
#include "core/msm/split.hpp"

namespace zkp::msm {
namespace {

constexpr std::size_t kBn254Bits = 253;  // magnitudes min(s, r − s) < r/2

double makespan_of(std::size_t n, std::size_t units, std::size_t threads, WorkSplit s) {
  return modeled_makespan(n, window_count(kBn254Bits, s.c), s.c, s.chunks, units, threads);
}

// The rule before split.hpp: the table's c, and 3·threads tasks spread over the windows.
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

// 2^20 witness scalars less the zeros and ones (the table's c = 15: 17 windows): 16 windows of
// c = 16 are one round on 16 threads and 8 on 2, where 17 windows took 4 rounds of 3 chunks and
// 9 rounds.
TEST(WorkSplit, SixteenWindowsFillSixteenAndTwoThreads) {
  const std::size_t n = (std::size_t{1} << 20) - 5000;
  ASSERT_EQ(window_bits_for(n), 15u);
  for (const std::size_t threads : {2u, 16u}) {
    const WorkSplit s = split_work(n, kBn254Bits, 0, threads);
    EXPECT_EQ(s.c, 16u) << threads << " threads";
    EXPECT_EQ(s.chunks, 1u) << threads << " threads";
  }
}

TEST(WorkSplit, OneThreadTakesOneChunkNearTheTable) {
  for (unsigned log_n = 4; log_n <= 24; ++log_n) {
    const std::size_t n = std::size_t{1} << log_n;
    const WorkSplit s = split_work(n, kBn254Bits, 0, 1);
    EXPECT_EQ(s.chunks, 1u) << "2^" << log_n;
    EXPECT_GE(s.c + 2, window_bits_for(n)) << "2^" << log_n;
    EXPECT_LE(s.c, std::min(kMaxWindowBits, window_bits_for(n) + 1)) << "2^" << log_n;
  }
}

// Over sizes, thread counts and unit shares: never modelled slower than the old rule, chunks
// never shorter than 2^c scalars where there are that many, c within the search range.
TEST(WorkSplit, NeverWorseThanTheOldRuleAndWithinBounds) {
  for (unsigned log_n = 8; log_n <= 24; ++log_n) {
    for (const std::size_t n : {std::size_t{1} << log_n, (std::size_t{3} << log_n) / 2}) {
      for (const std::size_t threads : {1u, 2u, 3u, 4u, 6u, 8u, 12u, 16u, 24u, 32u, 64u}) {
        for (const std::size_t units : {std::size_t{0}, n / 2}) {
          const WorkSplit s = split_work(n, kBn254Bits, units, threads);
          const unsigned table = window_bits_for(n);
          ASSERT_GE(s.c, std::max(kMinWindowBits, table - 2));
          ASSERT_LE(s.c, std::min(kMaxWindowBits, table + 1));
          ASSERT_GE(s.chunks, 1u);
          if (n >= (std::size_t{1} << s.c)) {
            EXPECT_GE(n / s.chunks, std::size_t{1} << s.c) << n << " " << threads;
          }
          EXPECT_LE(makespan_of(n, units, threads, s), makespan_of(n, units, threads, old_rule(n, threads)) * 1.0000001)
              << "n " << n << " threads " << threads << " units " << units << ": c " << s.c << " chunks " << s.chunks;
        }
      }
    }
  }
}

TEST(WorkSplit, AFixedWindowIsKept) {
  for (const unsigned c : {2u, 9u, 16u}) {
    const WorkSplit s = split_work(std::size_t{1} << 18, kBn254Bits, 0, 16, c);
    EXPECT_EQ(s.c, c);
    EXPECT_GE(s.chunks, 1u);
  }
  // Nothing to split: no windows.
  EXPECT_EQ(split_work(0, 0, 100, 8).chunks, 1u);
}

}  // namespace
}  // namespace zkp::msm
