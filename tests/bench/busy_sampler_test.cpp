// GPU busy over time without a device: busy_shares() on made-up readings places each proof's
// time just before the reading that saw it (one worker, two overlapping workers, the window
// limit); a BusySampler over a fake reader whose busy time is a known fraction of the time
// elapsed gives that share per device, in increasing time; a reader that throws ends the
// samples; the JSON and the SVG carry them.
#include "bench/busy_sampler.hpp"
#include "bench/report.hpp"
#include "bench/svg_chart.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>

namespace zkp::cli::bench {
namespace {

using Clock = BusySampler::Clock;
using std::chrono::milliseconds;

constexpr milliseconds kInterval{20};
constexpr double kShareD0 = 0.25, kShareD1 = 1.5;  // device 1: two workers overlapping
constexpr double kTolerance = 0.05;

// busy_ns = share x nanoseconds since `start`, exactly what a device busy that share of the
// time would report.
BusySampler::Reader steady_reader(Clock::time_point start) {
  return [start] {
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
    return std::vector<uint64_t>{static_cast<uint64_t>(kShareD0 * ns), static_cast<uint64_t>(kShareD1 * ns)};
  };
}

TEST(BenchBusySampler, SharesPerDeviceInIncreasingTime) {
  const Clock::time_point origin = Clock::now();
  BusySampler sampler(steady_reader(origin), origin, kInterval);
  std::this_thread::sleep_for(10 * kInterval);
  const std::vector<BusySample> samples = sampler.stop();
  ASSERT_GE(samples.size(), 5u);
  // Per interval the share is exact only up to the time between the reader's clock and the
  // sampler's, which a loaded machine stretches; over the run those gaps cancel.
  double weighted[2] = {0, 0}, total_s = 0, previous_s = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    ASSERT_EQ(samples[i].share.size(), 2u);
    const double length = samples[i].t_s - previous_s;
    if (i > 0) {
      EXPECT_GT(samples[i].t_s, samples[i - 1].t_s);
      // the short last interval is merged: none is under half the sampling interval
      EXPECT_GE(length, 0.5 * std::chrono::duration<double>(kInterval).count());
    }
    // (the first interval starts at the first reading, right after `origin`)
    for (int d = 0; d < 2; ++d) weighted[d] += samples[i].share[d] * length;
    total_s += length;
    previous_s = samples[i].t_s;
  }
  EXPECT_NEAR(weighted[0] / total_s, kShareD0, kTolerance);
  EXPECT_NEAR(weighted[1] / total_s, kShareD1, kTolerance);
  EXPECT_TRUE(sampler.stop().empty());  // once only
}

TEST(BenchBusySampler, AReaderThatThrowsEndsTheSamples) {
  std::atomic<int> calls{0};
  const Clock::time_point origin = Clock::now();
  BusySampler sampler(
      [&] {
        if (++calls > 3) throw std::runtime_error("gone");
        return std::vector<uint64_t>{static_cast<uint64_t>(calls.load())};
      },
      origin, kInterval);
  std::this_thread::sleep_for(20 * kInterval);  // the thread's two readings, then the throw
  const std::vector<BusySample> samples = sampler.stop();
  EXPECT_EQ(samples.size(), 2u);  // three readings, two intervals; stop() reads no more
}

constexpr uint64_t kNs100Ms = 100'000'000;

// Readings every 100 ms, t = 0, 0.1, ...; busy_ns[i] the cumulative busy time of one device.
std::vector<BusyReading> every_100ms(const std::vector<uint64_t>& busy_ns) {
  std::vector<BusyReading> out;
  for (std::size_t i = 0; i < busy_ns.size(); ++i) out.push_back({0.1 * static_cast<double>(i), {busy_ns[i]}});
  return out;
}

std::vector<double> shares(const std::vector<BusySample>& samples, std::size_t device = 0) {
  std::vector<double> out;
  for (const BusySample& s : samples) out.push_back(s.share.at(device));
  return out;
}

void expect_shares(const std::vector<BusySample>& samples, const std::vector<double>& want) {
  const std::vector<double> got = shares(samples);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-9) << "interval " << i;
}

