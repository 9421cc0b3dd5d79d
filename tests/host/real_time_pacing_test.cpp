// Issue 4, item 6: the shipped pacers (greedy, fixed, pi) in the real host, with the sim
// prover in real time scaled down (milliseconds where production has seconds), checked for the
// invariants the deterministic simulator checks: memory never above the budget, every admitted
// partition completes exactly once, no collapse (the pipeline keeps moving, including after it
// drains and restarts). Labelled "pipeline": CI runs it again under ThreadSanitizer.
//
// Liveness, not speed: the bounds below are two orders of magnitude above the ideal time, so
// they fail only when a pacer stops admitting (e.g. pi stuck at interval_max), never because a
// loaded CI machine is slow.
#include "host_test_support.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <set>
#include <string>
#include <thread>

namespace zkp::test {
namespace {

constexpr uint64_t kMiB = 1ull << 20;
constexpr uint32_t kDevices = 2;
constexpr uint32_t kFirstJob = 40;
constexpr uint32_t kSecondJob = 20;
constexpr uint64_t kBudgetPartitions = 6;  // the budget holds this many synthesized partitions
constexpr auto kLivenessBound = std::chrono::seconds(20);  // ideal: 40 x 10 ms / 4 workers = 0.1 s

struct PacerCase {
  const char* name;
  std::vector<std::string> options;
};

// pi with its defaults: it derives its timescales from what it measures (issue 11), so
// milliseconds need no retuning; fixed at roughly the bottleneck's interval.
const PacerCase kCases[] = {
    {"greedy", {"pacer=greedy"}},
    {"fixed", {"pacer=fixed", "pacer.interval_ms=3"}},
    {"pi", {"pacer=pi", "pacer.status_every=0"}},
};

class RealTimePacing : public ::testing::TestWithParam<PacerCase> {};

// Runs one job to the end and checks that each partition completed once, successfully.
std::chrono::steady_clock::duration run_job(zkp_host_t* host, uint64_t key, uint32_t partitions) {
  Collector c;
  Partitions parts(partitions);
  const auto start = std::chrono::steady_clock::now();
  const uint64_t job = must_submit(host, make_job(key, parts, &c));
  must_wait(host, job);
  const auto took = std::chrono::steady_clock::now() - start;
  std::set<uint32_t> seen;
  for (const Record& r : c.records) {
    EXPECT_EQ(r.status, ZKP_OK) << r.message;
    EXPECT_TRUE(seen.insert(r.partition).second) << "partition " << r.partition << " delivered twice";
  }
  EXPECT_EQ(seen.size(), partitions);
  EXPECT_EQ(c.jobs.size(), 1u);
  return took;
}

TEST_P(RealTimePacing, BudgetHeldEveryPartitionOnceNoCollapseAcrossADrain) {
  const PacerCase& pc = GetParam();
  std::vector<std::string> config = {"prover=sim",
                                     "prover.devices=2",
                                     "prover.gpu_ms=10",
                                     "prover.contention=1.2",
                                     "prover.synthesis_ms=4",
                                     "prover.synthesis_jitter_ms=4",
                                     "prover.partition_bytes=1048576",
                                     "budget=" + std::to_string(kBudgetPartitions) + "MiB",
                                     "workers_per_device=2",
                                     "synthesis_threads=2"};
  config.insert(config.end(), pc.options.begin(), pc.options.end());
  HostPtr host = must_create(config);
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());

  EXPECT_LT(run_job(host.get(), key, kFirstJob), kLivenessBound) << pacer_status(host.get());
  // The pipeline is now drained; after an idle spell a new job must start again (pi
  // re-bootstraps with a reset integral instead of extrapolating the idle time).
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_LT(run_job(host.get(), key, kSecondJob), kLivenessBound) << pacer_status(host.get());

