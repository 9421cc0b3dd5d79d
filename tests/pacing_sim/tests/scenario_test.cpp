// Scenario files: every shipped one parses; mistakes are errors naming the line.
#include "sim/capacity.hpp"
#include "sim/scenario.hpp"
#include "sim/workload.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace {

using namespace zkp::pacing_sim;

const char* const kMinimal = "arrival.1.jobs = 1\n";

std::string error_of(const std::string& text) {
  try {
    parse_scenario(text, "t.conf");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(Scenario, EveryShippedScenarioParses) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(ZKPIPE_SCENARIO_DIR)) {
    if (entry.path().extension() != ".conf") continue;
    SCOPED_TRACE(entry.path().string());
    const Scenario s = load_scenario(entry.path().string());
    EXPECT_FALSE(make_workload(s).partitions.empty());
    ++count;
  }
  EXPECT_GE(count, 8);
}

TEST(Scenario, SeedMatchesPacingMd) {
  const Scenario s = load_scenario(std::string(ZKPIPE_SCENARIO_DIR) + "/seed.conf");
  ASSERT_EQ(s.classes.size(), 1u);
  const PartitionClass& c = s.classes[0];
  EXPECT_EQ(s.devices, 1u);
  EXPECT_EQ(s.workers_per_device, 2u);
  EXPECT_EQ(c.gpu_alone_ms, 1000.0);
  EXPECT_EQ(c.gpu_busy_ms, 1200.0);
  EXPECT_EQ(s.pinned_stall_factor, 4.0);
  EXPECT_EQ(c.synthesis_min_s, 20.0);
  EXPECT_EQ(c.synthesis_max_s, 60.0);
  EXPECT_EQ(s.budget_gib, 400.0);
  EXPECT_EQ(c.gib, 9.0);
  const Workload w = make_workload(s);
  EXPECT_EQ(w.partitions.size(), w.jobs * 10u);  // jobs of 10 partitions
  // The bottleneck: 400 GiB / (9 GiB x (E[synthesis] + 1 s)), below the GPU's 2 / 1.2 s.
  const Capacity cap = nominal_capacity(s, w);
  EXPECT_NEAR(cap.gpu_per_s, 2.0 / 1.2, 1e-9);
  EXPECT_NEAR(cap.budget_per_s, 400.0 / 9.0 / 41.0, 0.02);
  EXPECT_EQ(cap.bottleneck(), "memory budget (synthesis)");
}

TEST(Scenario, SameSeedSameWorkload) {
  const std::string text = std::string(kMinimal) + "arrival.1.repeat = 5\narrival.1.every_s = 10\n";
  const Workload a = make_workload(parse_scenario(text, "a"));
  const Workload b = make_workload(parse_scenario(text, "b"));
  ASSERT_EQ(a.partitions.size(), 50u);
  for (size_t i = 0; i < a.partitions.size(); ++i) {
    EXPECT_EQ(a.partitions[i].synthesis_ns, b.partitions[i].synthesis_ns);
    EXPECT_EQ(a.partitions[i].submit_ns, b.partitions[i].submit_ns);
  }
}

TEST(Scenario, MistakesNameTheFileAndLine) {
  EXPECT_EQ(error_of(std::string(kMinimal) + "budget = 400\n"),
            "t.conf:2: unknown key 'budget' (scenarios/README.md lists the keys)");
  EXPECT_EQ(error_of(std::string(kMinimal) + "devices = 2\ndevices = 3\n"), "t.conf:3: key 'devices' repeats line 2");
  EXPECT_NE(error_of(std::string(kMinimal) + "devices = two\n").find("t.conf:2: 'devices' = 'two'"), std::string::npos);
  EXPECT_NE(error_of(std::string(kMinimal) + "no equals sign\n").find("t.conf:2: expected 'key = value'"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kMinimal) + "arrival.1.class = huge\n").find("no partition class 'huge'"),
            std::string::npos);
  EXPECT_NE(error_of("devices = 1\n").find("no arrival phases"), std::string::npos);
  EXPECT_NE(error_of(std::string(kMinimal) + "partition_gib = 500\n").find("more than the whole budget"),
            std::string::npos);
}

}  // namespace
