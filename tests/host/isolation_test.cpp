// isolation = process (issue 17, item 1), through the C API: each device of the `faulty` test
// prover (tests/host/plugins/faulty_prover.cpp, wrapping the cpu prover as two devices, real
// multiplier_bn128 proofs) runs in a zkpipe-device process of its own. What each test checks:
//   - the proofs are those of thread isolation, byte for byte (same randomness), for a .wtns
//     file, a .wtns buffer and a key loaded from memory;
//   - a device process that crashes (SIGSEGV, abort) or hangs (the partition watchdog kills
//     it) fails only its partition in flight: every other partition of every job is proved
//     and verifies; with device_retries the failed one is proved on the other device;
//   - the dead process is restarted with the key loaded before the crash, and a later job
//     pinned to that device is proved there (by a fresh process: its counters start again);
//   - a corrupt proof is caught by the self-check and costs no restart;
//   - zkp_host_stats_t.device_restarts counts the restarts (1 after a crash, 0 after none);
//   - a missing zkpipe-device fails zkp_host_create with a message that names it.
// fault_once makes each fault happen once among the processes of a test, so the restarted
// process does not fault again.
#include "isolation_support.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace zkp::test {
namespace {

using namespace isolation;
namespace fs = std::filesystem;

// After a crash of device 1's process: a job pinned there is proved by a fresh process (its
// counters start again from 0) with the key loaded before the crash.
void expect_device_1_back(zkp_host_t* host, uint64_t key) {
  const std::vector<Record> later = prove(host, key, 1, 2, 1);
  ASSERT_EQ(later.size(), 2u);
  EXPECT_EQ(expect_all_proved(host, key, later, 1), 2u);
  EXPECT_EQ(device_info(host, 1).partitions_started, 2u) << "device 1's process was not restarted";
}

TEST(Isolation, ProofsEqualThreadIsolationsByteForByte) {
  std::vector<uint8_t> randomness(4 * 64);
  for (size_t i = 0; i < randomness.size(); ++i) randomness[i] = static_cast<uint8_t>(i % 61 + 1);
  const std::vector<uint8_t> key_bytes = file_bytes(kCircuit / "circuit.zkey");
  std::vector<std::vector<uint8_t>> proofs[2];
  for (int mode = 0; mode < 2; ++mode) {
    HostPtr host = isolated_host({}, mode == 0 ? "thread" : "process");
    const uint64_t from_file = load_key(host.get());
    const uint64_t from_memory = load_key(host.get(), &key_bytes);
    for (const auto& [key, buffer] : {std::pair{from_file, false}, std::pair{from_memory, true}}) {
      std::vector<Record> records = prove(host.get(), key, 1, 4, -1, buffer, &randomness);
      ASSERT_EQ(records.size(), 4u);
      std::sort(records.begin(), records.end(), [](const Record& a, const Record& b) { return a.partition < b.partition; });
      for (const Record& r : records) {
        EXPECT_EQ(r.status, ZKP_OK) << r.message;
        EXPECT_NE(r.flags & ZKP_COMPLETION_SELF_CHECKED, 0u);
        proofs[mode].push_back(r.proof);
      }
    }
  }
  ASSERT_EQ(proofs[0].size(), 8u);
  EXPECT_EQ(proofs[0], proofs[1]);
  EXPECT_NE(proofs[0][0], proofs[0][1]);  // each partition its own r, s
}

TEST(Isolation, ASegfaultFailsOnlyItsPartitionAndTheDeviceComesBack) {
  FaultOnce once;
  HostPtr host = isolated_host({"prover.fault=segv", "prover.fault_device=1", "prover.fault_at=2",
                                "prover.fault_once=" + once.path.string(), "device_retries=0",
                                // one op in flight per device, so the crash takes exactly one partition
                                "worker_overlap=false"});
  const uint64_t key = load_key(host.get());
  const std::vector<Record> records = prove(host.get(), key, 3, 2);
  ASSERT_EQ(records.size(), 6u);
  const Record r = only_failure(host.get(), key, records);
  EXPECT_EQ(r.status, ZKP_ERR_DEVICE);
  EXPECT_EQ(r.gpu_index, 1);
  EXPECT_NE(r.message.find("zkpipe-device process"), std::string::npos) << r.message;
  EXPECT_TRUE(fs::exists(once.path)) << "the fault never happened";
  expect_device_1_back(host.get(), key);
  EXPECT_EQ(stats(host.get()).device_restarts, 1u);
}

TEST(Isolation, AnAbortIsRetriedOnTheOtherDeviceAndTheDeviceComesBack) {
  FaultOnce once;
  HostPtr host = isolated_host({"prover.fault=abort", "prover.fault_device=1", "prover.fault_at=1",
                                "prover.fault_once=" + once.path.string(), "device_retries=1"});
  const uint64_t key = load_key(host.get());
  const std::vector<Record> records = prove(host.get(), key, 2, 3);
  ASSERT_EQ(records.size(), 6u);
  expect_all_proved(host.get(), key, records, 0);
  EXPECT_TRUE(fs::exists(once.path)) << "the fault never happened";
  expect_device_1_back(host.get(), key);
}

TEST(Isolation, AHungDeviceProcessIsKilledByTheWatchdogAndRestarted) {
  FaultOnce once;
  HostPtr host = isolated_host({"prover.fault=hang_finish", "prover.fault_device=1", "prover.fault_at=1",
                                "prover.hang_ms=0", "prover.fault_once=" + once.path.string(),
                                "watchdog_floor_ms=1000", "device_retries=1"});
  const uint64_t key = load_key(host.get());
  const std::vector<Record> records = prove(host.get(), key, 2, 2);
  ASSERT_EQ(records.size(), 4u);
  expect_all_proved(host.get(), key, records, 0);
  EXPECT_TRUE(fs::exists(once.path)) << "the fault never happened";
  expect_device_1_back(host.get(), key);
}

TEST(Isolation, ACorruptProofFailsTheSelfCheckWithoutARestart) {
  HostPtr host = isolated_host({"prover.fault=corrupt", "prover.fault_device=1", "prover.fault_at=1"});
  const uint64_t key = load_key(host.get());
  const std::vector<Record> records = prove(host.get(), key, 2, 2);
  ASSERT_EQ(records.size(), 4u);
  const Record r = only_failure(host.get(), key, records);
  EXPECT_TRUE(r.proof.empty());
  EXPECT_NE(r.message.find("self-check"), std::string::npos) << r.message;
  const uint64_t before = device_info(host.get(), 1).partitions_started;
  const std::vector<Record> later = prove(host.get(), key, 1, 1, 1);
  ASSERT_EQ(later.size(), 1u);
  // The same process: its count goes on (a corrupt proof is no crash).
  EXPECT_EQ(device_info(host.get(), 1).partitions_started, before + 1);
  EXPECT_EQ(stats(host.get()).device_restarts, 0u);
}

TEST(Isolation, AMissingDeviceExecutableFailsHostCreation) {
  Created c = create_host({"prover=faulty", "prover.inner=" + kLibDir + "/libzkp_prover_cpu.so", "isolation=process",
                           "isolation_executable=/nonexistent/zkpipe-device"});
  EXPECT_EQ(c.status, ZKP_ERR_NOT_FOUND);
  EXPECT_EQ(c.host, nullptr);
  EXPECT_NE(c.message.find("/nonexistent/zkpipe-device"), std::string::npos) << c.message;
}

TEST(Isolation, APluginThatRefusesItsOptionsFailsHostCreationWithItsMessage) {
  Created c = create_host({"prover=faulty", "prover.inner=" + kLibDir + "/libzkp_prover_cpu.so", "isolation=process",
                           "prover.fault=sometimes"});
  EXPECT_EQ(c.status, ZKP_ERR_INVALID_ARGUMENT) << c.message;
  EXPECT_EQ(c.host, nullptr);
  EXPECT_NE(c.message.find("sometimes"), std::string::npos) << c.message;
}

}  // namespace
}  // namespace zkp::test
