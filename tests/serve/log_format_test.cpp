// serve.log_format = json (host/serve/log_format.hpp): one line as json_log_line writes it,
// compared exactly: the time in UTC with milliseconds, the level's name, escapes, text that is
// not UTF-8, and the fields taken from what the message names (whole words only, numbers
// without leading zeros, device N as gpu_index).
#include "log_format.hpp"

#include <gtest/gtest.h>

namespace zkp::serve {
namespace {

// 2026-12-02T07:01:02.345Z
const auto kTime = std::chrono::system_clock::time_point(std::chrono::milliseconds(1'796'194'862'345));

std::string line(std::string_view message, spdlog::level::level_enum level = spdlog::level::info) {
  return json_log_line(kTime, level, "zkpipe", message);
}

TEST(LogFormat, Parse) {
  EXPECT_EQ(parse_log_format("text"), LogFormat::text);
  EXPECT_EQ(parse_log_format("json"), LogFormat::json);
  EXPECT_FALSE(parse_log_format("JSON"));
  EXPECT_FALSE(parse_log_format(""));
}

TEST(LogFormat, TimeLevelAndMessage) {
  EXPECT_EQ(line("serve: stopped"),
            R"({"time":"2026-12-02T07:01:02.345Z","level":"info","logger":"zkpipe","message":"serve: stopped"})");
  EXPECT_EQ(line("x", spdlog::level::err), R"({"time":"2026-12-02T07:01:02.345Z","level":"error","logger":"zkpipe","message":"x"})");
  EXPECT_EQ(line("x", spdlog::level::warn), R"({"time":"2026-12-02T07:01:02.345Z","level":"warn","logger":"zkpipe","message":"x"})");
}

TEST(LogFormat, Escapes) {
  const std::string prefix = R"({"time":"2026-12-02T07:01:02.345Z","level":"info","logger":"zkpipe","message":)";
  EXPECT_EQ(line("a \"quoted\" \\path\\\n\ttab\r\x01\x7f"), prefix + R"("a \"quoted\" \\path\\\n\ttab\r\u0001\u007f"})");
  EXPECT_EQ(line("caf\xc3\xa9 \xe2\x82\xac"), prefix + "\"caf\xc3\xa9 \xe2\x82\xac\"}");  // UTF-8 kept as it is
  EXPECT_EQ(line("bad \xff \xc3 \xed\xa0\x80!"), prefix + R"("bad \ufffd \ufffd \ufffd\ufffd\ufffd!"})");  // not UTF-8
}

TEST(LogFormat, FieldsFromTheMessage) {
  const std::string prefix = R"({"time":"2026-12-02T07:01:02.345Z","level":"info","logger":"zkpipe","message":)";
  EXPECT_EQ(line("serve: job 12 partition 3 failed on device 0: [ZKP_ERR_BAD_INPUT] short"),
            prefix + R"("serve: job 12 partition 3 failed on device 0: [ZKP_ERR_BAD_INPUT] short","job":12,"partition":3,"gpu_index":0})");
  EXPECT_EQ(line("serve: key 007 unloaded"), prefix + R"("serve: key 007 unloaded","key":7})");
  // Not whole words, or no number after them: nothing taken.
  EXPECT_EQ(line("serve.key 5, subjob 4, partition x, device -1, job 3rd"),
            prefix + R"("serve.key 5, subjob 4, partition x, device -1, job 3rd"})");
  // The first device or gpu wins: one gpu_index.
  EXPECT_EQ(line("device 1 then gpu 2"), prefix + R"("device 1 then gpu 2","gpu_index":1})");
}

}  // namespace
}  // namespace zkp::serve
