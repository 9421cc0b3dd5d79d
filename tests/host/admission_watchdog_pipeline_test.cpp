// The admission watchdog in the running host (issue 11, item 5), with a pacer that never
// admits (tests/host/plugins/never_pacer.c, the README's old example): the stall is
// counted in the stats once, however long it lasts. Real time, so only liveness is
// bounded (generously): the 100 ms threshold has 30 s to be noticed.
#include "host_test_support.hpp"

#include <chrono>
#include <cstddef>
#include <thread>

namespace zkp::test {
namespace {

constexpr uint32_t kPartitions = 3;
constexpr auto kNoticeBound = std::chrono::seconds(30);
constexpr auto kPoll = std::chrono::milliseconds(10);

TEST(AdmissionWatchdogPipeline, APacerThatNeverAdmitsIsCountedOncePerStall) {
  // Declared before the host, so they outlive it: destroying the host cancels the pending
  // partitions, and their callbacks write into the collector.
  Collector c;
  Partitions parts(kPartitions);
  HostPtr host = must_create({"prover=sim", "prover.devices=1", "prover.gpu_ms=1", "pacer=never",
                              "admission_watchdog_ms=100"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  must_submit(host.get(), make_job(key, parts, &c));

  const auto give_up = std::chrono::steady_clock::now() + kNoticeBound;
  while (stats(host.get()).admission_stalls == 0 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(kPoll);
  }
  const zkp_host_stats_t noticed = stats(host.get());
  ASSERT_EQ(noticed.admission_stalls, 1u) << "no stall counted within " << kNoticeBound.count() << " s";
  EXPECT_EQ(noticed.pending, kPartitions);
  EXPECT_EQ(noticed.budget_used_bytes, 0u);

  // Ten thresholds later it is the same stall: still counted once.
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  EXPECT_EQ(stats(host.get()).admission_stalls, 1u);
  EXPECT_EQ(pacer_status(host.get()), "never: asks to be asked again in 10 ms, forever");
}

// admission_stalls came after the first release of zkp_host_stats_t: a caller built
// against that header (struct_size ending at workers_per_device) gets its fields and
// nothing past them is written.
TEST(AdmissionWatchdogPipeline, FirstReleaseStatsCallerIsNotWrittenPastItsStruct) {
  HostPtr host = must_create({"prover=sim", "prover.devices=2", "prover.gpu_ms=1"});
  ASSERT_TRUE(host);
  zkp_host_stats_t s = stats_ending_at(host.get(), offsetof(zkp_host_stats_t, admission_stalls));
  EXPECT_EQ(s.device_count, 2u);
  EXPECT_EQ(s.header.struct_size, offsetof(zkp_host_stats_t, admission_stalls));
  zkp_error_t err = make_error();
  // One byte shorter is a caller older than any release: refused.
  s.header.struct_size -= 1;
  EXPECT_EQ(zkp_host_stats(host.get(), &s, &err), ZKP_ERR_ABI_MISMATCH);
}

// admission_interval_ns, after admission_stalls: the time between the last two admissions
// (what /metrics shows as the pacer's interval), 0 before two; a caller whose struct ends at
// admission_stalls gets that field and nothing past it.
TEST(AdmissionWatchdogPipeline, AdmissionIntervalIsReportedAndNotWrittenPastAnOlderStruct) {
  Collector c;
  Partitions parts(4);
  HostPtr host = must_create({"prover=sim", "prover.devices=1", "prover.gpu_ms=1"});
  ASSERT_TRUE(host);
  EXPECT_EQ(stats(host.get()).admission_interval_ns, 0u);
  const uint64_t key = must_load_key(host.get());
  must_wait(host.get(), must_submit(host.get(), make_job(key, parts, &c)));
  EXPECT_GT(stats(host.get()).admission_interval_ns, 0u);

  const zkp_host_stats_t s = stats_ending_at(host.get(), offsetof(zkp_host_stats_t, admission_interval_ns));
  EXPECT_EQ(s.admission_stalls, 0u);
}

}  // namespace
}  // namespace zkp::test
