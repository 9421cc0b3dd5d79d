// ZKP_ERR_DEVICE_LOST under isolation = process (issue 17), through the C API: the `faulty`
// prover (two devices over the cpu prover) answers the Nth partition on device 1 with
// ZKP_ERR_DEVICE_LOST, and from then on every call on that device in that process, as a GPU
// whose context a sticky fault broke. What each test checks:
//   - the device process exits on it (no later call can succeed there) and is restarted:
//     zkp_host_stats_t.device_restarts counts it, and a job pinned to the device is proved by
//     the fresh process (its counters start again) with the key loaded before;
//   - without retries exactly that partition fails, with ZKP_ERR_DEVICE_LOST and the
//     prover's message; with device_retries=1 it is proved on device 0, and every other
//     partition of every job is proved and verifies;
//   - the device returns to service: after the restart, unpinned partitions go to it again
//     (thread isolation keeps a lost device quarantined: fault_injection_test.cpp);
//   - on a host of one device (a one-GPU box), a job pinned to it loses nothing with retries:
//     the partition waits for the restarted process and is proved there.
// fault_once makes the loss happen once among the processes of a test, so the restarted
// process finds its device healthy.
#include "isolation_support.hpp"

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace zkp::test {
namespace {

using namespace isolation;

// The restart is counted when the old process is reaped; the new one may still be starting.
void wait_for_restarts(zkp_host_t* host, uint64_t n) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (stats(host).device_restarts < n && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(stats(host).device_restarts, n);
}

// Device 1 serves again: a pinned job is proved by its fresh process (which waits for the
// start), then unpinned jobs reach it again, as they cannot while it is quarantined. Up to
// five jobs, as the release comes from the keeper thread just after the process is up.
void expect_device_1_in_service(zkp_host_t* host, uint64_t key) {
  const std::vector<Record> pinned = prove(host, key, 1, 2, 1);
  ASSERT_EQ(pinned.size(), 2u);
  EXPECT_EQ(expect_all_proved(host, key, pinned, 1), 2u);
  EXPECT_EQ(device_info(host, 1).partitions_started, 2u) << "device 1's process was not restarted";
  size_t on_1 = 0;
  for (int attempt = 0; attempt < 5 && on_1 == 0; ++attempt) {
    const std::vector<Record> unpinned = prove(host, key, 1, 4);
    ASSERT_EQ(unpinned.size(), 4u);
    on_1 = expect_all_proved(host, key, unpinned, 1);
  }
  EXPECT_GT(on_1, 0u) << "device 1 stayed quarantined after its restart";
  EXPECT_EQ(stats(host).devices_quarantined, 0u);
}

TEST(DeviceLost, WithoutRetriesOnlyItsPartitionFailsAndTheRestartedDeviceReturnsToService) {
  FaultOnce once;
  HostPtr host = isolated_host({"prover.fault=device_lost", "prover.fault_device=1", "prover.fault_at=2",
                                "prover.fault_once=" + once.path.string(), "device_retries=0",
                                // one op in flight per device, so the loss takes exactly one partition
                                "worker_overlap=false"});
  const uint64_t key = load_key(host.get());
  const std::vector<Record> records = prove(host.get(), key, 3, 2);
  ASSERT_EQ(records.size(), 6u);
  const Record r = only_failure(host.get(), key, records);
  EXPECT_EQ(r.status, ZKP_ERR_DEVICE_LOST);
  EXPECT_EQ(r.gpu_index, 1);
  EXPECT_NE(r.message.find("injected device loss on device 1"), std::string::npos) << r.message;
  EXPECT_TRUE(fs::exists(once.path)) << "the fault never happened";
  wait_for_restarts(host.get(), 1);
  expect_device_1_in_service(host.get(), key);
  EXPECT_EQ(stats(host.get()).device_restarts, 1u);
}

TEST(DeviceLost, WithRetriesEveryPartitionIsProvedAndTheDeviceComesBack) {
  FaultOnce once;
  HostPtr host = isolated_host({"prover.fault=device_lost", "prover.fault_device=1", "prover.fault_at=1",
                                "prover.fault_once=" + once.path.string(), "device_retries=1"});
  const uint64_t key = load_key(host.get());
  const std::vector<Record> records = prove(host.get(), key, 2, 3);
  ASSERT_EQ(records.size(), 6u);
  expect_all_proved(host.get(), key, records, 0);
  EXPECT_TRUE(fs::exists(once.path)) << "the fault never happened";
  wait_for_restarts(host.get(), 1);
  expect_device_1_in_service(host.get(), key);
}

TEST(DeviceLost, OnOneDeviceAPinnedPartitionIsRetriedInTheRestartedProcess) {
  FaultOnce once;
  HostPtr host = isolated_host({"prover.devices=1", "prover.fault=device_lost", "prover.fault_at=2",
                                "prover.fault_once=" + once.path.string(), "device_retries=1"});
  const uint64_t key = load_key(host.get());
  const std::vector<Record> records = prove(host.get(), key, 2, 3, 0);
  ASSERT_EQ(records.size(), 6u);
  EXPECT_EQ(expect_all_proved(host.get(), key, records, 0), 6u);
  EXPECT_TRUE(fs::exists(once.path)) << "the fault never happened";
  EXPECT_EQ(stats(host.get()).device_restarts, 1u);
  EXPECT_EQ(stats(host.get()).partitions_failed, 0u);
}

}  // namespace
}  // namespace zkp::test
