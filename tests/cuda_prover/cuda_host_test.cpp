// The cuda prover behind the host (libzkpipe's C API), on two GPUs: a job on any device
// (gpu_index -1) when device 0 faults under it. Device 0 is broken on purpose
// (fault_injection.hpp), so this runs in a process of its own, like CudaProverFault*.
#include <gtest/gtest.h>
#include <zkpipe/zkpipe.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "completions.hpp"
#include "cuda/util/device_guard.hpp"
#include "fault_injection.hpp"
#include "plugin_harness.hpp"

namespace zkp::test {
namespace {

namespace fs = std::filesystem;

TEST(CudaHostFaultTwoGpu, EveryPartitionOfAJobCompletesWhenADeviceFaults) {
  cudaError_t why = cudaSuccess;
  const int devices = cuda::device_count(&why);
  if (devices < 2) GTEST_SKIP() << "needs 2 CUDA devices, found " << devices << " (" << cudaGetErrorString(why) << ")";
  const fs::path plugin = setting("ZKPIPE_CUDA_PLUGIN", ZKPIPE_CUDA_PLUGIN_PATH);
  const fs::path dir = fs::path(setting("ZKPIPE_VECTORS_DIR", ZKPIPE_VECTORS_DATA_DIR)) / "chain_bn128";

  const fs::path pacer = setting("ZKPIPE_GREEDY_PACER", ZKPIPE_GREEDY_PACER_PATH);
  const std::vector<std::string> overrides = {"prover=" + plugin.string(), "pacer=" + pacer.string(),
                                              "prover.devices=0,1", "workers_per_device=2", "log_level=warn",
                                              "device_retries=1"};
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

  const std::string fault = break_device(0);
  ASSERT_FALSE(fault.empty()) << "the injected kernel did not fault";

  constexpr std::uint32_t kParts = 8;
  const std::string wtns = (dir / "witness.wtns").string();
  std::vector<zkp_partition_t> parts(kParts);
  for (auto& p : parts) {
    p = make<zkp_partition_t>();
    p.witness = make<zkp_witness_t>();
    p.witness.kind = ZKP_WITNESS_WTNS_FILE;
    p.witness.path = wtns.c_str();
  }
  std::vector<std::uint8_t> randomness(kParts * 2 * ZKP_SCALAR_SIZE, 0);  // r = s = 0: equal proofs
  Completions results;
  auto job = make<zkp_job_t>();
  job.key_id = key;
  job.partitions = parts.data();
  job.partition_count = kParts;
  job.gpu_index = -1;
  job.randomness = randomness.data();
  job.on_partition = &Completions::on_partition;
  job.user_data = &results;
  std::uint64_t id = 0;
  ASSERT_EQ(zkp_host_submit(host, &job, &id, &err), ZKP_OK) << err.message;
  ASSERT_EQ(zkp_host_wait(host, id, 120'000, &err), ZKP_OK) << err.message;

  // Every partition completes (none hangs, none is lost); how depends on whether the CUDA
  // runtime kept device 1 apart from device 0's fault (see CudaProverFaultTwoGpu).
  const bool isolated = device_usable(1);
  std::printf("the CUDA runtime %s device 1 after device 0's fault (%s)\n", isolated ? "keeps" : "does not keep",
              fault.c_str());
  ASSERT_EQ(results.records.size(), kParts);
  for (std::size_t i = 0; i < kParts; ++i) {
    const zkp_completion_t& r = results.records[i];
    if (isolated) {
      // Retried where it failed: every partition proves on device 1.
      EXPECT_EQ(r.status, ZKP_OK) << "partition " << r.partition << ": " << results.messages[i];
      EXPECT_EQ(r.gpu_index, 1) << "partition " << r.partition;
      EXPECT_NE(r.flags & ZKP_COMPLETION_SELF_CHECKED, 0u);
      EXPECT_EQ(results.proofs[i], results.proofs[0]);
    } else {
      EXPECT_EQ(r.status, ZKP_ERR_DEVICE_LOST) << "partition " << r.partition;
      EXPECT_NE(results.messages[i].find("unusable"), std::string::npos) << results.messages[i];
      EXPECT_TRUE(results.proofs[i].empty());
    }
  }
  auto d0 = make<zkp_device_info_t>();
  ASSERT_EQ(zkp_host_device_info(host, 0, &d0, &err), ZKP_OK) << err.message;
  EXPECT_EQ(d0.partitions_proved, 0u);
  EXPECT_GE(d0.partitions_started, 1u) << "no partition met the fault: the test did not test it";
  auto st = make<zkp_host_stats_t>();
  ASSERT_EQ(zkp_host_stats(host, &st, &err), ZKP_OK) << err.message;
  EXPECT_EQ(st.partitions_succeeded, isolated ? kParts : 0u);
  EXPECT_EQ(st.budget_used_bytes, 0u);
  EXPECT_EQ(st.pending + st.synthesizing + st.waiting + st.proving, 0u);
  zkp_host_destroy(host, ZKP_SHUTDOWN_DRAIN);
}

}  // namespace
}  // namespace zkp::test
