// The dashboard's last minutes (host/services/observe/recent.hpp) from a hand-made ring of completions:
// nearest-rank quantiles, the 60 s window (its edge, cancelled partitions counted nowhere,
// failures apart from proofs), each device's busy share over its workers' time, and the 10 s
// buckets of the last 5 minutes.
#include "services/observe/recent.hpp"

#include <gtest/gtest.h>

namespace zkp::observe {
namespace {

constexpr uint64_t kNow = 1'700'000'005'000;  // 5 s into a 10 s bucket
constexpr uint64_t kMs = 1'000'000;           // ns per ms

RecentCompletion done(uint64_t ago_ms, zkp_status_t status, int32_t gpu, uint64_t gpu_ms, uint64_t latency_ms) {
  RecentCompletion c;
  c.status = status;
  c.gpu_index = gpu;
  c.gpu_duration_ns = gpu_ms * kMs;
  c.total_ns = latency_ms * kMs;
  c.unix_ms = kNow - ago_ms;
  return c;
}

TEST(Recent, NearestRank) {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) v.push_back(i);
  EXPECT_EQ(nearest_rank(v, 0.50), 50);
  EXPECT_EQ(nearest_rank(v, 0.99), 99);
  EXPECT_EQ(nearest_rank(v, 1.0), 100);
  EXPECT_EQ(nearest_rank({7}, 0.5), 7);
  EXPECT_EQ(nearest_rank({1, 2}, 0.99), 2);
  EXPECT_EQ(nearest_rank({}, 0.5), 0);
}

TEST(Recent, WindowBusyShareAndBuckets) {
  std::deque<RecentCompletion> ring = {
      done(200'000, ZKP_OK, 0, 1000, 9000),          // 200 s ago: in the series, not the window
      done(60'000, ZKP_OK, 0, 1000, 8000),           // exactly 60 s ago: out of the window
      done(59'999, ZKP_OK, 0, 3000, 100),            // in
      done(30'000, ZKP_ERR_UNSATISFIED_WITNESS, 1, 6000, 50),  // a failure, device 1's time
      done(20'000, ZKP_ERR_CANCELLED, -1, 0, 10),   // counted nowhere
      done(1'000, ZKP_OK, 0, 3000, 300),
      done(0, ZKP_OK, 0, 6000, 200),
  };
  const Recent r = summarize(ring, kNow, 2, 2);
  EXPECT_EQ(r.proofs, 3u);
  EXPECT_EQ(r.failed, 1u);
  EXPECT_DOUBLE_EQ(r.proofs_per_second, 3.0 / 60);
  EXPECT_DOUBLE_EQ(r.p50_seconds, 0.2);
  EXPECT_DOUBLE_EQ(r.p99_seconds, 0.3);
  ASSERT_EQ(r.busy_share.size(), 2u);
  EXPECT_DOUBLE_EQ(r.busy_share[0], 12.0 / 120);  // 12 s of device time over 60 s x 2 workers
  EXPECT_DOUBLE_EQ(r.busy_share[1], 6.0 / 120);

  ASSERT_EQ(r.series.size(), Recent::kBuckets);
  EXPECT_EQ(r.series.back().start_unix_ms, kNow - 5'000);
  EXPECT_EQ(r.series.front().start_unix_ms, kNow - 5'000 - 290'000);
  EXPECT_EQ(r.series.back().proofs, 2u);  // 1 s and 0 s ago
  EXPECT_DOUBLE_EQ(r.series.back().p50_seconds, 0.2);
  EXPECT_DOUBLE_EQ(r.series.back().p99_seconds, 0.3);
  uint64_t proofs = 0, failed = 0;
  for (const Recent::Bucket& b : r.series) {
    proofs += b.proofs;
    failed += b.failed;
  }
  EXPECT_EQ(proofs, 5u);  // all but the failure and the cancelled one: 200 s ago is within 5 min
  EXPECT_EQ(failed, 1u);
}

TEST(Recent, NothingYet) {
  const Recent r = summarize({}, kNow, 1, 1);
  EXPECT_EQ(r.proofs, 0u);
  EXPECT_EQ(r.p50_seconds, 0);
  EXPECT_EQ(r.busy_share, std::vector<double>{0});
  EXPECT_EQ(r.series.size(), Recent::kBuckets);
}

}  // namespace
}  // namespace zkp::observe
