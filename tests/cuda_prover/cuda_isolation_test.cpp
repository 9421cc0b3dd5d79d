// isolation = process on a real GPU: a sticky CUDA fault inside a device process (the faulty
// test prover wrapping the cuda prover, fault=hook: libzkp_test_cuda_fault_hook.so breaks the
// child's context before its third partition) fails only that child. The host restarts it, the
// partition it held is retried, every partition of the job proves, and the device proves again
// afterwards. The host process itself never touches the broken context, so unlike
// CudaProverFault* this can run in the same test binary as the other tests.
#include <gtest/gtest.h>
#include <zkpipe/zkpipe.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "completions.hpp"
#include "cuda/util/device_guard.hpp"
#include "plugin_harness.hpp"

namespace zkp::test {
namespace {

namespace fs = std::filesystem;

// Proves `count` partitions of chain_bn128's witness with r = s = 0 (equal proofs) on device 0.
void prove_job(zkp_host_t* host, std::uint64_t key, const std::string& wtns, std::uint32_t count, Completions& out) {
  std::vector<zkp_partition_t> parts(count);
  for (auto& p : parts) {
    p = make<zkp_partition_t>();
    p.witness = make<zkp_witness_t>();
    p.witness.kind = ZKP_WITNESS_WTNS_FILE;
    p.witness.path = wtns.c_str();
  }
  std::vector<std::uint8_t> randomness(count * 2 * ZKP_SCALAR_SIZE, 0);
  auto job = make<zkp_job_t>();
  job.key_id = key;
  job.partitions = parts.data();
  job.partition_count = count;
  job.gpu_index = 0;
  job.randomness = randomness.data();
  job.on_partition = &Completions::on_partition;
  job.user_data = &out;
  zkp_error_t err = make<zkp_error_t>();
  std::uint64_t id = 0;
  ASSERT_EQ(zkp_host_submit(host, &job, &id, &err), ZKP_OK) << err.message;
  ASSERT_EQ(zkp_host_wait(host, id, 180'000, &err), ZKP_OK) << err.message;
}

void expect_all_proved(const Completions& c, std::uint32_t count, const std::vector<std::uint8_t>& reference) {
  ASSERT_EQ(c.records.size(), count);
  for (std::size_t i = 0; i < c.records.size(); ++i) {
    const zkp_completion_t& r = c.records[i];
    EXPECT_EQ(r.status, ZKP_OK) << "partition " << r.partition << ": " << c.messages[i];
    EXPECT_EQ(r.gpu_index, 0) << "partition " << r.partition;
    EXPECT_NE(r.flags & ZKP_COMPLETION_SELF_CHECKED, 0u) << "partition " << r.partition;
    EXPECT_EQ(c.proofs[i], reference) << "partition " << r.partition;
  }
}

TEST(CudaIsolationFault, AFaultInADeviceProcessRestartsItAndTheDeviceProvesAgain) {
  cudaError_t why = cudaSuccess;
  const int devices = cuda::device_count(&why);
  if (devices < 1) GTEST_SKIP() << "needs a CUDA device, found none (" << cudaGetErrorString(why) << ")";
  const fs::path dir = fs::path(setting("ZKPIPE_VECTORS_DIR", ZKPIPE_VECTORS_DATA_DIR)) / "chain_bn128";
  const fs::path once = fs::path(::testing::TempDir()) / ("zkpipe-cuda-isolation-" + std::to_string(::getpid()));
  fs::remove(once);
  const std::vector<std::string> overrides = {
      "prover=" + setting("ZKPIPE_FAULTY_PLUGIN", ZKPIPE_FAULTY_PLUGIN_PATH),
      "prover.inner=" + setting("ZKPIPE_CUDA_PLUGIN", ZKPIPE_CUDA_PLUGIN_PATH),
      "prover.fault=hook",
      "prover.hook=" + setting("ZKPIPE_CUDA_FAULT_HOOK", ZKPIPE_CUDA_FAULT_HOOK_PATH),
      "prover.fault_at=3",
      "prover.fault_once=" + once.string(),
      "pacer=" + setting("ZKPIPE_GREEDY_PACER", ZKPIPE_GREEDY_PACER_PATH),
      "isolation=process",
      "isolation_executable=" + setting("ZKPIPE_DEVICE_EXECUTABLE", ZKPIPE_DEVICE_EXECUTABLE_PATH),
      "workers_per_device=1",
      "device_retries=2",
      "log_level=info"};
  std::vector<const char*> c;
  for (const auto& o : overrides) c.push_back(o.c_str());
  zkp_error_t err = make<zkp_error_t>();
  zkp_host_t* host = nullptr;
  ASSERT_EQ(zkp_host_create(nullptr, c.data(), c.size(), &host, &err), ZKP_OK) << err.message;
  const std::string zkey = (dir / "circuit.zkey").string();
  auto src = make<zkp_key_source_t>();
  src.path = zkey.c_str();
  std::uint64_t key = 0;
  ASSERT_EQ(zkp_host_load_key(host, &src, &key, &err), ZKP_OK) << err.message;
  const std::string wtns = (dir / "witness.wtns").string();

  constexpr std::uint32_t kParts = 8;
  Completions first;
  prove_job(host, key, wtns, kParts, first);
  ASSERT_FALSE(first.proofs.empty());
  EXPECT_TRUE(fs::exists(once)) << "the hook never ran: the test did not test a fault";
  expect_all_proved(first, kParts, first.proofs[0]);
  auto st = make<zkp_host_stats_t>();
  ASSERT_EQ(zkp_host_stats(host, &st, &err), ZKP_OK) << err.message;
  EXPECT_GE(st.device_restarts, 1u) << "the faulted device process was not restarted";
  EXPECT_EQ(st.partitions_succeeded, kParts);

  // The device is back in service: a second job proves on it, in the restarted process.
  Completions second;
  prove_job(host, key, wtns, 4, second);
  expect_all_proved(second, 4, first.proofs[0]);
  zkp_host_destroy(host, ZKP_SHUTDOWN_DRAIN);
  fs::remove(once);
}

}  // namespace
}  // namespace zkp::test
