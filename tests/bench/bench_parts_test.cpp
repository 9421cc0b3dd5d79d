// The parts of `zkpipe bench` that need no prover: list parsing names the flag, nearest-rank
// percentiles on known data, the sweep order, and the outputs carrying the numbers they report.
#include "bench/progress.hpp"
#include "bench/report.hpp"
#include "bench/svg_chart.hpp"
#include "bench/sweep.hpp"
#include "services/command/command.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

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
  // What measured it (issue 39): the version, the time, the machine.
  info.zkpipe_version = "9.9.9";
  info.started_unix_ms = 1765000000000;
  info.cpu = "Test CPU";
  info.hardware_threads = 16;
  const std::string described = format_json(info, results);
  for (const char* field : {"\"zkpipe_version\":\"9.9.9\"", "\"started_unix_ms\":1765000000000", "\"cpu\":\"Test CPU\"",
                            "\"hardware_threads\":16"}) {
    EXPECT_NE(described.find(field), std::string::npos) << field << " in " << described;
  }
}

TEST(BenchSvg, HasTheThreeSeriesAndEscapesText) {
  BenchInfo info;
  info.key = "<k&>";
  const std::string svg = format_svg(info, {two_proofs_in_one_second()});
  for (const char* id : {"id=\"throughput\"", "id=\"p50\"", "id=\"p99\""}) EXPECT_NE(svg.find(id), std::string::npos);
  EXPECT_NE(svg.find("&lt;k&amp;&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("<k&>"), std::string::npos);
}

// Issue 39: tick labels are round plain numbers (a latency of 1,560 ms was "1.56e+03", a rate
// of 2.09 gave ticks 0.418, 0.836, ...), and the sweep's points are not joined by lines.
TEST(BenchSvg, TicksAreRoundAndSweepPointsAreNotJoined) {
  PointResult slow = two_proofs_in_one_second();
  slow.latency_ns = {1560 * kMs, 1560 * kMs};
  slow.wall_ns = 957 * kMs;  // 2.09 proofs/s
  PointResult other = slow;
  other.point = {1, 3, 4};
  const std::string svg = format_svg(BenchInfo{}, {slow, other});
  EXPECT_EQ(svg.find("e+"), std::string::npos) << "a tick in exponent form";
  EXPECT_EQ(svg.find("<polyline id=\"throughput\""), std::string::npos) << "sweep points joined";
  EXPECT_NE(svg.find("<g id=\"throughput\""), std::string::npos);
  // The y labels (text-anchor end): each a multiple of its panel's step, which is 1, 2, 2.5 or
  // 5 times a power of ten.
  std::vector<double> labels;
  for (size_t at = svg.find("text-anchor=\"end\">"); at != std::string::npos;
       at = svg.find("text-anchor=\"end\">", at + 1)) {
    labels.push_back(std::stod(svg.substr(at + std::strlen("text-anchor=\"end\">"))));
  }
  ASSERT_EQ(labels.size(), 3u * 6u) << svg;  // three panels, ticks 0..5
  for (size_t panel = 0; panel < 3; ++panel) {
    const double step = labels[panel * 6 + 1];
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
    EXPECT_TRUE(std::fabs(mantissa - 1) < 1e-9 || std::fabs(mantissa - 2) < 1e-9 || std::fabs(mantissa - 2.5) < 1e-9 ||
                std::fabs(mantissa - 5) < 1e-9)
        << "panel " << panel << " step " << step;
    for (size_t t = 0; t < 6; ++t) EXPECT_NEAR(labels[panel * 6 + t], step * static_cast<double>(t), step * 1e-9);
  }
  EXPECT_DOUBLE_EQ(labels[1], 0.5);    // 2.09 proofs/s: ticks 0, 0.5, ..., 2.5
  EXPECT_DOUBLE_EQ(labels[6 + 1], 500);  // 1,560 ms: 0, 500, ..., 2500
}

// Issue 39: the bar says how many proofs of the point's total are done and, once some of the
// run is, the time left at the pace so far (the caller's clock, handed in).
TEST(BenchProgress, TheLineHasTheTotalAndTheTimeLeft) {
  const Point point{2, 3, 4};
  // Point 2 of 4, 3 of its 4 proofs: 1.75 of 4 points done after 7 s, so 9 s left.
  const std::string line = progress_line(1.75, 4, 1, point, 3, 4, 7.0);
  EXPECT_NE(line.find("point 2/4"), std::string::npos) << line;
  EXPECT_NE(line.find("3/4 proofs"), std::string::npos) << line;
  EXPECT_NE(line.find("44%, about 9 s left"), std::string::npos) << line;
  // Before anything is done there is no estimate; for a duration, no total.
  EXPECT_EQ(progress_line(0, 4, 0, point, 0, 4, 0.5).find("left"), std::string::npos);
  EXPECT_NE(progress_line(0.5, 4, 0, point, 7, 0, 2.0).find(": 7 proofs; "), std::string::npos);
}

}  // namespace
}  // namespace zkp::cli::bench
