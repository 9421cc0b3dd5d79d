// services/duration: the one parser of every duration flag and key (issue 36: "inf", "nan" and
// "1e300" went through an unchecked double-to-integer conversion and timed out at once).
#include "services/duration.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace {

using namespace std::chrono_literals;
using zkp::services::DurationUnit;
using zkp::services::kMaxDuration;
using zkp::services::parse_duration;

TEST(Duration, NumbersAndUnits) {
  EXPECT_EQ(parse_duration("2", DurationUnit::seconds), 2000ms);
  EXPECT_EQ(parse_duration("2", DurationUnit::milliseconds), 2ms);
  EXPECT_EQ(parse_duration("1.5", DurationUnit::seconds), 1500ms);
  EXPECT_EQ(parse_duration("0.0001", DurationUnit::seconds), 1ms);  // rounded up: never 0 for a positive one
  EXPECT_EQ(parse_duration("0", DurationUnit::seconds), 0ms);
  EXPECT_EQ(parse_duration("500ms", DurationUnit::seconds), 500ms);
  EXPECT_EQ(parse_duration("30s", DurationUnit::milliseconds), 30s);
  EXPECT_EQ(parse_duration("2m", DurationUnit::seconds), 2min);
  EXPECT_EQ(parse_duration("1h", DurationUnit::seconds), 1h);
  EXPECT_EQ(parse_duration("720h", DurationUnit::seconds), kMaxDuration);
}

TEST(Duration, WhatIsNoDurationSaysWhy) {
  const auto why = [](const char* text) {
    std::string reason;
    EXPECT_EQ(parse_duration(text, DurationUnit::seconds, &reason), std::nullopt) << text;
    return reason;
  };
  for (const char* text : {"inf", "nan", "", ".", "+1", "infinity", "NaN", " 1"}) {
    EXPECT_NE(why(text).find("is not a duration"), std::string::npos) << text;
  }
  EXPECT_EQ(why("-1"), "is negative");
  EXPECT_NE(why("1e300").find("unknown unit 'e300'"), std::string::npos);
  EXPECT_NE(why("5x").find("unknown unit 'x'"), std::string::npos);
  EXPECT_NE(why("2592001").find("is more than 30 days"), std::string::npos);
  EXPECT_NE(why("721h").find("is more than 30 days"), std::string::npos);
  EXPECT_NE(why("99999999999999999999").find("more digits"), std::string::npos);
}

}  // namespace
