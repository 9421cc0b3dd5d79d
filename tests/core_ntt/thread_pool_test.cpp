#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/util/thread_pool.hpp"

namespace zkp {
namespace {

TEST(ThreadPool, RunsEveryTaskExactlyOnce) {
  for (unsigned threads : {1u, 2u, 4u}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.size(), threads);
    std::vector<std::atomic<int>> hits(1000);
    pool.run(hits.size(), [&](std::size_t i) { hits[i].fetch_add(1); });
    for (auto& h : hits) ASSERT_EQ(h.load(), 1);
  }
}

TEST(ThreadPool, ParallelForCoversTheRangeWithoutOverlap) {
  ThreadPool pool(3);
  std::vector<std::atomic<int>> hits(12345);
  pool.parallel_for(hits.size(), 100, [&](std::size_t b, std::size_t e) {
    EXPECT_LT(b, e);
    for (std::size_t i = b; i < e; ++i) hits[i].fetch_add(1);
  });
  for (auto& h : hits) ASSERT_EQ(h.load(), 1);
}

TEST(ThreadPool, UsesMoreThanOneThread) {
  ThreadPool pool(2);
  std::atomic<int> inside{0}, overlap{0};
  pool.run(2, [&](std::size_t) {
    if (inside.fetch_add(1) == 1) overlap = 1;
    // Wait until both tasks are in flight (bounded, so a serial pool fails instead of hanging).
    for (int i = 0; i < 2000 && inside.load() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  EXPECT_EQ(overlap.load(), 1);
}

TEST(ThreadPool, RethrowsATaskException) {
  ThreadPool pool(2);
  std::atomic<int> ran{0};
  EXPECT_THROW(pool.run(50,
                        [&](std::size_t i) {
                          ran.fetch_add(1);
                          if (i == 7) throw std::runtime_error("task 7");
                        }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 50);  // the other tasks still ran
  // The pool is still usable.
  std::atomic<int> after{0};
  pool.run(10, [&](std::size_t) { after.fetch_add(1); });
  EXPECT_EQ(after.load(), 10);
}

TEST(ThreadPool, NestedRunExecutesInlineInsteadOfDeadlocking) {
  ThreadPool pool(2);
  std::atomic<int> inner{0};
  pool.run(4, [&](std::size_t) { pool.run(3, [&](std::size_t) { inner.fetch_add(1); }); });
  EXPECT_EQ(inner.load(), 12);
}

TEST(ThreadPool, ConcurrentCallersTakeTurns) {
  ThreadPool pool(2);
  std::atomic<int> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c) {
    callers.emplace_back([&] {
      for (int r = 0; r < 20; ++r) pool.run(10, [&](std::size_t) { total.fetch_add(1); });
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(total.load(), 4 * 20 * 10);
}

}  // namespace
}  // namespace zkp
