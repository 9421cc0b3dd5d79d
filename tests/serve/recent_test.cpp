// The dashboard's last minutes (host/services/observe/recent.hpp) from a hand-made ring of completions:
// nearest-rank quantiles, the 60 s window (its edge, cancelled partitions counted nowhere,
// failures apart from proofs), each device's busy share over its workers' time, the same over
// the last 10 s, each key's proofs and latency, and the 10 s buckets of the last 5 minutes.
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

// Issue 39: a 60 s figure reads 67% after 40 s of saturation; the 10 s one is whole after 10 s.
TEST(Recent, TheLastTenSeconds) {
  std::deque<RecentCompletion> ring;
  // One worker on one device, busy from 40 s ago: a partition of 1 s completing every second.
  for (uint64_t ago = 39'000;; ago -= 1'000) {
    ring.push_back(done(ago, ZKP_OK, 0, 1000, 1000));
    if (ago == 0) break;
  }
  const Recent r = summarize(ring, kNow, 1, 1);
  EXPECT_DOUBLE_EQ(r.busy_share[0], 40.0 / 60);
  EXPECT_DOUBLE_EQ(r.busy_share_short[0], 1.0);  // 9999 ms ago .. now: 10 completions
  EXPECT_EQ(r.proofs_short, 10u);
  EXPECT_DOUBLE_EQ(r.proofs_per_second_short, 1.0);
  EXPECT_DOUBLE_EQ(r.proofs_per_second, 40.0 / 60);
  // Exactly 10 s ago is out, as exactly 60 s ago is out of the minute.
  const Recent edge = summarize({done(10'000, ZKP_OK, 0, 500, 500), done(9'999, ZKP_ERR_BAD_INPUT, 0, 500, 500)}, kNow, 1, 1);
  EXPECT_EQ(edge.proofs_short, 0u);
  EXPECT_DOUBLE_EQ(edge.busy_share_short[0], 0.05);  // the failure's device time counts, as in the minute
}

TEST(Recent, EachKeysProofsAndLatency) {
  std::deque<RecentCompletion> ring;
  auto of_key = [](RecentCompletion c, uint64_t key) {
    c.key_id = key;
    return c;
  };
  ring.push_back(of_key(done(70'000, ZKP_OK, 0, 10, 5000), 3));  // out of the minute
  for (uint64_t ms = 1; ms <= 100; ++ms) ring.push_back(of_key(done(ms, ZKP_OK, 0, 10, ms), 3));
  ring.push_back(of_key(done(5'000, ZKP_ERR_BAD_INPUT, -1, 0, 1), 3));
  ring.push_back(of_key(done(5'000, ZKP_ERR_CANCELLED, -1, 0, 1), 9));  // counted nowhere
  ring.push_back(of_key(done(2'000, ZKP_OK, 0, 10, 40), 1));
  const Recent r = summarize(ring, kNow, 1, 1);
  ASSERT_EQ(r.by_key.size(), 2u);  // by key id; key 9 had only a cancellation
  EXPECT_EQ(r.by_key[0].key_id, 1u);
  EXPECT_EQ(r.by_key[0].proofs, 1u);
  EXPECT_DOUBLE_EQ(r.by_key[0].p50_seconds, 0.04);
  EXPECT_EQ(r.by_key[1].key_id, 3u);
  EXPECT_EQ(r.by_key[1].proofs, 100u);
  EXPECT_EQ(r.by_key[1].failed, 1u);
  EXPECT_DOUBLE_EQ(r.by_key[1].p50_seconds, 0.050);
  EXPECT_DOUBLE_EQ(r.by_key[1].p99_seconds, 0.099);
}

TEST(Recent, NothingYet) {
  const Recent r = summarize({}, kNow, 1, 1);
  EXPECT_EQ(r.proofs, 0u);
  EXPECT_EQ(r.p50_seconds, 0);
  EXPECT_EQ(r.busy_share, std::vector<double>{0});
  EXPECT_EQ(r.busy_share_short, std::vector<double>{0});
  EXPECT_TRUE(r.by_key.empty());
  EXPECT_EQ(r.series.size(), Recent::kBuckets);
}

}  // namespace
}  // namespace zkp::observe