TEST(BenchBusyShares, OneWorkerProofsFillTheTimeBeforeTheyAreCounted) {
  // Two 300 ms proofs, counted at t = 0.4 and t = 0.7, the device idle in [0, 0.1] and after.
  const uint64_t p = 3 * kNs100Ms;
  const auto samples = busy_shares(every_100ms({0, 0, 0, 0, p, p, p, 2 * p, 2 * p}));
  expect_shares(samples, {0, 1, 1, 1, 1, 1, 1, 0});
  EXPECT_EQ(samples[3].busy_ns, std::vector<uint64_t>{p});  // the reading, as read
  EXPECT_NEAR(samples.back().t_s, 0.8, 1e-9);
}

TEST(BenchBusyShares, OverlappingWorkersStackAndTheWindowIsBounded) {
  // Two 200 ms proofs at once, counted at t = 0.2: a share of 2 over [0, 0.2].
  expect_shares(busy_shares(every_100ms({0, 0, 4 * kNs100Ms})), {2, 2});
  // A 100 ms proof counted at t = 0.5 began no earlier than 0.3: not spread over the idle past.
  expect_shares(busy_shares(every_100ms({0, 0, 0, 0, 0, kNs100Ms})), {0, 0, 0, 0, 1});
}

TEST(BenchBusyShares, DevicesMissingFromAReadingCountAsZero) {
  const auto samples = busy_shares({{0.0, {0}}, {0.1, {kNs100Ms / 2, kNs100Ms}}});
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_NEAR(samples[0].share[0], 0.5, 1e-9);
  EXPECT_NEAR(samples[0].share[1], 1.0, 1e-9);
  EXPECT_TRUE(busy_shares({{0.0, {0}}}).empty());
}

PointResult sampled_point() {
  PointResult r;
  r.point = {1, 1, 1};
  r.busy_samples = {{0.1, {0.5, 1.0}, {50, 100}}, {0.2, {0.75, 0.0}, {125, 100}}};
  return r;
}

TEST(BenchBusySampler, JsonAndSvgCarryTheSamples) {
  BenchInfo info;
  const std::string json = format_json(info, {sampled_point(), sampled_point()});
  EXPECT_NE(json.find("\"busy_samples\":[{\"point\":0,\"t_s\":0.100000,\"busy\":[0.5000,1.0000],\"busy_ns\":[50,100]},"
                      "{\"point\":0,\"t_s\":0.200000,\"busy\":[0.7500,0.0000],\"busy_ns\":[125,100]},{\"point\":1,"),
            std::string::npos)
      << json;
  const std::string svg = format_svg(info, {sampled_point()});
  EXPECT_NE(svg.find("id=\"busy-d0\""), std::string::npos);
  EXPECT_NE(svg.find("id=\"busy-d1\""), std::string::npos);
  EXPECT_EQ(svg.find("id=\"busy-d2\""), std::string::npos);
  EXPECT_NE(svg.find("Device busy over time"), std::string::npos);
  const std::string bare = format_svg(info, {PointResult{}});
  EXPECT_EQ(bare.find("busy-d0"), std::string::npos);
  EXPECT_NE(bare.find("no busy samples"), std::string::npos);
}

TEST(BenchReport, SyntheticKeyGenerationIsReported) {
  BenchInfo info;
  info.keygen_s = 1.5;
  info.keygen_threads = 2;
  EXPECT_NE(format_json(info, {}).find("\"keygen_s\":1.500000,\"keygen_threads\":2"), std::string::npos);
  EXPECT_NE(format_table(info, {}).find("generated in 1.500 s on 2 thread(s); INSECURE"), std::string::npos);
  const BenchInfo files;  // --key: no keygen fields
  EXPECT_EQ(format_json(files, {}).find("keygen"), std::string::npos);
}

}  // namespace
}  // namespace zkp::cli::bench
