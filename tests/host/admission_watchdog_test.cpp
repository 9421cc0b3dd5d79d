// The admission watchdog (host/src/admission_watchdog.hpp) in virtual
// time: when it reports, how often, and what ends a stall.
#include "admission_watchdog.hpp"

#include <gtest/gtest.h>

namespace zkp::host {
namespace {

constexpr uint64_t kMs = 1'000'000;
constexpr uint64_t kS = 1'000 * kMs;

TEST(AdmissionWatchdog, ReportsOnceWhenAStallOutlastsTheThreshold) {
  AdmissionWatchdog w(30 * kS);
  EXPECT_EQ(w.deadline_ns(), AdmissionWatchdog::kNever);
  EXPECT_FALSE(w.stalled(5 * kS));  // the stall starts here
  EXPECT_EQ(w.deadline_ns(), 35 * kS);
  EXPECT_FALSE(w.stalled(34 * kS));
  EXPECT_TRUE(w.stalled(35 * kS));
  EXPECT_EQ(w.stalls(), 1u);
  EXPECT_EQ(w.stalled_for_ns(35 * kS), 30 * kS);
  // The same stall is not reported again, however long it lasts.
  EXPECT_FALSE(w.stalled(100 * kS));
  EXPECT_FALSE(w.stalled(1000 * kS));
  EXPECT_EQ(w.deadline_ns(), AdmissionWatchdog::kNever);
  EXPECT_EQ(w.stalls(), 1u);
}

TEST(AdmissionWatchdog, AnAdmissionOrAPipelineThatCannotAdmitEndsTheStall) {
  AdmissionWatchdog w(30 * kS);
  EXPECT_FALSE(w.stalled(0));
  EXPECT_TRUE(w.stalled(30 * kS));
  w.admitted(40 * kS);  // a new stall may start and be reported
  EXPECT_FALSE(w.stalled(40 * kS));
  EXPECT_TRUE(w.stalled(70 * kS));
  EXPECT_EQ(w.stalls(), 2u);
  w.not_admissible();  // the budget filled up: not the pacer's doing
  EXPECT_FALSE(w.stalled(80 * kS));
  EXPECT_FALSE(w.stalled(109 * kS));
  EXPECT_TRUE(w.stalled(110 * kS));
  EXPECT_EQ(w.stalls(), 3u);
}

TEST(AdmissionWatchdog, ThresholdIsTwentyOfThePacersLastIntervalsWhenLonger) {
  AdmissionWatchdog w(30 * kS);
  w.admitted(0);
  w.admitted(500 * kMs);  // 0.5 s apart: 20 x 0.5 s = 10 s, under the 30 s floor
  EXPECT_EQ(w.threshold_ns(), 30 * kS);
  w.admitted(60500 * kMs);  // 60 s apart (a fixed pacer at 60 s): 20 minutes
  EXPECT_EQ(w.threshold_ns(), 20 * 60 * kS);
  EXPECT_FALSE(w.stalled(61 * kS));
  EXPECT_FALSE(w.stalled(61 * kS + 19 * 60 * kS));
  EXPECT_TRUE(w.stalled(61 * kS + 20 * 60 * kS));
}

TEST(AdmissionWatchdog, ZeroTurnsItOff) {
  AdmissionWatchdog w(0);
  EXPECT_FALSE(w.stalled(0));
  EXPECT_FALSE(w.stalled(1'000'000 * kS));
  EXPECT_EQ(w.deadline_ns(), AdmissionWatchdog::kNever);
  EXPECT_EQ(w.stalls(), 0u);
}

}  // namespace
}  // namespace zkp::host
