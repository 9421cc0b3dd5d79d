// The job store's lease rules against a real PostgreSQL server (fleet.sh's `store` mode starts
// it, makes the schema with `zkpipe queue init` and passes its URL in ZKPIPE_TEST_PG_URL). Time
// never decides an outcome here: a lease is made to expire by moving its expiry into the past.
#include "store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace zkp::queue {
namespace {

using std::chrono::milliseconds;
constexpr milliseconds kLease{60000};

std::string url() {
  const char* u = std::getenv("ZKPIPE_TEST_PG_URL");
  return u != nullptr ? u : "";
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (url().empty()) GTEST_SKIP() << "ZKPIPE_TEST_PG_URL is not set (fleet.sh's store mode sets it)";
    store_ = std::make_unique<Store>(url());
    // Every test starts from an empty store: a claim takes whatever is claimable.
    store_->connection().exec("TRUNCATE zkpipe.jobs CASCADE");
  }

  uint64_t enqueue(const std::string& key, int32_t priority, uint32_t partitions) {
    JobSpec job;
    job.key_path = key;
    job.priority = priority;
    for (uint32_t i = 0; i < partitions; ++i) job.partitions.push_back({"/witness/" + std::to_string(i) + ".wtns", ""});
    return store_->enqueue(job);
  }

  // Every live lease's expiry an hour ago, as if its holder had been stopped that long.
  void expire_leases() {
    store_->connection().exec(
        "UPDATE zkpipe.partitions SET lease_expires = now() - interval '1 hour' WHERE state = 'leased'");
  }

  static std::vector<uint64_t> lease_ids(const std::vector<Claim>& claims) {
    std::vector<uint64_t> ids;
    for (const Claim& c : claims) ids.push_back(c.lease_id);
    return ids;
  }

  static PartitionResult result_of(const Claim& c, const std::string& message) {
    PartitionResult r;
    r.job_id = c.job_id;
    r.index = c.index;
    r.lease_id = c.lease_id;
    r.status = 0;
    r.message = message;
    r.proof = "proof of " + std::to_string(c.index);
    r.proof_json = "{}";
    r.public_json = "[]";
    return r;
  }

  std::unique_ptr<Store> store_;
};

// A worker stopped past its lease (SIGSTOP, a stall) still proves what it held. Its own next
// claim must not hand it those partitions again (it would prove them twice): its heartbeat
// renews the expired leases instead, and only another worker may reclaim them.
TEST_F(StoreTest, ClaimPassesOverTheCallersOwnExpiredLeases) {
  enqueue("/keys/a.zkey", 0, 2);
  const std::vector<Claim> first = store_->claim("w", 8, kLease, {});
  ASSERT_EQ(first.size(), 2u);
  expire_leases();

  EXPECT_TRUE(store_->claim("w", 8, kLease, {}).empty()) << "w was handed its own partitions again";
  std::vector<uint64_t> held = store_->renew("w", lease_ids(first), kLease);
  std::sort(held.begin(), held.end());
  EXPECT_EQ(held, lease_ids(first)) << "an expired lease nobody reclaimed is still renewable";

  expire_leases();
  const std::vector<Claim> taken = store_->claim("x", 8, kLease, {});
  ASSERT_EQ(taken.size(), 2u) << "another worker reclaims what w let expire";
  for (const Claim& c : taken) EXPECT_EQ(c.attempt, 2u);
  EXPECT_TRUE(store_->renew("w", lease_ids(first), kLease).empty()) << "w's leases are lost once reclaimed";
}

// Two results for one partition in one batch (proved twice by one worker): the first is
// written, the second dropped and counted, and the rest of the batch is written; the batch
// used to fail whole on the results table's primary key.
TEST_F(StoreTest, CompleteBatchWritesTheFirstOfTwoResultsForOnePartition) {
  const uint64_t job = enqueue("/keys/a.zkey", 0, 3);
  std::vector<Claim> claims = store_->claim("w", 8, kLease, {});
  ASSERT_EQ(claims.size(), 3u);
  std::sort(claims.begin(), claims.end(), [](const Claim& a, const Claim& b) { return a.index < b.index; });
  const std::vector<PartitionResult> batch = {result_of(claims[0], "first"), result_of(claims[1], "first"),
                                              result_of(claims[1], "second"), result_of(claims[2], "first")};

  std::vector<bool> written;
  ASSERT_NO_THROW(written = store_->complete_batch("w", batch));
  EXPECT_EQ(written, (std::vector<bool>{true, true, false, true}));

  const std::optional<JobStatus> status = store_->job(job);
  ASSERT_TRUE(status.has_value());
  EXPECT_EQ(status->state, "done");
  EXPECT_EQ(status->succeeded, 3u);
  EXPECT_EQ(status->dropped, 1u);
  const std::optional<StoredResult> one = store_->result(job, claims[1].index);
  ASSERT_TRUE(one.has_value() && one->written);
  EXPECT_EQ(one->message, "first");
}

// The claim reads two index scans of `max` rows (the first rows in claim order, and each warm
// key's first rows) instead of sorting the backlog: it must hand out exactly what the sort did,
// priority first, then the caller's warm keys, then age.
TEST_F(StoreTest, ClaimOrderIsPriorityThenWarmKeysThenAge) {
  const uint64_t a = enqueue("/keys/a.zkey", 0, 3);
  const uint64_t b = enqueue("/keys/b.zkey", 0, 3);
  const uint64_t c = enqueue("/keys/b.zkey", 1, 2);
  const uint64_t d = enqueue("/keys/a.zkey", 1, 2);
  auto taken = [](const std::vector<Claim>& claims) {
    std::set<std::pair<uint64_t, uint32_t>> s;
    for (const Claim& x : claims) s.insert({x.job_id, x.index});
    return s;
  };
  const std::vector<Claim> first = store_->claim("w", 5, kLease, {"/keys/a.zkey"});
  EXPECT_EQ(taken(first), (std::set<std::pair<uint64_t, uint32_t>>{{d, 0}, {d, 1}, {c, 0}, {c, 1}, {a, 0}}));
  ASSERT_EQ(first.size(), 5u);
  EXPECT_EQ(first[0].priority, 1) << "handed out in priority order";

  const std::vector<Claim> second = store_->claim("x", 3, kLease, {"/keys/b.zkey"});
  EXPECT_EQ(taken(second), (std::set<std::pair<uint64_t, uint32_t>>{{b, 0}, {b, 1}, {b, 2}}));
  const std::vector<Claim> rest = store_->claim("y", 8, kLease, {});
  EXPECT_EQ(taken(rest), (std::set<std::pair<uint64_t, uint32_t>>{{a, 1}, {a, 2}}));
}

// Several warm keys, and more of them than the batch: each key's scan is bounded by the
// batch, and what the batch holds is the first of the warm rows in (priority, age) order.
TEST_F(StoreTest, ClaimTakesTheOldestOfSeveralWarmKeys) {
  const uint64_t a = enqueue("/keys/a.zkey", 0, 4);
  const uint64_t b = enqueue("/keys/b.zkey", 0, 4);
  enqueue("/keys/c.zkey", 0, 4);
  const std::vector<Claim> claims = store_->claim("w", 6, kLease, {"/keys/b.zkey", "/keys/a.zkey"});
  std::set<std::pair<uint64_t, uint32_t>> got;
  for (const Claim& x : claims) got.insert({x.job_id, x.index});
  EXPECT_EQ(got, (std::set<std::pair<uint64_t, uint32_t>>{{a, 0}, {a, 1}, {a, 2}, {a, 3}, {b, 0}, {b, 1}}));
}

}  // namespace
}  // namespace zkp::queue
