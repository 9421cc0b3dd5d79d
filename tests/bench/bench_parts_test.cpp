// The parts of `zkpipe bench` that need no prover: list parsing names the flag, nearest-rank
// percentiles on known data, the sweep order, and the outputs carrying the numbers they report.
#include "bench/report.hpp"
#include "bench/svg_chart.hpp"
#include "bench/sweep.hpp"
#include "services/command/command.hpp"

#include <gtest/gtest.h>

namespace zkp::cli::bench {
namespace {

constexpr uint32_t kMax = 64;
constexpr uint64_t kMs = 1'000'000;

TEST(BenchSweep, ParsesAListAndNamesTheFlagOnABadElement) {
  EXPECT_EQ(parse_list("--workers", "1,2,4", kMax), (std::vector<uint32_t>{1, 2, 4}));
  for (const char* bad : {"", "1,", "0", "1,x", "65", "-1", "2 "}) {
    try {
      parse_list("--workers", bad, kMax);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--workers"), std::string::npos) << e.what();
    }
  }
}

TEST(BenchSweep, PlanIsTheProductWorkersOutermost) {
  const auto plan = make_plan({1, 2}, {3}, {1, 4});
  ASSERT_EQ(plan.size(), 4u);
  EXPECT_EQ(plan[0].workers_per_device, 1u);
  EXPECT_EQ(plan[1].in_flight, 4u);
  EXPECT_EQ(plan[2].workers_per_device, 2u);
  EXPECT_EQ(plan[3].synthesis_threads, 3u);
}

TEST(BenchStats, NearestRankPercentiles) {
  std::vector<uint64_t> v;
  for (uint64_t i = 100; i >= 1; --i) v.push_back(i);  // 1..100, unsorted
  EXPECT_EQ(nearest_rank(v, 50), 50u);
  EXPECT_EQ(nearest_rank(v, 99), 99u);
  EXPECT_EQ(nearest_rank(v, 100), 100u);
  EXPECT_EQ(nearest_rank({7, 3, 5}, 50), 5u);  // rank ceil(1.5) = 2
  EXPECT_EQ(nearest_rank({7, 3, 5}, 99), 7u);
  EXPECT_EQ(nearest_rank({}, 50), 0u);
}

PointResult two_proofs_in_one_second() {
  PointResult r;
  r.point = {2, 3, 4};
  r.latency_ns = {100 * kMs, 300 * kMs};
  r.verified = 2;
  r.wall_ns = 1000 * kMs;
  r.busy_ns = 500 * kMs;
  r.devices = 1;
  return r;
}

TEST(BenchStats, ThroughputAndBusy) {
  const PointResult r = two_proofs_in_one_second();
  EXPECT_DOUBLE_EQ(proofs_per_second(r), 2.0);
  EXPECT_DOUBLE_EQ(busy_fraction(r), 0.5);
}

TEST(BenchReport, CsvAndJsonCarryThePoint) {
  const std::vector<PointResult> results{two_proofs_in_one_second()};
  const std::string csv = format_csv(results);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "workers_per_device,synthesis_threads,in_flight,proofs,failed,verified,wall_s,proofs_per_s,p50_ms,p99_ms,busy");
  EXPECT_NE(csv.find("\n2,3,4,2,0,2,1.000000,2.000000,100.000,300.000,0.5000\n"), std::string::npos) << csv;
  BenchInfo info;
  info.key = "a\"b";
  const std::string json = format_json(info, results);
  EXPECT_NE(json.find("\"key\":\"a\\\"b\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"p99_ms\":300.000"), std::string::npos) << json;
}

TEST(BenchSvg, HasTheThreeSeriesAndEscapesText) {
  BenchInfo info;
  info.key = "<k&>";
  const std::string svg = format_svg(info, {two_proofs_in_one_second()});
  for (const char* id : {"id=\"throughput\"", "id=\"p50\"", "id=\"p99\""}) EXPECT_NE(svg.find(id), std::string::npos);
  EXPECT_NE(svg.find("&lt;k&amp;&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("<k&>"), std::string::npos);
}

}  // namespace
}  // namespace zkp::cli::bench