  const zkp_host_stats_t s = stats(host.get());
  EXPECT_EQ(s.partitions_succeeded, kFirstJob + kSecondJob);
  EXPECT_EQ(s.partitions_failed, 0u);
  EXPECT_LE(s.budget_peak_bytes, s.budget_total_bytes);
  EXPECT_LE(s.budget_peak_bytes, kBudgetPartitions * kMiB);
  EXPECT_GT(s.budget_peak_bytes, 0u);
  EXPECT_EQ(s.budget_used_bytes, 0u);
  EXPECT_EQ(s.pending + s.synthesizing + s.waiting + s.proving, 0u);
  uint64_t proved = 0;
  for (uint32_t d = 0; d < kDevices; ++d) {
    const zkp_device_info_t info = device_info(host.get(), d);
    EXPECT_GT(info.partitions_proved, 0u) << "device " << d << " never used under " << pc.name;
    proved += info.partitions_proved;
  }
  EXPECT_EQ(proved, kFirstJob + kSecondJob);
  const std::string status = pacer_status(host.get());
  EXPECT_NE(status.find(std::string(pc.name) + ":"), std::string::npos) << status;
  EXPECT_NE(status.find("admitted=" + std::to_string(kFirstJob + kSecondJob)), std::string::npos) << status;
  if (std::string(pc.name) == "pi") {
    // The second job started from a drained pipeline: that is a re-bootstrap, not a stall.
    EXPECT_EQ(status.find("rebootstraps=0"), std::string::npos) << status;
  }
}

INSTANTIATE_TEST_SUITE_P(ShippedPacers, RealTimePacing, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<PacerCase>& info) { return info.param.name; });

// Issue 11, item 4: in the millisecond regime (circom-sized work: GPU 5-50 ms, synthesis
// about twice that) pi with its defaults takes greedy's wall time, within 5%. It took
// 100x before (3 s bootstrap spacing against 50 ms proofs).
//
// Real time on a shared machine: each pacer runs kRuns times, interleaved, and the fastest
// run of each is compared (load only ever slows a run down, so the minimum is the run
// least disturbed), with one GPU time of slack on top of the 5%: scheduling noise is a
// few milliseconds whatever the run's length. The work is ~20 GPU times per worker, so
// that slack stays a small part of it. A pacer that waits seconds, as pi did, fails by far.
struct MsRegime {
  uint32_t gpu_ms;
  uint32_t partitions;
};

class MillisecondRegime : public ::testing::TestWithParam<MsRegime> {};

constexpr int kRuns = 3;
constexpr double kWallTolerance = 1.05;

// "key=value", built with += (GCC 12 warns, wrongly, on "key=" + std::to_string(v)).
std::string setting(const char* key, const std::string& value) {
  std::string s = key;
  s += '=';
  s += value;
  return s;
}

std::chrono::steady_clock::duration one_run(const std::string& pacer, const MsRegime& r) {
  std::vector<std::string> config = {"prover=sim",
                                     "prover.devices=2",
                                     setting("prover.gpu_ms", std::to_string(r.gpu_ms)),
                                     "prover.contention=1.2",
                                     setting("prover.synthesis_ms", std::to_string(2 * r.gpu_ms)),
                                     setting("prover.synthesis_jitter_ms", std::to_string(r.gpu_ms)),
                                     "prover.partition_bytes=1048576",
                                     "budget=256MiB",
                                     "workers_per_device=2",
                                     "synthesis_threads=8",
                                     setting("pacer", pacer),
                                     "status_every=0"};
  HostPtr host = must_create(config);
  EXPECT_TRUE(host);
  if (!host) return {};
  const uint64_t key = must_load_key(host.get());
  return run_job(host.get(), key, r.partitions);
}

TEST_P(MillisecondRegime, PiTakesGreedysWallTime) {
  const MsRegime& r = GetParam();
  auto greedy = std::chrono::steady_clock::duration::max();
  auto pi = std::chrono::steady_clock::duration::max();
  for (int i = 0; i < kRuns; ++i) {
    greedy = std::min(greedy, one_run("greedy", r));
    pi = std::min(pi, one_run("pi", r));
  }
  const double greedy_ms = std::chrono::duration<double, std::milli>(greedy).count();
  const double pi_ms = std::chrono::duration<double, std::milli>(pi).count();
  RecordProperty("greedy_ms", std::to_string(greedy_ms));
  RecordProperty("pi_ms", std::to_string(pi_ms));
  std::cout << "gpu_ms=" << r.gpu_ms << " partitions=" << r.partitions << ": greedy " << greedy_ms << " ms, pi "
            << pi_ms << " ms (" << pi_ms / greedy_ms << "x)\n";
  EXPECT_LE(pi_ms, kWallTolerance * greedy_ms + r.gpu_ms) << "greedy " << greedy_ms << " ms";
}

// About 20 GPU times per worker (4 workers) at each size.
INSTANTIATE_TEST_SUITE_P(GpuMs, MillisecondRegime,
                         ::testing::Values(MsRegime{5, 80}, MsRegime{20, 80}, MsRegime{50, 80}),
                         [](const ::testing::TestParamInfo<MsRegime>& info) {
                           std::string name = "gpu_ms_";
                           name += std::to_string(info.param.gpu_ms);
                           return name;
                         });

}  // namespace
}  // namespace zkp::test
