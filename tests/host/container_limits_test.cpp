// Container-aware defaults (container_limits.hpp) on fake cgroup trees in a temp folder:
// no limit, a 2 GiB memory limit, a 1.5-CPU quota, a parent's tighter limit, cgroup v1 files,
// and files that do not parse (no limit, and the reason says so).
#include <zkpipe/host/config.hpp>
#include "container_limits.hpp"
#include <zkpipe/sdk/error.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace zkp::host {
namespace {

namespace fs = std::filesystem;

constexpr uint64_t kGiB = 1ull << 30;

class FakeCgroup : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("zkp_cgroup_" + std::to_string(std::random_device{}()));
    fs::create_directories(root_ / "sys");
    files_.proc_self_cgroup = root_ / "proc_self_cgroup";
    files_.mount = root_ / "sys";
  }
  void TearDown() override { fs::remove_all(root_); }

  void write(const fs::path& relative, const std::string& text) {
    const fs::path path = relative == "proc" ? files_.proc_self_cgroup : files_.mount / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }
  // A cgroup v2 tree whose process lives in /app.
  void v2(const std::string& memory_max, const std::string& cpu_max) {
    write("proc", "0::/app\n");
    write("cgroup.controllers", "cpu memory\n");
    write("app/memory.max", memory_max + "\n");
    write("app/cpu.max", cpu_max + "\n");
  }

  fs::path root_;
  CgroupFiles files_;
};

MachineFacts big_machine() {
  MachineFacts m;
  m.hardware_threads = 64;
  m.affinity_cpus = 64;
  m.ram_bytes = 256 * kGiB;
  return m;
}

TEST_F(FakeCgroup, UnlimitedV2KeepsTheMachine) {
  v2("max", "max 100000");
  const ContainerLimits limits = read_container_limits(files_);
  EXPECT_FALSE(limits.memory_bytes);
  EXPECT_FALSE(limits.cpus);
  const MachineDefaults d = machine_defaults(big_machine(), limits);
  EXPECT_EQ(d.synthesis_threads, 64u);
  EXPECT_EQ(d.budget_bytes, 128 * kGiB);
  EXPECT_NE(d.reason.find("half of RAM"), std::string::npos) << d.reason;
}

TEST_F(FakeCgroup, TwoGiBAndOneAndAHalfCpus) {
  v2(std::to_string(2 * kGiB), "150000 100000");
  const ContainerLimits limits = read_container_limits(files_);
  ASSERT_TRUE(limits.memory_bytes);
  EXPECT_EQ(*limits.memory_bytes, 2 * kGiB);
  ASSERT_TRUE(limits.cpus);
  EXPECT_DOUBLE_EQ(*limits.cpus, 1.5);
  const MachineDefaults d = machine_defaults(big_machine(), limits);
  EXPECT_EQ(d.synthesis_threads, 2u);  // 1.5 rounded up
  EXPECT_EQ(d.budget_bytes, kGiB);
  EXPECT_NE(d.reason.find("cgroup CPU quota"), std::string::npos) << d.reason;
  EXPECT_NE(d.reason.find((files_.mount / "app" / "memory.max").string()), std::string::npos) << d.reason;
}

TEST_F(FakeCgroup, AParentsTighterLimitBinds) {
  v2("max", "max 100000");
  write("memory.max", std::to_string(4 * kGiB));
  write("cpu.max", "50000 100000");
  const ContainerLimits limits = read_container_limits(files_);
  ASSERT_TRUE(limits.memory_bytes);
  EXPECT_EQ(*limits.memory_bytes, 4 * kGiB);
  ASSERT_TRUE(limits.cpus);
  EXPECT_DOUBLE_EQ(*limits.cpus, 0.5);
  EXPECT_EQ(machine_defaults(big_machine(), limits).synthesis_threads, 1u);  // never 0
}

TEST_F(FakeCgroup, APathOutsideTheMountReadsTheMount) {
  write("proc", "0::/system.slice/docker-abc.scope\n");
  write("cgroup.controllers", "cpu memory\n");
  write("memory.max", std::to_string(3 * kGiB));
  const ContainerLimits limits = read_container_limits(files_);
  ASSERT_TRUE(limits.memory_bytes);
  EXPECT_EQ(*limits.memory_bytes, 3 * kGiB);
}

