// The partition watchdog (host/src/partition_watchdog.hpp) in virtual
// time: the floor, 10 x the key's median, once per partition, and what ended() reports.
#include "partition_watchdog.hpp"

#include <gtest/gtest.h>

namespace zkp::host {
namespace {

constexpr uint64_t kMs = 1'000'000;
constexpr uint64_t kS = 1'000 * kMs;

TEST(PartitionWatchdog, BeforeAKeyHasAProofTheFloorIsItsThreshold) {
  PartitionWatchdog w(30 * kS);
  const uint64_t id = w.started(1, /*key*/ 7, /*job*/ 3, /*partition*/ 2, 5 * kS);
  EXPECT_EQ(w.deadline_ns(), 35 * kS);
  EXPECT_TRUE(w.check(34 * kS).empty());
  const auto hung = w.check(35 * kS);
  ASSERT_EQ(hung.size(), 1u);
  EXPECT_EQ(hung[0].id, id);
  EXPECT_EQ(hung[0].device, 1u);
  EXPECT_EQ(hung[0].job_id, 3u);
  EXPECT_EQ(hung[0].partition, 2u);
  EXPECT_EQ(hung[0].on_device_ns, 30 * kS);
  EXPECT_EQ(hung[0].threshold_ns, 30 * kS);
  EXPECT_EQ(hung[0].median_ns, 0u);
  // Declared once, however long it stays.
  EXPECT_TRUE(w.check(100 * kS).empty());
  EXPECT_EQ(w.deadline_ns(), PartitionWatchdog::kNever);
  EXPECT_EQ(w.hung(), 1u);
  EXPECT_TRUE(w.ended(id));
  EXPECT_FALSE(w.ended(id));  // gone
}

TEST(PartitionWatchdog, TenTimesTheKeysMedianWhenThatIsAboveTheFloor) {
  PartitionWatchdog w(1 * kS);
  for (uint64_t ms : {900, 1000, 1100, 50'000, 1000}) w.proved(7, ms * kMs);  // one outlier
  EXPECT_EQ(w.median_ns(7), 1000 * kMs);
  EXPECT_EQ(w.threshold_ns(7), 10 * kS);
  EXPECT_EQ(w.threshold_ns(8), 1 * kS);  // another key: the floor
  w.proved(8, 0);                        // a prover that measures nothing moves nothing
  EXPECT_EQ(w.threshold_ns(8), 1 * kS);
  const uint64_t slow_key = w.started(0, 7, 1, 0, 0);
  const uint64_t other_key = w.started(1, 8, 2, 0, 0);
  EXPECT_EQ(w.deadline_ns(), 1 * kS);
  const auto first = w.check(2 * kS);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].id, other_key);
  EXPECT_EQ(w.deadline_ns(), 10 * kS);
  EXPECT_TRUE(w.check(9 * kS).empty());
  const auto second = w.check(10 * kS);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].id, slow_key);
  EXPECT_EQ(second[0].median_ns, 1000 * kMs);
}

TEST(PartitionWatchdog, APartitionThatLeftInTimeWasNotHung) {
  PartitionWatchdog w(1 * kS);
  const uint64_t id = w.started(0, 1, 1, 0, 0);
  EXPECT_FALSE(w.ended(id));
  EXPECT_TRUE(w.check(5 * kS).empty());
  EXPECT_EQ(w.hung(), 0u);
}

TEST(PartitionWatchdog, TheMedianIsOfTheLastWindowOfProofs) {
  PartitionWatchdog w(1);
  for (size_t i = 0; i < PartitionWatchdog::kWindow; ++i) w.proved(1, 5 * kS);
  for (size_t i = 0; i < PartitionWatchdog::kWindow; ++i) w.proved(1, 1 * kS);  // the key got faster
  EXPECT_EQ(w.median_ns(1), 1 * kS);
}

TEST(PartitionWatchdog, OffDeclaresNothing) {
  PartitionWatchdog w(0);
  EXPECT_FALSE(w.enabled());
  const uint64_t id = w.started(0, 1, 1, 0, 0);
  EXPECT_NE(id, 0u);
  EXPECT_TRUE(w.check(1000 * kS).empty());
  EXPECT_EQ(w.deadline_ns(), PartitionWatchdog::kNever);
  EXPECT_FALSE(w.ended(id));
}

}  // namespace
}  // namespace zkp::host
