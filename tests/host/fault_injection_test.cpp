// Faults injected through the `faulty` test prover (tests/host/plugins/faulty_prover.cpp)
// into a host with thread isolation, through the C API (issue 17): what a host whose
// provers run on its own threads survives.
//   - a corrupt proof is caught by the host's self-check: its partition fails, every other
//     partition of every job is proved and verifies;
//   - a device error is retried on another device (device_retries), or, with no retries,
//     fails its partition only;
//   - a partition that hangs on a device is declared hung by the partition watchdog: its
//     device is quarantined and the partition is proved on another device (or fails with
//     ZKP_ERR_DEVICE when no retry is allowed).
//   - a device lost for good (ZKP_ERR_DEVICE_LOST, sticky: every later call there fails too)
//     is quarantined for ever: the rest is proved on the other device, a job pinned to the
//     lost one fails with that status, and nothing is restarted (no device process).
// Real proofs come from the cpu prover (multiplier_bn128) wrapped as two virtual devices;
// the watchdog tests wrap the sim prover, which proves nothing but takes its time.
#include "host_test_support.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace zkp::test {
namespace {

const std::filesystem::path kCircuit = std::filesystem::path(ZKPIPE_SOURCE_DIR) / "samples/circuits/multiplier_bn128";
const std::string kLibDir = ZKPIPE_BUILD_LIB_DIR;

// A host on the faulty prover wrapping `inner` (cpu or sim) as two devices, one worker each.
HostPtr faulty_host(const std::string& inner, std::vector<std::string> more) {
  std::vector<std::string> o{"prover=faulty", "prover.inner=" + kLibDir + "/libzkp_prover_" + inner + ".so",
                             "prover.devices=2", "workers_per_device=1", "synthesis_threads=2"};
  o.insert(o.end(), more.begin(), more.end());
  return must_create(o);
}

uint64_t load_multiplier(zkp_host_t* host) {
  const std::string path = (kCircuit / "circuit.zkey").string();
  zkp_key_source_t source{};
  source.header = ZKP_HEADER_INIT(zkp_key_source_t);
  source.path = path.c_str();
  zkp_error_t err = make_error();
  uint64_t key = 0;
  EXPECT_EQ(zkp_host_load_key(host, &source, &key, &err), ZKP_OK) << err.message;
  return key;
}

// `n` partitions, each the multiplier's witness file.
struct WitnessFiles {
  std::string path = (kCircuit / "witness.wtns").string();
  std::vector<zkp_partition_t> list;
  explicit WitnessFiles(uint32_t n) : list(n) {
    for (zkp_partition_t& p : list) {
      p = zkp_partition_t{};
      p.header = ZKP_HEADER_INIT(zkp_partition_t);
      p.witness.header = ZKP_HEADER_INIT(zkp_witness_t);
      p.witness.kind = ZKP_WITNESS_WTNS_FILE;
      p.witness.path = path.c_str();
    }
  }
  WitnessFiles(const WitnessFiles&) = delete;
  WitnessFiles& operator=(const WitnessFiles&) = delete;
};

zkp_job_t job_of(uint64_t key, const WitnessFiles& parts, Collector* collector) {
  zkp_job_t job{};
  job.header = ZKP_HEADER_INIT(zkp_job_t);
  job.key_id = key;
  job.partitions = parts.list.data();
  job.partition_count = static_cast<uint32_t>(parts.list.size());
  job.gpu_index = -1;
  job.on_partition = &Collector::on_partition;
  job.on_job = &Collector::on_job;
  job.user_data = collector;
  return job;
}

// Proves `jobs` jobs of `per_job` partitions and returns every record.
std::vector<Record> prove_jobs(zkp_host_t* host, uint64_t key, uint32_t jobs, uint32_t per_job) {
  Collector collector;
  std::vector<std::unique_ptr<WitnessFiles>> parts;
  for (uint32_t j = 0; j < jobs; ++j) {
    parts.push_back(std::make_unique<WitnessFiles>(per_job));
    must_submit(host, job_of(key, *parts.back(), &collector));
  }
  must_wait(host);
  std::lock_guard lock(collector.mu);
  EXPECT_EQ(collector.jobs.size(), jobs);
  return collector.records;
}

TEST(FaultInjection, ACorruptProofFailsItsPartitionAndEveryOtherProofVerifies) {
  HostPtr host = faulty_host("cpu", {"prover.fault=corrupt", "prover.fault_at=3"});
  const uint64_t key = load_multiplier(host.get());
  const std::vector<Record> records = prove_jobs(host.get(), key, 3, 2);
  ASSERT_EQ(records.size(), 6u);
  const Record r = only_failure(host.get(), key, records, ZKP_COMPLETION_SELF_CHECKED);
  EXPECT_TRUE(r.proof.empty());  // never delivered
  EXPECT_NE(r.message.find("self-check"), std::string::npos) << r.message;
}

TEST(FaultInjection, ADeviceErrorIsRetriedOnTheOtherDevice) {
  HostPtr host = faulty_host("cpu", {"prover.fault=device_error", "prover.fault_device=0", "device_retries=1"});
  const uint64_t key = load_multiplier(host.get());
  const std::vector<Record> records = prove_jobs(host.get(), key, 2, 3);
  ASSERT_EQ(records.size(), 6u);
  size_t on_device_1 = 0;
  for (const Record& r : records) {
    EXPECT_EQ(r.status, ZKP_OK) << r.message;
    EXPECT_TRUE(multiplier_proof_verifies(host.get(), key, r.proof));
    if (r.gpu_index == 1) ++on_device_1;
  }
  // Device 0 failed once and was quarantined: at most the partition its worker had started
  // behind the failed one (worker_overlap) was proved there.
  EXPECT_GE(on_device_1, 5u);
}

TEST(FaultInjection, WithoutRetriesADeviceErrorFailsOnlyItsPartition) {
  HostPtr host = faulty_host("cpu", {"prover.fault=device_error", "prover.fault_device=0", "device_retries=0"});
  const uint64_t key = load_multiplier(host.get());
  const std::vector<Record> records = prove_jobs(host.get(), key, 2, 3);
  ASSERT_EQ(records.size(), 6u);
  const Record r = only_failure(host.get(), key, records);
  EXPECT_EQ(r.status, ZKP_ERR_DEVICE);
  EXPECT_EQ(r.gpu_index, 0);
  EXPECT_NE(r.message.find("injected device error"), std::string::npos) << r.message;
}

TEST(FaultInjection, ALostDeviceIsQuarantinedAndTheOtherDeviceProvesTheRest) {
  HostPtr host = faulty_host("cpu", {"prover.fault=device_lost", "prover.fault_device=0", "device_retries=1"});
  const uint64_t key = load_multiplier(host.get());
  const std::vector<Record> records = prove_jobs(host.get(), key, 2, 3);
  ASSERT_EQ(records.size(), 6u);
  size_t on_device_1 = 0;
  for (const Record& r : records) {
    EXPECT_EQ(r.status, ZKP_OK) << r.message;
    EXPECT_TRUE(multiplier_proof_verifies(host.get(), key, r.proof));
    if (r.gpu_index == 1) ++on_device_1;
  }
  EXPECT_GE(on_device_1, 5u);  // at most the partition device 0 had overlapped with the lost one
  // With thread isolation nothing brings it back: later unpinned work goes to device 1 only...
  const std::vector<Record> later = prove_jobs(host.get(), key, 1, 4);
  ASSERT_EQ(later.size(), 4u);
  for (const Record& r : later) {
    EXPECT_EQ(r.status, ZKP_OK) << r.message;
    EXPECT_EQ(r.gpu_index, 1) << "a lost device took unpinned work";
  }
  // ...and a job pinned to the lost device fails with its status, saying why.
  Collector pinned;
  WitnessFiles one(1);
  zkp_job_t job = job_of(key, one, &pinned);
  job.gpu_index = 0;
  must_submit(host.get(), job);
  must_wait(host.get());
  ASSERT_EQ(pinned.records.size(), 1u);
  EXPECT_EQ(pinned.records[0].status, ZKP_ERR_DEVICE_LOST);
  EXPECT_NE(pinned.records[0].message.find("lost earlier"), std::string::npos) << pinned.records[0].message;
  EXPECT_EQ(stats(host.get()).device_restarts, 0u);
  EXPECT_EQ(stats(host.get()).devices_quarantined, 1u);
  // devices_quarantined came after device_restarts: a caller whose struct ends there gets
  // device_restarts and nothing past it.
  const zkp_host_stats_t older = stats_ending_at(host.get(), offsetof(zkp_host_stats_t, devices_quarantined));
  EXPECT_EQ(older.device_count, 2u);
  EXPECT_EQ(older.device_restarts, 0u);
}

// The first partition goes to device 0 (both idle: the tie starts there) and hangs in
// prove_finish for 1.5 s; the watchdog's floor is 300 ms.
const std::vector<std::string> kHangOnDevice0{"prover.inner.gpu_ms=5", "prover.fault=hang_finish",
                                              "prover.fault_device=0", "prover.hang_ms=1500",
                                              "watchdog_floor_ms=300"};

TEST(FaultInjection, TheWatchdogMovesAHungPartitionToAnotherDevice) {
  HostPtr host = faulty_host("sim", kHangOnDevice0);
  const uint64_t key = must_load_key(host.get());
  Collector first;
  Partitions one(1);
  must_submit(host.get(), make_job(key, one, &first));
  must_wait(host.get());
  ASSERT_EQ(first.records.size(), 1u);
  EXPECT_EQ(first.records[0].status, ZKP_OK) << first.records[0].message;
  EXPECT_EQ(first.records[0].gpu_index, 1);  // retried there after the watchdog's verdict
  // Device 0 is quarantined: what follows runs on device 1.
  EXPECT_EQ(stats(host.get()).devices_quarantined, 1u);
  Collector after;
  Partitions four(4);
  must_submit(host.get(), make_job(key, four, &after));
  must_wait(host.get());
  ASSERT_EQ(after.records.size(), 4u);
  for (const Record& r : after.records) {
    EXPECT_EQ(r.status, ZKP_OK) << r.message;
    EXPECT_EQ(r.gpu_index, 1);
  }
}

TEST(FaultInjection, WithoutRetriesAHungPartitionFailsWithADeviceError) {
  std::vector<std::string> o = kHangOnDevice0;
  o.push_back("device_retries=0");
  HostPtr host = faulty_host("sim", o);
  const uint64_t key = must_load_key(host.get());
  Collector c;
  Partitions one(1);
  must_submit(host.get(), make_job(key, one, &c));
  must_wait(host.get());
  ASSERT_EQ(c.records.size(), 1u);
  EXPECT_EQ(c.records[0].status, ZKP_ERR_DEVICE);
  EXPECT_EQ(c.records[0].gpu_index, 0);
  EXPECT_NE(c.records[0].message.find("watchdog declared the partition hung"), std::string::npos)
      << c.records[0].message;
}

}  // namespace
}  // namespace zkp::test
