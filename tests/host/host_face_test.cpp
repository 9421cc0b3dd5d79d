// The runtime's C++ face (zkpipe/host/host.hpp) on the sim prover: submit with C++ callbacks
// (every partition's, then the job's once, last, on the completion thread), a submit refused
// before the host takes the job (nothing runs, nothing leaks: ASan's leak check sees it), and
// the prover's facts through Host rather than the prover object.
#include <gtest/gtest.h>

#include <zkpipe/host/host.hpp>
#include <zkpipe/sdk/error.hpp>

#include <mutex>
#include <string>
#include <vector>

namespace {

using namespace zkp;


host::Config sim_config() {
  const std::vector<std::string> overrides = {"plugin_path=" ZKPIPE_BUILD_LIB_DIR, "prover=sim", "log_level=warn",
                                              "prover.gpu_ms=1", "workers_per_device=2"};
  return host::Config::load(std::nullopt, overrides);
}

uint64_t load_sim_key(host::Host& host) {
  auto source = sdk::make_struct<zkp_key_source_t>();
  return host.load_key(source);
}

TEST(HostFace, CppCallbacksRunForEveryPartitionThenTheJobOnce) {
  host::Host host(sim_config());
  const uint64_t key = load_sim_key(host);
  std::vector<zkp_partition_t> parts(5, sdk::make_struct<zkp_partition_t>());
  for (auto& p : parts) p.witness = sdk::make_struct<zkp_witness_t>();
  auto job = sdk::make_struct<zkp_job_t>();
  job.key_id = key;
  job.partitions = parts.data();
  job.partition_count = static_cast<uint32_t>(parts.size());
  job.gpu_index = -1;

  std::mutex mu;
  std::vector<uint32_t> seen;
  uint32_t jobs = 0;
  bool job_after_partitions = false;
  bool on_completion_thread = true;
  const uint64_t id = host.submit(
      job,
      [&](const zkp_completion_t& c) {
        std::lock_guard lock(mu);
        EXPECT_EQ(c.status, ZKP_OK) << (c.message != nullptr ? c.message : "");
        seen.push_back(c.partition);
        on_completion_thread = on_completion_thread && host.on_completion_thread();
      },
      [&](const zkp_job_summary_t& s) {
        std::lock_guard lock(mu);
        ++jobs;
        job_after_partitions = seen.size() == parts.size();
        EXPECT_EQ(s.succeeded, parts.size());
        on_completion_thread = on_completion_thread && host.on_completion_thread();
      });
  host.wait(id, -1);
  std::lock_guard lock(mu);
  EXPECT_EQ(seen.size(), parts.size());
  EXPECT_EQ(jobs, 1u);
  EXPECT_TRUE(job_after_partitions);
  EXPECT_TRUE(on_completion_thread);
}

TEST(HostFace, ARefusedSubmitRunsNothing) {
  host::Host host(sim_config());
  auto part = sdk::make_struct<zkp_partition_t>();
  part.witness = sdk::make_struct<zkp_witness_t>();
  auto job = sdk::make_struct<zkp_job_t>();
  job.key_id = 12345;  // no such key
  job.partitions = &part;
  job.partition_count = 1;
  job.gpu_index = -1;
  bool called = false;
  try {
    host.submit(job, [&](const zkp_completion_t&) { called = true; }, [&](const zkp_job_summary_t&) { called = true; });
    FAIL() << "a job of an unknown key was accepted";
  } catch (const sdk::Error& e) {
    EXPECT_EQ(e.status(), ZKP_ERR_NOT_FOUND) << e.what();
  }
  host.wait(0, -1);
  EXPECT_FALSE(called);
}

TEST(HostFace, TheProversFactsThroughHost) {
  host::Host host(sim_config());
  EXPECT_EQ(host.prover_name().rfind("sim", 0), 0u) << host.prover_name();  // "sim (simulated device: ...)"
  EXPECT_TRUE(host.simulated());
  EXPECT_GE(host.device_count(), 1u);
  EXPECT_EQ(host.stats().device_count, host.device_count());
  EXPECT_FALSE(host.pacer_name().empty());
}

}  // namespace