TEST_F(FakeCgroup, CgroupV1Files) {
  write("proc", "12:cpu,cpuacct:/job\n11:memory:/job\n");
  write("memory/job/memory.limit_in_bytes", std::to_string(2 * kGiB));
  write("cpu,cpuacct/job/cpu.cfs_quota_us", "150000");
  write("cpu,cpuacct/job/cpu.cfs_period_us", "100000");
  write("memory/memory.limit_in_bytes", "9223372036854771712");  // v1's "no limit"
  write("cpu,cpuacct/cpu.cfs_quota_us", "-1");
  write("cpu,cpuacct/cpu.cfs_period_us", "100000");
  const ContainerLimits limits = read_container_limits(files_);
  ASSERT_TRUE(limits.memory_bytes);
  EXPECT_EQ(*limits.memory_bytes, 2 * kGiB);
  ASSERT_TRUE(limits.cpus);
  EXPECT_DOUBLE_EQ(*limits.cpus, 1.5);
}

TEST_F(FakeCgroup, CgroupV1Unlimited) {
  write("proc", "4:memory:/\n3:cpu:/\n");
  write("memory/memory.limit_in_bytes", "9223372036854771712");
  write("cpu/cpu.cfs_quota_us", "-1");
  write("cpu/cpu.cfs_period_us", "100000");
  const ContainerLimits limits = read_container_limits(files_);
  EXPECT_FALSE(limits.memory_bytes);
  EXPECT_FALSE(limits.cpus);
}

TEST_F(FakeCgroup, GarbageIsNoLimitAndSaysSo) {
  v2("lots", "fast please");
  const ContainerLimits limits = read_container_limits(files_);
  EXPECT_FALSE(limits.memory_bytes);
  EXPECT_FALSE(limits.cpus);
  EXPECT_NE(limits.memory_reason.find("is 'lots', not a memory limit (ignored)"), std::string::npos)
      << limits.memory_reason;
  EXPECT_NE(limits.cpu_reason.find("is 'fast please', not a CPU quota (ignored)"), std::string::npos)
      << limits.cpu_reason;
  const MachineDefaults d = machine_defaults(big_machine(), limits);
  EXPECT_EQ(d.synthesis_threads, 64u);
  EXPECT_NE(d.reason.find("(ignored)"), std::string::npos) << d.reason;
}

TEST_F(FakeCgroup, GarbageV1AndAZeroPeriod) {
  write("proc", "garbage line\n3:cpu:/\n");
  write("memory/memory.limit_in_bytes", "-5");
  write("cpu/cpu.cfs_quota_us", "50000");
  write("cpu/cpu.cfs_period_us", "0");
  const ContainerLimits limits = read_container_limits(files_);
  EXPECT_FALSE(limits.memory_bytes);
  EXPECT_FALSE(limits.cpus);
  EXPECT_NE(limits.cpu_reason.find("(ignored)"), std::string::npos) << limits.cpu_reason;
}

TEST_F(FakeCgroup, NoTreeAtAll) {
  files_.mount = root_ / "absent";
  files_.proc_self_cgroup = root_ / "absent_proc";
  const ContainerLimits limits = read_container_limits(files_);
  EXPECT_FALSE(limits.memory_bytes);
  EXPECT_FALSE(limits.cpus);
  MachineFacts unknown;
  unknown.hardware_threads = 8;
  const MachineDefaults d = machine_defaults(unknown, limits);
  EXPECT_EQ(d.synthesis_threads, 8u);
  EXPECT_EQ(d.budget_bytes, kGiB);  // neither RAM nor a limit known
}

TEST(MachineDefaults, AffinityNarrowsThreads) {
  MachineFacts m = big_machine();
  m.affinity_cpus = 3;
  EXPECT_EQ(machine_defaults(m, {}).synthesis_threads, 3u);
}

TEST(MachineDefaults, ThisMachineMatchesTheConfigDefaults) {
  const MachineDefaults d = this_machine_defaults();
  EXPECT_EQ(default_synthesis_threads(), d.synthesis_threads);
  EXPECT_EQ(default_budget_bytes(), d.budget_bytes);
  EXPECT_GE(d.synthesis_threads, 1u);
}

TEST(LogFormatKey, AcceptsTextAndJsonAndNamesTheKeyOtherwise) {
  const std::vector<std::string> json{"log_format=json"};
  EXPECT_EQ(Config::load(std::nullopt, json).log_format, LogFormat::json);
  EXPECT_EQ(Config().log_format, LogFormat::text);
  const std::vector<std::string> bad{"log_format=xml"};
  try {
    (void)Config::load(std::nullopt, bad);
    FAIL() << "log_format=xml was accepted";
  } catch (const sdk::Error& e) {
    EXPECT_NE(std::string(e.what()).find("log_format"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("text or json"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace zkp::host
