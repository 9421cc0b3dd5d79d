// The pipeline's data structures on their own: scheduler order, GPU queue routing,
// the memory budget's accounting.
#include "gpu_queue.hpp"
#include "memory_budget.hpp"
#include "scheduler.hpp"

#include <gtest/gtest.h>

namespace zkp::host {
namespace {

std::shared_ptr<Job> job(uint64_t id, int32_t priority, int32_t gpu_index = -1) {
  auto j = std::make_shared<Job>();
  j->id = id;
  j->priority = priority;
  j->gpu_index = gpu_index;
  return j;
}

Task task(const std::shared_ptr<Job>& j, uint32_t partition) {
  Task t;
  t.job = j;
  t.partition = partition;
  return t;
}

TEST(Scheduler, PriorityThenSubmissionOrder) {
  Scheduler s;
  auto a = job(1, 0), b = job(2, 5), c = job(3, 0), d = job(4, -1);
  s.push(task(a, 0));
  s.push(task(a, 1));
  s.push(task(d, 0));
  s.push(task(c, 0));
  s.push(task(b, 1));
  s.push(task(b, 0));
  std::vector<std::pair<uint64_t, uint32_t>> order;
  while (!s.empty()) {
    Task t = s.pop();
    order.emplace_back(t.job->id, t.partition);
  }
  EXPECT_EQ(order, (std::vector<std::pair<uint64_t, uint32_t>>{{2, 0}, {2, 1}, {1, 0}, {1, 1}, {3, 0}, {4, 0}}));
}

TEST(Scheduler, RemoveJobTakesOnlyThatJob) {
  Scheduler s;
  auto a = job(1, 0), b = job(2, 0);
  s.push(task(a, 0));
  s.push(task(b, 0));
  s.push(task(a, 1));
  EXPECT_EQ(s.remove_job(1).size(), 2u);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s.front().job->id, 2u);
}

TEST(GpuQueue, PerDevicePinnedGoesToItsDeviceUnpinnedToLeastLoaded) {
  GpuQueue q(QueueMode::per_device, 3);
  const std::vector<uint32_t> proving{2, 0, 1};
  auto pinned = job(1, 0, 0), free = job(2, 0);
  EXPECT_EQ(q.push(task(pinned, 0), proving), 0);  // pinned wins over load
  EXPECT_EQ(q.push(task(free, 0), proving), 1);    // loads 3, 0, 1
  EXPECT_EQ(q.push(task(free, 1), proving), 2);    // loads 3, 1, 1: tie, rotates past 1
  EXPECT_EQ(q.push(task(free, 2), proving), 1);    // loads 3, 1, 2
  EXPECT_EQ(q.size(), 4u);
  EXPECT_TRUE(q.has_work_for(0));
  EXPECT_EQ(q.pop_for(1)->partition, 0u);
  EXPECT_EQ(q.pop_for(1)->partition, 2u);
  EXPECT_FALSE(q.pop_for(1).has_value());
  EXPECT_EQ(q.size(), 2u);
}

TEST(GpuQueue, SharedWorkersTakeFirstUnpinnedOrTheirOwn) {
  GpuQueue q(QueueMode::shared, 2);
  const std::vector<uint32_t> proving{0, 0};
  auto on1 = job(1, 0, 1), any = job(2, 0);
  EXPECT_EQ(q.push(task(on1, 0), proving), -1);
  EXPECT_EQ(q.push(task(any, 0), proving), -1);
  EXPECT_TRUE(q.has_work_for(0));
  EXPECT_EQ(q.pop_for(0)->job->id, 2u);  // skips the partition pinned to device 1
  EXPECT_FALSE(q.has_work_for(0));
  EXPECT_TRUE(q.has_work_for(1));
  EXPECT_EQ(q.pop_for(1)->job->id, 1u);
}

TEST(GpuQueue, HigherPriorityOvertakesFifoWithinPriority) {
  GpuQueue q(QueueMode::shared, 1);
  const std::vector<uint32_t> proving{0};
  auto low = job(1, 0), high = job(2, 3);
  q.push(task(low, 0), proving);
  q.push(task(low, 1), proving);
  q.push(task(high, 0), proving);
  q.push(task(high, 1), proving);
  std::vector<std::pair<uint64_t, uint32_t>> order;
  while (auto t = q.pop_for(0)) order.emplace_back(t->job->id, t->partition);
  EXPECT_EQ(order, (std::vector<std::pair<uint64_t, uint32_t>>{{2, 0}, {2, 1}, {1, 0}, {1, 1}}));
}

TEST(GpuQueue, RemoveJob) {
  GpuQueue q(QueueMode::per_device, 2);
  const std::vector<uint32_t> proving{0, 0};
  auto a = job(1, 0), b = job(2, 0);
  q.push(task(a, 0), proving);
  q.push(task(b, 0), proving);
  q.push(task(a, 1), proving);
  EXPECT_EQ(q.remove_job(1).size(), 2u);
  EXPECT_EQ(q.size(), 1u);
}

TEST(MemoryBudget, GrantsUpToTheTotalAndRecordsThePeak) {
  MemoryBudget b(300);
  EXPECT_TRUE(b.can_grant(300));
  EXPECT_FALSE(b.can_grant(301));
  b.reserve(100);
  b.reserve(200);
  EXPECT_EQ(b.used(), 300u);
  EXPECT_FALSE(b.can_grant(1));
  b.release(200);
  b.reserve(50);
  EXPECT_EQ(b.used(), 150u);
  EXPECT_EQ(b.peak(), 300u);
}

TEST(MemoryBudgetDeathTest, OverCommitAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  MemoryBudget b(100);
  b.reserve(60);
  EXPECT_DEATH(b.reserve(41), "memory budget over-committed");
  EXPECT_DEATH(b.release(61), "released more than was reserved");
}

}  // namespace
}  // namespace zkp::host
