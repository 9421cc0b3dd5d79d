// The pipeline end to end through the C API (libzkpipe), with the sim prover, the
// hosttest prover and the greedy/recorder pacers. Labelled "pipeline" for the TSan pass.
#include "host_test_support.hpp"

#include <algorithm>
#include <cstddef>
#include <atomic>
#include <chrono>
#include <map>
#include <set>
#include <stdexcept>
#include <thread>

namespace zkp::test {
namespace {

constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kNsPerMs = 1'000'000;

// The acceptance test of the foundation issue: 10 partitions through greedy + sim on 2
// devices x 2 workers.
TEST(Pipeline, TenPartitionsTwoDevicesTwoWorkersEachCallbackOnceOnItsDevice) {
  constexpr uint64_t kGpuMs = 20;
  constexpr double kContention = 1.2;
  constexpr uint64_t kSlackMs = 200;  // timing simulation on a loaded 2-core machine
  HostPtr host = must_create({"prover=sim", "pacer=greedy", "prover.devices=2", "prover.gpu_ms=20",
                              "prover.contention=1.2", "workers_per_device=2"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(10);
  const uint64_t job = must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get(), job);

  ASSERT_EQ(c.records.size(), 10u);
  std::set<uint32_t> seen;
  uint64_t on_device[2] = {0, 0};
  for (const Record& r : c.records) {
    EXPECT_EQ(r.job_id, job);
    EXPECT_EQ(r.status, ZKP_OK) << r.message;
    EXPECT_EQ(r.message, "");
    EXPECT_TRUE(seen.insert(r.partition).second) << "partition " << r.partition << " delivered twice";
    ASSERT_TRUE(r.gpu_index == 0 || r.gpu_index == 1) << r.gpu_index;
    EXPECT_LT(r.worker, 2u);
    ++on_device[r.gpu_index];
    EXPECT_GE(r.gpu_duration_ns, kGpuMs * kNsPerMs);
    EXPECT_LE(r.gpu_duration_ns, static_cast<uint64_t>(kGpuMs * kContention + kSlackMs) * kNsPerMs);
    EXPECT_EQ(r.flags & ZKP_COMPLETION_SIMULATED, ZKP_COMPLETION_SIMULATED);
    EXPECT_EQ(r.flags & ZKP_COMPLETION_SELF_CHECKED, 0u);
    EXPECT_TRUE(r.proof.empty());
  }
  EXPECT_EQ(seen.size(), 10u);
  for (uint32_t d = 0; d < 2; ++d) {
    const zkp_device_info_t info = device_info(host.get(), d);
    EXPECT_EQ(info.partitions_proved, on_device[d]) << "device " << d;
    EXPECT_EQ(info.partitions_started, on_device[d]) << "device " << d;
  }
  EXPECT_GT(on_device[0], 0u);  // the least-loaded routing uses both devices
  EXPECT_GT(on_device[1], 0u);

  ASSERT_EQ(c.jobs.size(), 1u);
  EXPECT_EQ(c.jobs[0].job_id, job);
  EXPECT_EQ(c.jobs[0].status, ZKP_OK);
  EXPECT_EQ(c.jobs[0].partitions, 10u);
  EXPECT_EQ(c.jobs[0].succeeded, 10u);
  EXPECT_EQ(c.jobs[0].failed, 0u);
  EXPECT_EQ(c.jobs[0].cancelled, 0u);

  const zkp_host_stats_t s = stats(host.get());
  EXPECT_EQ(s.jobs_submitted, 1u);
  EXPECT_EQ(s.jobs_finished, 1u);
  EXPECT_EQ(s.partitions_succeeded, 10u);
  EXPECT_EQ(s.partitions_failed, 0u);
  EXPECT_EQ(s.pending + s.synthesizing + s.waiting + s.proving, 0u);
  EXPECT_EQ(s.budget_used_bytes, 0u);
  EXPECT_EQ(s.device_count, 2u);
  EXPECT_EQ(s.workers_per_device, 2u);
  EXPECT_NE(pacer_status(host.get()).find("greedy: admitted=10"), std::string::npos) << pacer_status(host.get());
}

class PinnedJob : public ::testing::TestWithParam<const char*> {};

TEST_P(PinnedJob, NeverRunsOnAnotherDevice) {
  HostPtr host = must_create({"prover=sim", "prover.devices=2", "prover.gpu_ms=2", "workers_per_device=2",
                              std::string("queue=") + GetParam()});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions pinned(6), free(4);
  must_submit(host.get(), make_job(key, pinned, &c, /*gpu_index=*/1));
  must_submit(host.get(), make_job(key, free, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 10u);
  uint64_t free_on_device0 = 0;
  for (const Record& r : c.records) {
    EXPECT_EQ(r.status, ZKP_OK) << r.message;
    if (r.job_id == 1) {
      EXPECT_EQ(r.gpu_index, 1) << "pinned partition " << r.partition;
    }
    if (r.job_id == 2 && r.gpu_index == 0) ++free_on_device0;
  }
  EXPECT_EQ(device_info(host.get(), 0).partitions_started, free_on_device0);
}

INSTANTIATE_TEST_SUITE_P(QueueModes, PinnedJob, ::testing::Values("per-device", "shared"));

TEST(Pipeline, BudgetFillsButIsNeverExceeded) {
  // 3 partitions fit; 10 are pending: greedy fills the budget exactly, never more.
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=10", "prover.partition_bytes=1048576",
                              "budget=3MiB", "workers_per_device=1", "pacer=recorder"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(10);
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 10u);
  const zkp_host_stats_t s = stats(host.get());
  EXPECT_EQ(s.budget_total_bytes, 3 * kMiB);
  EXPECT_EQ(s.budget_peak_bytes, 3 * kMiB);
  EXPECT_EQ(s.budget_used_bytes, 0u);
  const std::string line = pacer_status(host.get());
  EXPECT_EQ(status_field(line, "violations"), 0) << line;
  EXPECT_EQ(status_field(line, "overlaps"), 0) << line;
  EXPECT_EQ(status_field(line, "order_errors"), 0) << line;
  EXPECT_EQ(status_field(line, "mismatches"), 0) << line;
  EXPECT_EQ(status_field(line, "admitted"), 10) << line;
  EXPECT_EQ(status_field(line, "gpu_done"), 10) << line;
}

TEST(Pipeline, PrioritiesThenFifo) {
  // Nothing is admitted for the first 500 ms (recorder hold), so all four jobs are
  // pending together; one partition fits the budget and one worker proves, so the
  // completion order is the admission order.
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=1", "budget=1MiB", "workers_per_device=1",
                              "synthesis_threads=1", "pacer=recorder", "pacer.hold_ms=500"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions a(2), b(2), hi(2), lo(1);
  const uint64_t ja = must_submit(host.get(), make_job(key, a, &c, -1, 0));
  const uint64_t jb = must_submit(host.get(), make_job(key, b, &c, -1, 0));
  const uint64_t jhi = must_submit(host.get(), make_job(key, hi, &c, -1, 5));
  const uint64_t jlo = must_submit(host.get(), make_job(key, lo, &c, -1, -1));
  EXPECT_EQ(stats(host.get()).pending, 7u);  // still held
  must_wait(host.get());
  std::vector<std::pair<uint64_t, uint32_t>> order;
  for (const Record& r : c.records) order.emplace_back(r.job_id, r.partition);
  EXPECT_EQ(order, (std::vector<std::pair<uint64_t, uint32_t>>{
                       {jhi, 0}, {jhi, 1}, {ja, 0}, {ja, 1}, {jb, 0}, {jb, 1}, {jlo, 0}}));
}

TEST(Pipeline, PacerDelayIsHonoured) {
  constexpr long long kIntervalMs = 30;
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=1", "pacer=recorder", "pacer.interval_ms=30"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(4);
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  const std::string line = pacer_status(host.get());
  EXPECT_EQ(status_field(line, "admitted"), 4) << line;
  EXPECT_GE(status_field(line, "min_gap_ns"), kIntervalMs * static_cast<long long>(kNsPerMs)) << line;
  EXPECT_EQ(status_field(line, "violations"), 0) << line;
}

TEST(Pipeline, OneFailingJobDoesNotStopOthers) {
  HostPtr host = must_create({"prover=sim", "prover.devices=2", "prover.gpu_ms=2", "pacer=recorder"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions bad(3, {{1, "unsatisfied"}}), good(4);
  const uint64_t jbad = must_submit(host.get(), make_job(key, bad, &c));
  const uint64_t jgood = must_submit(host.get(), make_job(key, good, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 7u);
  for (const Record& r : c.records) {
    if (r.job_id == jbad && r.partition == 1) {
      EXPECT_EQ(r.status, ZKP_ERR_UNSATISFIED_WITNESS);
      EXPECT_EQ(r.message, "synthesis: simulated witness marked 'unsatisfied' (sim prover failure hook)");
      EXPECT_EQ(r.gpu_index, -1);
    } else {
      EXPECT_EQ(r.status, ZKP_OK) << r.job_id << "/" << r.partition << ": " << r.message;
    }
  }
  ASSERT_EQ(c.jobs.size(), 2u);
  for (const zkp_job_summary_t& s : c.jobs) {
    if (s.job_id == jbad) {
      EXPECT_EQ(s.status, ZKP_ERR_UNSATISFIED_WITNESS);
      EXPECT_EQ(s.succeeded, 2u);
      EXPECT_EQ(s.failed, 1u);
    } else {
      EXPECT_EQ(s.job_id, jgood);
      EXPECT_EQ(s.status, ZKP_OK);
      EXPECT_EQ(s.succeeded, 4u);
    }
  }
  EXPECT_EQ(stats(host.get()).partitions_failed, 1u);
  EXPECT_EQ(stats(host.get()).budget_used_bytes, 0u);
  const std::string line = pacer_status(host.get());
  EXPECT_EQ(status_field(line, "failed"), 1) << line;
  EXPECT_EQ(status_field(line, "order_errors"), 0) << line;
}

TEST(Pipeline, DeviceFaultFailsOnlyThatPartition) {
  HostPtr host = must_create({"prover=hosttest", "prover.devices=2", "pacer=recorder"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(4, {{2, "fail-prove"}});
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 4u);
  for (const Record& r : c.records) {
    if (r.partition == 2) {
      // It fails wherever it runs: retried once on the other device, then it fails with
      // the last error and where it failed before.
      ASSERT_TRUE(r.gpu_index == 0 || r.gpu_index == 1) << r.gpu_index;
      EXPECT_EQ(r.status, ZKP_ERR_DEVICE);
      EXPECT_EQ(r.message, "prove_finish: hosttest: injected device fault (it had failed before on device " +
                               std::to_string(1 - r.gpu_index) + ")");
      EXPECT_TRUE(r.proof.empty());
    } else {
      EXPECT_EQ(r.status, ZKP_OK) << r.message;
    }
  }
  EXPECT_EQ(stats(host.get()).budget_used_bytes, 0u);
  const std::string line = pacer_status(host.get());
  EXPECT_EQ(status_field(line, "order_errors"), 0) << line;
  EXPECT_EQ(status_field(line, "requeued"), 1) << line;
  EXPECT_EQ(status_field(line, "mismatches"), 0) << line;
}

// Device faults and retries (gpu_queue.hpp, Pipeline::retry_elsewhere), in both queue modes.
class DeviceRetry : public ::testing::TestWithParam<const char*> {
 protected:
  HostPtr create(std::vector<std::string> overrides) {
    overrides.push_back(std::string("queue=") + GetParam());
    return must_create(std::move(overrides));
  }
};

TEST_P(DeviceRetry, ALostDeviceCostsUnpinnedPartitionsNothing) {
  HostPtr host = create({"prover=hosttest", "prover.devices=2", "prover.gpu_ms=5", "prover.lost_device=1",
                         "workers_per_device=2", "pacer=recorder"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  constexpr uint32_t kParts = 12;
  Partitions parts(kParts);
  const uint64_t job = must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get(), job);
  ASSERT_EQ(c.records.size(), kParts);
  for (const Record& r : c.records) {
    EXPECT_EQ(r.status, ZKP_OK) << r.partition << ": " << r.message;
    EXPECT_EQ(r.message, "");
    EXPECT_EQ(r.gpu_index, 0) << "partition " << r.partition;
    ASSERT_EQ(r.proof.size(), ZKP_PROOF_SIZE_BN254);
    EXPECT_EQ(r.proof[2 * ZKP_SCALAR_SIZE], 0) << "the proof says it ran on another device";
    EXPECT_NE(r.flags & ZKP_COMPLETION_SELF_CHECKED, 0u);
  }
  ASSERT_EQ(c.jobs.size(), 1u);
  EXPECT_EQ(c.jobs[0].succeeded, kParts);
  const zkp_device_info_t lost = device_info(host.get(), 1);
  EXPECT_EQ(lost.partitions_proved, 0u);
  const std::string line = pacer_status(host.get());
  // Every start on the lost device came back to the queue once; after the first, the
  // device is quarantined, so at most what its workers held was in flight by then: two
  // workers, each holding up to two ops (worker_overlap).
  constexpr uint64_t kMostHeldOnTheDevice = 2 * 2;
  EXPECT_EQ(status_field(line, "requeued"), static_cast<long long>(lost.partitions_started)) << line;
  EXPECT_LE(lost.partitions_started, kMostHeldOnTheDevice);
  EXPECT_EQ(device_info(host.get(), 0).partitions_proved, kParts);
  EXPECT_EQ(status_field(line, "order_errors"), 0) << line;
  EXPECT_EQ(status_field(line, "mismatches"), 0) << line;
  EXPECT_EQ(status_field(line, "violations"), 0) << line;
  EXPECT_EQ(stats(host.get()).budget_used_bytes, 0u);
  EXPECT_EQ(stats(host.get()).partitions_failed, 0u);
}

TEST_P(DeviceRetry, PinnedPartitionsFailWithTheDeviceErrorOthersGoOn) {
  HostPtr host = create({"prover=hosttest", "prover.devices=2", "prover.gpu_ms=2", "prover.lost_device=1",
                         "workers_per_device=2", "pacer=recorder"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions pinned(3), free(6);
  const uint64_t jpinned = must_submit(host.get(), make_job(key, pinned, &c, /*gpu_index=*/1));
  const uint64_t jfree = must_submit(host.get(), make_job(key, free, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 9u);
  for (const Record& r : c.records) {
    if (r.job_id == jpinned) {
      EXPECT_EQ(r.status, ZKP_ERR_DEVICE);
      EXPECT_EQ(r.message, "prove_finish: hosttest: device 1 is lost");
      EXPECT_EQ(r.gpu_index, 1);
      EXPECT_TRUE(r.proof.empty());
    } else {
      EXPECT_EQ(r.job_id, jfree);
      EXPECT_EQ(r.status, ZKP_OK) << r.message;
      EXPECT_EQ(r.gpu_index, 0);
    }
  }
  const std::string line = pacer_status(host.get());
  EXPECT_EQ(status_field(line, "failed"), 3) << line;
  EXPECT_EQ(status_field(line, "order_errors"), 0) << line;
  EXPECT_EQ(stats(host.get()).budget_used_bytes, 0u);
}

TEST_P(DeviceRetry, ZeroRetriesDeliversTheDeviceError) {
  HostPtr host = create({"prover=hosttest", "prover.devices=2", "prover.gpu_ms=5", "prover.lost_device=1",
                         "workers_per_device=1", "device_retries=0", "pacer=recorder"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(6);
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 6u);
  uint32_t failed = 0;
  for (const Record& r : c.records) {
    if (r.status == ZKP_OK) {
      EXPECT_EQ(r.gpu_index, 0);
      continue;
    }
    ++failed;
    EXPECT_EQ(r.status, ZKP_ERR_DEVICE);
    EXPECT_EQ(r.message, "prove_finish: hosttest: device 1 is lost");
    EXPECT_EQ(r.gpu_index, 1);
  }
  EXPECT_GE(failed, 1u);  // it shared the first partitions with device 0
  EXPECT_EQ(failed, device_info(host.get(), 1).partitions_started);
  EXPECT_EQ(status_field(pacer_status(host.get()), "requeued"), 0);
  EXPECT_EQ(stats(host.get()).budget_used_bytes, 0u);
}

TEST_P(DeviceRetry, DeviceOutOfMemoryIsRetriedWithoutQuarantine) {
  HostPtr host = create({"prover=hosttest", "prover.devices=2", "prover.gpu_ms=5", "prover.oom_device=1",
                         "workers_per_device=1", "pacer=recorder"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(8);
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 8u);
  for (const Record& r : c.records) {
    EXPECT_EQ(r.status, ZKP_OK) << r.message;
    EXPECT_EQ(r.gpu_index, 0);
  }
  const std::string line = pacer_status(host.get());
  const uint64_t tried = device_info(host.get(), 1).partitions_started;
  EXPECT_GE(tried, 1u);
  EXPECT_EQ(status_field(line, "requeued"), static_cast<long long>(tried)) << line;
  EXPECT_EQ(status_field(line, "order_errors"), 0) << line;
  EXPECT_EQ(stats(host.get()).budget_used_bytes, 0u);
}

INSTANTIATE_TEST_SUITE_P(QueueModes, DeviceRetry, ::testing::Values("per-device", "shared"));

TEST(Pipeline, RandomnessIsCopiedAtSubmitAndReachesTheProver) {
  HostPtr host = must_create({"prover=hosttest", "prover.gpu_ms=5"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  constexpr uint32_t kParts = 3;
  constexpr size_t kPerProof = 64;
  Partitions parts(kParts);
  std::vector<uint8_t> randomness(kParts * kPerProof);
  for (size_t i = 0; i < randomness.size(); ++i) randomness[i] = static_cast<uint8_t>(i * 7 + 1);
  const std::vector<uint8_t> expected = randomness;
  zkp_job_t job = make_job(key, parts, &c);
  job.randomness = randomness.data();
  must_submit(host.get(), job);
  std::fill(randomness.begin(), randomness.end(), 0);  // the host made its own copy
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), kParts);
  for (const Record& r : c.records) {
    ASSERT_EQ(r.status, ZKP_OK) << r.message;
    ASSERT_EQ(r.proof.size(), 256u);
    EXPECT_TRUE(std::equal(r.proof.begin(), r.proof.begin() + kPerProof, expected.begin() + r.partition * kPerProof))
        << "partition " << r.partition;
    EXPECT_EQ(r.proof[kPerProof], static_cast<uint8_t>(r.gpu_index));
    EXPECT_EQ(r.flags & ZKP_COMPLETION_SELF_CHECKED, ZKP_COMPLETION_SELF_CHECKED);
    EXPECT_EQ(r.flags & ZKP_COMPLETION_SIMULATED, 0u);
  }
}

TEST(Pipeline, SelfCheckTurnsAnInvalidProofIntoAFailure) {
  HostPtr host = must_create({"prover=hosttest"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(2, {{0, "bad-proof"}});
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 2u);
  for (const Record& r : c.records) {
    if (r.partition == 0) {
      EXPECT_EQ(r.status, ZKP_ERR_UNSATISFIED_WITNESS);
      EXPECT_EQ(r.message.rfind("self-check failed: the proof does not verify against the key", 0), 0u) << r.message;
      EXPECT_TRUE(r.proof.empty());  // never delivered
    } else {
      EXPECT_EQ(r.status, ZKP_OK) << r.message;
      EXPECT_EQ(r.flags & ZKP_COMPLETION_SELF_CHECKED, ZKP_COMPLETION_SELF_CHECKED);
    }
  }
}

TEST(Pipeline, SelfCheckOffDeliversUncheckedProofs) {
  HostPtr host = must_create({"prover=hosttest", "self_check=false"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(1, {{0, "bad-proof"}});
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 1u);
  EXPECT_EQ(c.records[0].status, ZKP_OK);
  EXPECT_EQ(c.records[0].flags & ZKP_COMPLETION_SELF_CHECKED, 0u);
  EXPECT_EQ(c.records[0].proof.size(), 256u);
}

TEST(Pipeline, ProverReportingAnotherDeviceFailsThePartition) {
  HostPtr host = must_create({"prover=hosttest", "prover.devices=2", "prover.misreport_device=true"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(1);
  must_submit(host.get(), make_job(key, parts, &c, 0));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 1u);
  EXPECT_EQ(c.records[0].status, ZKP_ERR_INTERNAL);
  EXPECT_EQ(c.records[0].message,
            "prover 'hosttest' reports the proof ran on device 1, but worker " +
                std::to_string(c.records[0].worker) + " of device 0 asked for it");
}

// A caller synthesis of 4 rows and 2 variables, every value in `zeros` (4 scalars, all zero).
zkp_synthesized_t zero_synthesized(const std::vector<uint8_t>& zeros) {
  zkp_synthesized_t inputs{};
  inputs.header = ZKP_HEADER_INIT(zkp_synthesized_t);
  inputs.a = inputs.b = inputs.c = zeros.data();
  inputs.abc_length = 4;
  inputs.assignment = zeros.data();
  inputs.assignment_length = 2;
  return inputs;
}

TEST(Pipeline, CallerSynthesizedPartitionsSkipSynthesis) {
  // refuse_synthesis: any call to synthesize fails; caller-synthesized input succeeds.
  HostPtr host = must_create({"prover=hosttest", "prover.refuse_synthesis=true", "pacer=recorder"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  const std::vector<uint8_t> scalars(4 * 32, 0);
  const zkp_synthesized_t inputs = zero_synthesized(scalars);
  Collector c;
  Partitions parts(3);
  parts.list[0].synthesized = &inputs;
  parts.list[2].synthesized = &inputs;
  must_submit(host.get(), make_job(key, parts, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 3u);
  for (const Record& r : c.records) {
    if (r.partition == 1) {
      EXPECT_EQ(r.status, ZKP_ERR_UNSUPPORTED);
      EXPECT_EQ(r.message, "synthesis: hosttest: synthesis refused (refuse_synthesis=true)");
    } else {
      EXPECT_EQ(r.status, ZKP_OK) << r.message;
      EXPECT_EQ(r.synthesis_ns, 0u);
    }
  }
  const std::string line = pacer_status(host.get());
  EXPECT_EQ(status_field(line, "order_errors"), 0) << line;
  EXPECT_EQ(status_field(line, "mismatches"), 0) << line;
}

// zkp_job_t.on_input_released: once per partition, before its on_partition; early (on the
// device's worker thread) for a caller-synthesized partition on a prover with prove_wait, on
// the completion thread otherwise.
struct ReleaseLog : Collector {
  struct Event {
    bool released;  // else: its completion
    uint32_t partition;
    std::thread::id thread;
  };
  std::vector<Event> events;

  static void on_released(void* self, uint32_t partition) {
    auto& me = *static_cast<ReleaseLog*>(self);
    std::lock_guard lock(me.mu);
    me.events.push_back({true, partition, std::this_thread::get_id()});
  }
  static void on_completion(void* self, const zkp_completion_t* c) {
    auto& me = *static_cast<ReleaseLog*>(self);
    {
      std::lock_guard lock(me.mu);
      me.events.push_back({false, c->partition, std::this_thread::get_id()});
    }
    Collector::on_partition(self, c);
  }
};

// Runs 4 partitions (0 and 2 caller-synthesized) through `options`' prover; the log.
void run_release_job(const std::vector<std::string>& options, ReleaseLog& log) {
  HostPtr host = must_create(options);
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  const std::vector<uint8_t> scalars(4 * 32, 0);
  const zkp_synthesized_t inputs = zero_synthesized(scalars);
  Partitions parts(4);
  parts.list[0].synthesized = &inputs;
  parts.list[2].synthesized = &inputs;
  zkp_job_t job = make_job(key, parts, &log);
  job.on_partition = &ReleaseLog::on_completion;
  job.on_input_released = &ReleaseLog::on_released;
  must_submit(host.get(), job);
  must_wait(host.get());
}

// For each partition: the thread its release ran on, checked to come once and before its
// completion; and the completion thread.
std::map<uint32_t, std::thread::id> release_threads(const ReleaseLog& log, std::thread::id& completion_thread) {
  std::map<uint32_t, std::thread::id> released;
  for (const ReleaseLog::Event& e : log.events) {
    if (e.released) {
      EXPECT_FALSE(released.contains(e.partition)) << "partition " << e.partition << " released twice";
      released[e.partition] = e.thread;
    } else {
      EXPECT_TRUE(released.contains(e.partition)) << "partition " << e.partition << " completed before its release";
      completion_thread = e.thread;
    }
  }
  EXPECT_EQ(released.size(), 4u);
  return released;
}

TEST(InputRelease, EarlyOnTheWorkerForCallerSynthesizedPartitionsOfAProverThatWaits) {
  ReleaseLog log;
  run_release_job({"prover=sim", "prover.gpu_ms=5", "pacer=greedy"}, log);  // sim has prove_wait
  ASSERT_EQ(log.records.size(), 4u);
  for (const Record& r : log.records) EXPECT_EQ(r.status, ZKP_OK) << r.message;
  std::thread::id completion_thread;
  const auto released = release_threads(log, completion_thread);
  ASSERT_EQ(released.size(), 4u);
  EXPECT_NE(released.at(0), completion_thread);  // a worker's thread: after prove_wait
  EXPECT_NE(released.at(2), completion_thread);
  EXPECT_EQ(released.at(1), completion_thread);  // a witness partition: at its completion
  EXPECT_EQ(released.at(3), completion_thread);
}

TEST(InputRelease, AtCompletionOnAProverWithoutProveWait) {
  ReleaseLog log;
  run_release_job({"prover=hosttest", "pacer=greedy"}, log);
  ASSERT_EQ(log.records.size(), 4u);
  std::thread::id completion_thread;
  for (const auto& [partition, thread] : release_threads(log, completion_thread)) {
    EXPECT_EQ(thread, completion_thread) << "partition " << partition;
  }
}

TEST(InputRelease, AnOlderCallersJobHasNoSuchCallback) {
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=1"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(2);
  zkp_job_t job = make_job(key, parts, &c);
  // Garbage where the field would be, beyond the struct_size an older caller sets: never read.
  job.on_input_released = reinterpret_cast<zkp_input_callback_t>(uintptr_t{1});
  job.header.struct_size = static_cast<uint32_t>(offsetof(zkp_job_t, on_input_released));
  must_submit(host.get(), job);
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 2u);
  job.header.struct_size = static_cast<uint32_t>(offsetof(zkp_job_t, on_input_released)) - 1;
  zkp_error_t err = make_error();
  uint64_t id = 0;
  EXPECT_EQ(zkp_host_submit(host.get(), &job, &id, &err), ZKP_ERR_ABI_MISMATCH) << err.message;
}

// -- submit validation --------------------------------------------------------------

TEST(Submit, GpuIndexBeyondDeviceCount) {
  HostPtr host = must_create({"prover=sim", "prover.devices=2"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Partitions parts(1);
  zkp_job_t job = make_job(key, parts, nullptr, 2);
  zkp_error_t err = make_error();
  uint64_t id = 0;
  EXPECT_EQ(zkp_host_submit(host.get(), &job, &id, &err), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(err.message,
               "gpu_index 2 is out of range: prover 'sim (simulated device: produces no proofs)' has 2 device(s) "
               "(use 0..1, or -1 for any)");
  EXPECT_EQ(id, 0u);
  EXPECT_EQ(stats(host.get()).jobs_submitted, 0u);  // nothing was submitted
}

TEST(Submit, UnknownKeyNoPartitionsAndShortStruct) {
  HostPtr host = must_create({"prover=sim"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Partitions parts(1);
  zkp_error_t err = make_error();
  uint64_t id = 0;

  zkp_job_t job = make_job(key + 100, parts, nullptr);
  EXPECT_EQ(zkp_host_submit(host.get(), &job, &id, &err), ZKP_ERR_NOT_FOUND);
  EXPECT_STREQ(err.message, ("key id " + std::to_string(key + 100) +
                             " is unknown (load it with zkp_host_load_key)").c_str());

  job = make_job(key, parts, nullptr);
  job.partition_count = 0;
  EXPECT_EQ(zkp_host_submit(host.get(), &job, &id, &err), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(err.message, "the job has no partitions (partition_count is 0)");

  job = make_job(key, parts, nullptr);
  job.header.struct_size = 8;
  EXPECT_EQ(zkp_host_submit(host.get(), &job, &id, &err), ZKP_ERR_ABI_MISMATCH);
  EXPECT_STREQ(err.message, ("zkp_job_t has struct_size 8, expected at least " + std::to_string(offsetof(zkp_job_t, on_input_released))).c_str());

  job = make_job(key, parts, nullptr);
  parts.list[0].witness.header.struct_size = 4;
  EXPECT_EQ(zkp_host_submit(host.get(), &job, &id, &err), ZKP_ERR_ABI_MISMATCH);
  EXPECT_STREQ(err.message, ("zkp_witness_t (partition 0) has struct_size 4, expected at least " +
                             std::to_string(sizeof(zkp_witness_t))).c_str());
  EXPECT_EQ(stats(host.get()).jobs_submitted, 0u);
}

TEST(Submit, AfterShutdownIsCancelled) {
  HostPtr host = must_create({"prover=sim"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  zkp_error_t err = make_error();
  ASSERT_EQ(zkp_host_shutdown(host.get(), ZKP_SHUTDOWN_DRAIN, &err), ZKP_OK) << err.message;
  Partitions parts(1);
  zkp_job_t job = make_job(key, parts, nullptr);
  uint64_t id = 0;
  EXPECT_EQ(zkp_host_submit(host.get(), &job, &id, &err), ZKP_ERR_CANCELLED);
  EXPECT_STREQ(err.message, "the host is shut down: it accepts no new jobs");
  EXPECT_EQ(zkp_host_shutdown(host.get(), ZKP_SHUTDOWN_DRAIN, &err), ZKP_OK);  // again: a no-op
}

TEST(Keys, PartitionLargerThanTheBudgetIsRefusedAtLoad) {
  HostPtr host = must_create({"prover=sim", "prover.partition_bytes=2097152", "budget=1MiB"});
  ASSERT_TRUE(host);
  zkp_key_source_t source{};
  source.header = ZKP_HEADER_INIT(zkp_key_source_t);
  zkp_error_t err = make_error();
  uint64_t key = 0;
  EXPECT_EQ(zkp_host_load_key(host.get(), &source, &key, &err), ZKP_ERR_BUDGET_EXHAUSTED);
  EXPECT_STREQ(err.message, "the key: one partition needs 2097152 bytes (2.0 MiB) but the memory budget is "
                            "1048576 bytes (1.0 MiB); raise `budget`");
  EXPECT_EQ(key, 0u);
}

TEST(Keys, InfoAndIdsNeverZero) {
  HostPtr host = must_create({"prover=hosttest", "prover.partition_bytes=4096"});
  ASSERT_TRUE(host);
  const uint64_t k1 = must_load_key(host.get());
  const uint64_t k2 = must_load_key(host.get());
  EXPECT_NE(k1, 0u);
  EXPECT_NE(k1, k2);
  zkp_key_info_t info{};
  info.header = ZKP_HEADER_INIT(zkp_key_info_t);
  zkp_error_t err = make_error();
  ASSERT_EQ(zkp_host_key_info(host.get(), k2, &info, &err), ZKP_OK) << err.message;
  EXPECT_EQ(info.synthesis_bytes, 4096u);
  EXPECT_EQ(info.curve, ZKP_CURVE_BN254);
  EXPECT_EQ(info.header.struct_size, sizeof(zkp_key_info_t));
  EXPECT_EQ(zkp_host_key_info(host.get(), 77, &info, &err), ZKP_ERR_NOT_FOUND);
}

// -- cancel, wait, shutdown ---------------------------------------------------------

TEST(Cancel, UnknownJob) {
  HostPtr host = must_create({"prover=sim"});
  ASSERT_TRUE(host);
  zkp_error_t err = make_error();
  EXPECT_EQ(zkp_host_cancel(host.get(), 999, &err), ZKP_ERR_NOT_FOUND);
  EXPECT_STREQ(err.message, "job 999 is unknown or has already finished");
}

TEST(Cancel, PendingPartitionsCompleteCancelledAtOnce) {
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=1", "pacer=recorder", "pacer.hold_ms=60000"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(4);
  const uint64_t job = must_submit(host.get(), make_job(key, parts, &c));
  zkp_error_t err = make_error();
  ASSERT_EQ(zkp_host_cancel(host.get(), job, &err), ZKP_OK) << err.message;
  must_wait(host.get(), job);  // long before the 60 s hold ends
  ASSERT_EQ(c.records.size(), 4u);
  for (const Record& r : c.records) {
    EXPECT_EQ(r.status, ZKP_ERR_CANCELLED);
    EXPECT_EQ(r.message, "job " + std::to_string(job) + " was cancelled before partition " +
                             std::to_string(r.partition) + " of job " + std::to_string(job) + " was admitted");
    EXPECT_EQ(r.gpu_index, -1);
  }
  ASSERT_EQ(c.jobs.size(), 1u);
  EXPECT_EQ(c.jobs[0].status, ZKP_ERR_CANCELLED);
  EXPECT_EQ(c.jobs[0].cancelled, 4u);
  EXPECT_EQ(c.jobs[0].failed, 0u);
  EXPECT_EQ(zkp_host_cancel(host.get(), job, &err), ZKP_ERR_NOT_FOUND);  // finished
}

TEST(Cancel, QueuedAreDroppedThoseOnADeviceFinish) {
  // One worker, gpu 100 ms, budget 2 partitions: one partition is on the device, one
  // waits in the GPU queue, the rest are pending when the job is cancelled. Without
  // worker_overlap, or the worker would take the queued one behind the first (that case:
  // worker_overlap_test.cpp, CancelFinishesBothHeldOpsAndDropsTheQueue).
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=100", "budget=2MiB", "workers_per_device=1",
                              "worker_overlap=false", "pacer=recorder"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(5);
  const uint64_t job = must_submit(host.get(), make_job(key, parts, &c));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    const zkp_host_stats_t s = stats(host.get());
    if ((s.proving == 1 && s.waiting == 1) || std::chrono::steady_clock::now() > deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  zkp_error_t err = make_error();
  ASSERT_EQ(zkp_host_cancel(host.get(), job, &err), ZKP_OK) << err.message;
  must_wait(host.get(), job);
  ASSERT_EQ(c.records.size(), 5u);
  const std::string prefix = "job " + std::to_string(job) + " was cancelled ";
  uint64_t ok = 0, dropped_from_queue = 0;
  for (const Record& r : c.records) {
    if (r.status == ZKP_OK) {
      ++ok;
      EXPECT_EQ(r.gpu_index, 0);
      continue;
    }
    EXPECT_EQ(r.status, ZKP_ERR_CANCELLED) << r.message;
    EXPECT_EQ(r.gpu_index, -1);
    const std::string where = " of job " + std::to_string(job);
    if (r.message == prefix + "while partition " + std::to_string(r.partition) + where + " waited for a GPU") {
      ++dropped_from_queue;
    } else {
      EXPECT_EQ(r.message, prefix + "before partition " + std::to_string(r.partition) + where + " was admitted");
    }
  }
  // Those that reached the device finished; the queued one never reached it.
  EXPECT_GE(ok, 1u);
  EXPECT_EQ(device_info(host.get(), 0).partitions_started, ok);
  EXPECT_EQ(dropped_from_queue, 1u);
  EXPECT_EQ(stats(host.get()).budget_used_bytes, 0u);
  EXPECT_EQ(status_field(pacer_status(host.get()), "order_errors"), 0);
}

TEST(Wait, TimesOutWithoutLosingWork) {
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=1", "pacer=recorder", "pacer.hold_ms=300"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(2);
  const uint64_t job = must_submit(host.get(), make_job(key, parts, &c));
  zkp_error_t err = make_error();
  EXPECT_EQ(zkp_host_wait(host.get(), job, 10, &err), ZKP_ERR_TIMEOUT);
  EXPECT_STREQ(err.message, ("job " + std::to_string(job) + " did not finish within 10 ms").c_str());
  EXPECT_EQ(zkp_host_wait(host.get(), job + 1, 10, &err), ZKP_ERR_NOT_FOUND);
  must_wait(host.get(), job);
  EXPECT_EQ(c.records.size(), 2u);
}

TEST(Shutdown, DrainFinishesEverySubmittedPartition) {
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=2", "prover.devices=2"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions a(5), b(3);
  must_submit(host.get(), make_job(key, a, &c));
  must_submit(host.get(), make_job(key, b, &c));
  zkp_error_t err = make_error();
  ASSERT_EQ(zkp_host_shutdown(host.get(), ZKP_SHUTDOWN_DRAIN, &err), ZKP_OK) << err.message;
  EXPECT_EQ(c.records.size(), 8u);
  for (const Record& r : c.records) EXPECT_EQ(r.status, ZKP_OK) << r.message;
  EXPECT_EQ(c.jobs.size(), 2u);
}

TEST(Shutdown, CancelCancelsPendingWork) {
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=1", "pacer=recorder", "pacer.hold_ms=60000"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(3);
  must_submit(host.get(), make_job(key, parts, &c));
  zkp_error_t err = make_error();
  ASSERT_EQ(zkp_host_shutdown(host.get(), ZKP_SHUTDOWN_CANCEL, &err), ZKP_OK) << err.message;
  ASSERT_EQ(c.records.size(), 3u);
  for (const Record& r : c.records) EXPECT_EQ(r.status, ZKP_ERR_CANCELLED);
}

TEST(Shutdown, DestroyWithWorkInFlightDrains) {
  Collector c;
  Partitions parts(4);
  {
    HostPtr host = must_create({"prover=sim", "prover.gpu_ms=2"});
    ASSERT_TRUE(host);
    const uint64_t key = must_load_key(host.get());
    must_submit(host.get(), make_job(key, parts, &c));
    zkp_host_destroy(host.release(), ZKP_SHUTDOWN_DRAIN);
  }
  EXPECT_EQ(c.records.size(), 4u);
}

// -- callbacks ------------------------------------------------------------------------

struct Reentrant {
  zkp_host_t* host = nullptr;
  Partitions more{1};
  uint64_t key = 0;
  std::vector<zkp_status_t> statuses;
  std::vector<std::string> messages;
  std::atomic<int> calls{0};

  static void on_partition(void* self, const zkp_completion_t*) {
    auto& me = *static_cast<Reentrant*>(self);
    if (me.calls.fetch_add(1) != 0) return;
    zkp_error_t err = make_error();
    me.statuses.push_back(zkp_host_wait(me.host, 0, 0, &err));
    me.messages.push_back(err.message);
    me.statuses.push_back(zkp_host_shutdown(me.host, ZKP_SHUTDOWN_DRAIN, &err));
    me.messages.push_back(err.message);
    zkp_host_destroy(me.host, ZKP_SHUTDOWN_DRAIN);  // refused: the host stays up
    zkp_host_stats_t s{};
    s.header = ZKP_HEADER_INIT(zkp_host_stats_t);
    me.statuses.push_back(zkp_host_stats(me.host, &s, &err));
    zkp_job_t job{};
    job.header = ZKP_HEADER_INIT(zkp_job_t);
    job.key_id = me.key;
    job.partitions = me.more.list.data();
    job.partition_count = 1;
    job.gpu_index = -1;
    uint64_t id = 0;
    me.statuses.push_back(zkp_host_submit(me.host, &job, &id, &err));  // allowed
  }
};

TEST(Callbacks, WaitShutdownDestroyFromTheCompletionThreadAreRefused) {
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=1"});
  ASSERT_TRUE(host);
  Reentrant r;
  r.host = host.get();
  r.key = must_load_key(host.get());
  Partitions parts(1);
  zkp_job_t job = make_job(r.key, parts, nullptr);
  job.on_partition = &Reentrant::on_partition;
  job.on_job = nullptr;
  job.user_data = &r;
  must_submit(host.get(), job);
  must_wait(host.get());
  must_wait(host.get());  // the job submitted from the callback
  ASSERT_EQ(r.statuses.size(), 4u);
  EXPECT_EQ(r.statuses[0], ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(r.messages[0], "zkp_host_wait was called from the completion thread (inside a callback): it would "
                           "wait for that callback to return");
  EXPECT_EQ(r.statuses[1], ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(r.messages[1], "zkp_host_shutdown was called from the completion thread (inside a callback): it "
                           "would wait for that callback to return");
  EXPECT_EQ(r.statuses[2], ZKP_OK);
  EXPECT_EQ(r.statuses[3], ZKP_OK);
  EXPECT_EQ(stats(host.get()).jobs_finished, 2u);
}

struct Thrower {
  std::mutex mu;
  std::vector<std::pair<uint64_t, uint32_t>> partitions;
  std::vector<uint64_t> jobs;

  static void on_partition(void* self, const zkp_completion_t* c) {
    auto& me = *static_cast<Thrower*>(self);
    {
      std::lock_guard lock(me.mu);
      me.partitions.emplace_back(c->job_id, c->partition);
    }
    if (c->partition == 0) throw std::runtime_error("callback bug");
  }
  static void on_job(void* self, const zkp_job_summary_t* s) {
    auto& me = *static_cast<Thrower*>(self);
    {
      std::lock_guard lock(me.mu);
      me.jobs.push_back(s->job_id);
    }
    throw 42;  // not even a std::exception
  }
};

TEST(Callbacks, AThrowingCallbackDoesNotTakeTheHostDown) {
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=1", "log_level=off"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Thrower t;
  Partitions parts(3);
  zkp_job_t job = make_job(key, parts, nullptr);
  job.on_partition = &Thrower::on_partition;
  job.on_job = &Thrower::on_job;
  job.user_data = &t;
  const uint64_t first = must_submit(host.get(), job);
  must_wait(host.get(), first);
  const uint64_t second = must_submit(host.get(), job);  // the host still works
  must_wait(host.get(), second);
  EXPECT_EQ(t.partitions.size(), 6u);
  EXPECT_EQ(t.jobs, (std::vector<uint64_t>{first, second}));
  EXPECT_EQ(stats(host.get()).partitions_succeeded, 6u);
}

TEST(Callbacks, RunOneAtATimeInCompletionOrderThenTheJobCallback) {
  HostPtr host = must_create({"prover=sim", "prover.gpu_ms=1", "prover.devices=2", "workers_per_device=3"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  struct Order {
    std::atomic<int> inside{0};
    std::atomic<int> overlaps{0};
    std::vector<int> events;  // partition index, or -1 for the job callback
    static void on_partition(void* self, const zkp_completion_t* c) {
      auto& me = *static_cast<Order*>(self);
      if (me.inside.fetch_add(1) != 0) me.overlaps.fetch_add(1);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      me.events.push_back(static_cast<int>(c->partition));
      me.inside.fetch_sub(1);
    }
    static void on_job(void* self, const zkp_job_summary_t*) {
      static_cast<Order*>(self)->events.push_back(-1);
    }
  } order;
  Partitions parts(8);
  zkp_job_t job = make_job(key, parts, nullptr);
  job.on_partition = &Order::on_partition;
  job.on_job = &Order::on_job;
  job.user_data = &order;
  must_submit(host.get(), job);
  must_wait(host.get());
  EXPECT_EQ(order.overlaps.load(), 0);
  ASSERT_EQ(order.events.size(), 9u);
  EXPECT_EQ(order.events.back(), -1);
  EXPECT_EQ(std::count(order.events.begin(), order.events.end(), -1), 1);
}

// -- concurrency ------------------------------------------------------------------------

TEST(Stress, ConcurrentSubmitCancelAndShutdown) {
  // Callers on three threads submit and cancel while a fourth shuts the host down. Every
  // accepted job ends with exactly one job callback before shutdown returns; every
  // refused submit says the host is shut down. (Run under TSan in CI.)
  HostPtr host = must_create({"prover=sim", "prover.devices=2", "prover.gpu_ms=1", "budget=4MiB"});
  ASSERT_TRUE(host);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions parts(3);
  constexpr int kThreads = 3;
  constexpr int kMaxJobsPerThread = 5000;  // a bound; each thread stops at its first refusal
  std::mutex ids_mu;
  std::vector<uint64_t> accepted;
  std::atomic<int> refused{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < kThreads; ++t) {
    callers.emplace_back([&] {
      for (int i = 0; i < kMaxJobsPerThread; ++i) {
        const zkp_job_t job = make_job(key, parts, &c);
        zkp_error_t err = make_error();
        uint64_t id = 0;
        const zkp_status_t status = zkp_host_submit(host.get(), &job, &id, &err);
        if (status != ZKP_OK) {
          EXPECT_EQ(status, ZKP_ERR_CANCELLED) << err.message;
          EXPECT_STREQ(err.message, "the host is shut down: it accepts no new jobs");
          refused.fetch_add(1);
          return;
        }
        {
          std::lock_guard lock(ids_mu);
          accepted.push_back(id);
        }
        if (i % 2 == 1) {
          const zkp_status_t cancelled = zkp_host_cancel(host.get(), id, &err);
          EXPECT_TRUE(cancelled == ZKP_OK || cancelled == ZKP_ERR_NOT_FOUND) << err.message;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  zkp_error_t err = make_error();
  EXPECT_EQ(zkp_host_shutdown(host.get(), ZKP_SHUTDOWN_CANCEL, &err), ZKP_OK) << err.message;
  for (std::thread& t : callers) t.join();

  std::lock_guard lock(c.mu);
  EXPECT_EQ(refused.load(), kThreads);  // every thread ran into the shutdown
  EXPECT_GT(accepted.size(), 0u);
  EXPECT_EQ(c.jobs.size(), accepted.size());
  EXPECT_EQ(c.records.size(), accepted.size() * 3);
  std::set<uint64_t> finished;
  for (const zkp_job_summary_t& s : c.jobs) EXPECT_TRUE(finished.insert(s.job_id).second) << s.job_id;
  for (uint64_t id : accepted) EXPECT_TRUE(finished.contains(id)) << id;
  const zkp_host_stats_t s = stats(host.get());
  EXPECT_EQ(s.jobs_finished, accepted.size());
  EXPECT_EQ(s.budget_used_bytes, 0u);
  EXPECT_LE(s.budget_peak_bytes, 4 * kMiB);
}

// -- creation ---------------------------------------------------------------------------

TEST(Create, PluginErrorsReachTheCaller) {
  Created c = create_host({"prover=nonexistent"});
  EXPECT_EQ(c.status, ZKP_ERR_NOT_FOUND);
  EXPECT_TRUE(c.message.starts_with("prover plugin 'nonexistent' not found: no libzkp_prover_nonexistent.so in "))
      << c.message;
  EXPECT_FALSE(c.host);

  c = create_host({"prover=sim", "prover.devics=2"});
  EXPECT_EQ(c.status, ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_NE(c.message.find("unknown option 'devics'"), std::string::npos) << c.message;

  c = create_host({"prover=sim", "pacer=initfail"});
  EXPECT_EQ(c.status, ZKP_ERR_NOT_FOUND);  // there is no *pacer* called initfail
  EXPECT_NE(c.message.find("libzkp_pacer_initfail.so"), std::string::npos) << c.message;

  c = create_host({"workers_per_device=-1"});
  EXPECT_EQ(c.status, ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(c.message, "override 'workers_per_device=-1': workers_per_device = '-1' is invalid: expected an "
                       "integer in [1, 1024]");

  c = create_host({}, "/nonexistent/zkpipe.ini");
  EXPECT_EQ(c.status, ZKP_ERR_NOT_FOUND);
  EXPECT_EQ(c.message, "config file '/nonexistent/zkpipe.ini' does not exist");
}

TEST(Create, NullArgumentsAndAbiVersion) {
  EXPECT_EQ(zkp_host_abi_version(), ZKP_ABI_VERSION);
  zkp_error_t err = make_error();
  EXPECT_EQ(zkp_host_create(nullptr, nullptr, 0, nullptr, &err), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(err.message, "out is NULL");
  EXPECT_EQ(zkp_host_cancel(nullptr, 1, &err), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_STREQ(err.message, "host is NULL");
  zkp_host_destroy(nullptr, ZKP_SHUTDOWN_DRAIN);  // a no-op
}

}  // namespace
}  // namespace zkp::test
