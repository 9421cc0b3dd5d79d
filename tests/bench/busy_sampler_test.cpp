// GPU busy over time without a device: busy_shares() on made-up readings places each proof's
// time just before the reading that saw it (one worker, two overlapping workers, the window
// limit); a BusySampler over a fake reader whose busy time is a known fraction of the time
// elapsed gives that share per device, in increasing time; a reader that throws ends the
// samples; the JSON and the SVG carry them. The sampler runs on a hand-moved clock and the test
// takes its readings (BusySampler::Drive::caller): no sleep, no count of a thread's readings.
#include "bench/busy_sampler.hpp"
#include "bench/report.hpp"
#include "bench/svg_chart.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace zkp::cli::bench {
namespace {

using Clock = BusySampler::Clock;
using Drive = BusySampler::Drive;
using std::chrono::milliseconds;

constexpr milliseconds kInterval{20};
constexpr double kShareD0 = 0.25, kShareD1 = 1.5;  // device 1: two workers overlapping

// A clock the test moves by hand: the sampler's readings and the fake reader both read it.
struct HandClock {
  Clock::time_point t{};  // the epoch of steady_clock: any fixed point will do
  BusySampler::Now now() {
    return [this] { return t; };
  }
};

// busy_ns = share x nanoseconds since `start` on the hand clock, exactly what a device busy
// that share of the time would report.
BusySampler::Reader steady_reader(const HandClock& clock, Clock::time_point start) {
  return [&clock, start] {
    const double ns = std::chrono::duration<double, std::nano>(clock.t - start).count();
    return std::vector<uint64_t>{static_cast<uint64_t>(kShareD0 * ns), static_cast<uint64_t>(kShareD1 * ns)};
  };
}

// Driven by the test (Drive::caller) on a hand clock: ten readings 20 ms apart after the first,
// then stop() 5 ms after the last, less than half an interval, so that last reading is replaced
// by stop()'s. Exactly 10 samples, each the exact share, whatever the machine's load (the old
// test slept 200 ms and counted the thread's readings: 3 instead of 5 on a loaded machine).
TEST(BenchBusySampler, SharesPerDeviceInIncreasingTime) {
  HandClock clock;
  const Clock::time_point origin = clock.t;
  BusySampler sampler(steady_reader(clock, origin), origin, kInterval, clock.now(), Drive::caller);
  for (int i = 0; i < 10; ++i) {
    clock.t += kInterval;
    sampler.sample();
  }
  clock.t += milliseconds(5);
  const std::vector<BusySample> samples = sampler.stop();
  ASSERT_EQ(samples.size(), 10u);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double end_s = i + 1 < samples.size() ? 0.020 * static_cast<double>(i + 1) : 0.205;  // the tail merged
    EXPECT_NEAR(samples[i].t_s, end_s, 1e-9) << "sample " << i;
    if (i > 0) {
      EXPECT_GT(samples[i].t_s, samples[i - 1].t_s);
    }
    ASSERT_EQ(samples[i].share.size(), 2u);
    EXPECT_NEAR(samples[i].share[0], kShareD0, 1e-6) << "sample " << i;
    EXPECT_NEAR(samples[i].share[1], kShareD1, 1e-6) << "sample " << i;
  }
  EXPECT_TRUE(sampler.stop().empty());  // once only
  sampler.sample();                     // nothing after stop()
}

TEST(BenchBusySampler, AReaderThatThrowsEndsTheSamples) {
  HandClock clock;
  int calls = 0;
  BusySampler sampler(
      [&] {
        if (++calls > 3) throw std::runtime_error("gone");
        return std::vector<uint64_t>{static_cast<uint64_t>(calls)};
      },
      clock.t, kInterval, clock.now(), Drive::caller);
  for (int i = 0; i < 4; ++i) {  // two readings after the constructor's, then the throw
    clock.t += kInterval;
    sampler.sample();
  }
  clock.t += kInterval;
  sampler.sample();  // the reader is not called again
  const std::vector<BusySample> samples = sampler.stop();
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(samples.size(), 2u);  // three readings, two intervals; stop() reads no more
}

// The bench's drive, a thread of the sampler's own: with an interval far longer than the test
// it takes no reading of its own, and stop() ends it at once with its first and last readings
// (a hang here would be a thread that misses the stop).
TEST(BenchBusySampler, TheThreadDriveEndsAtStop) {
  HandClock clock;
  const Clock::time_point origin = clock.t;
  BusySampler sampler(steady_reader(clock, origin), origin, std::chrono::hours(1), clock.now(), Drive::thread);
  clock.t += std::chrono::seconds(1);
  const std::vector<BusySample> samples = sampler.stop();
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_NEAR(samples[0].t_s, 1.0, 1e-9);
  EXPECT_NEAR(samples[0].share[1], kShareD1, 1e-6);
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
