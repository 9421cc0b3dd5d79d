// zkp_host_set_log_sink through libzkpipe, as a Rust or Go caller uses it: the host's own
// lines reach the callback with their level, name and time; min_level filters; NULL gives
// stderr back; set() waits for a callback in flight. Labelled pipeline, so CI runs it under
// ThreadSanitizer too (hosts log from their threads while the sink changes).
#include "host_test_support.hpp"

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace zkp::test {
namespace {

struct Line {
  zkp_log_level_t level;
  std::string logger;
  std::string message;
  uint64_t unix_time_ns;
};

struct Collector {
  std::mutex mutex;
  std::vector<Line> lines;
  std::atomic<bool> retired{false};      // set after the sink moved on: no call may follow
  std::atomic<int> calls_after_retire{0};

  bool has(zkp_log_level_t level, const std::string& text) {
    const std::lock_guard lock(mutex);
    for (const Line& l : lines) {
      if (l.level == level && l.message.find(text) != std::string::npos) return true;
    }
    return false;
  }
};

void ZKP_CALL collect(void* user_data, const zkp_log_record_t* record) {
  auto* c = static_cast<Collector*>(user_data);
  if (c->retired.load()) c->calls_after_retire.fetch_add(1);
  const std::lock_guard lock(c->mutex);
  c->lines.push_back({record->level, record->logger, std::string(record->message, record->message_size),
                      record->unix_time_ns});
}

zkp_status_t set_sink(zkp_log_callback_t callback, void* user_data, zkp_log_level_t min_level,
                      std::string* message = nullptr) {
  zkp_error_t err = make_error();
  const zkp_status_t s = zkp_host_set_log_sink(callback, user_data, min_level, &err);
  if (message != nullptr) *message = err.message;
  return s;
}

// Every test leaves stderr as the sink, whatever it asserted.
class LogSink : public ::testing::Test {
 protected:
  void TearDown() override { EXPECT_EQ(set_sink(nullptr, nullptr, ZKP_LOG_TRACE), ZKP_OK); }
};

uint64_t now_unix_ns() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

TEST_F(LogSink, ReceivesTheHostsReadyLineAtInfo) {
  Collector c;
  ASSERT_EQ(set_sink(collect, &c, ZKP_LOG_TRACE), ZKP_OK);
  const uint64_t before = now_unix_ns();
  { HostPtr host = must_create({"prover=sim", "pacer=greedy", "log_level=info"}); }
  const uint64_t after = now_unix_ns();
  ASSERT_TRUE(c.has(ZKP_LOG_INFO, "host ready: prover 'sim"));
  ASSERT_TRUE(c.has(ZKP_LOG_INFO, "machine defaults: synthesis_threads "));
  const std::lock_guard lock(c.mutex);
  for (const Line& l : c.lines) {
    EXPECT_EQ(l.logger, "zkpipe");
    EXPECT_EQ(l.message.find('\n'), std::string::npos) << l.message;
    EXPECT_GE(l.unix_time_ns, before);
    EXPECT_LE(l.unix_time_ns, after);
  }
}

TEST_F(LogSink, MinLevelDropsLowerLines) {
  Collector c;
  ASSERT_EQ(set_sink(collect, &c, ZKP_LOG_WARN), ZKP_OK);
  { HostPtr host = must_create({"prover=sim", "pacer=greedy", "log_level=info"}); }
  const std::lock_guard lock(c.mutex);
  for (const Line& l : c.lines) EXPECT_GE(l.level, ZKP_LOG_WARN) << l.message;
}

TEST_F(LogSink, HostLogLevelFiltersFirst) {
  Collector c;
  ASSERT_EQ(set_sink(collect, &c, ZKP_LOG_TRACE), ZKP_OK);
  { HostPtr host = must_create({"prover=sim", "pacer=greedy", "log_level=warn"}); }
  EXPECT_FALSE(c.has(ZKP_LOG_INFO, "host ready"));
}

TEST_F(LogSink, NullGivesStderrBack) {
  Collector c;
  ASSERT_EQ(set_sink(collect, &c, ZKP_LOG_TRACE), ZKP_OK);
  ASSERT_EQ(set_sink(nullptr, nullptr, ZKP_LOG_TRACE), ZKP_OK);
  ::testing::internal::CaptureStderr();
  { HostPtr host = must_create({"prover=sim", "pacer=greedy", "log_level=info"}); }
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("[info] host ready: prover 'sim"), std::string::npos) << err;
  const std::lock_guard lock(c.mutex);
  EXPECT_TRUE(c.lines.empty());
}

TEST_F(LogSink, RefusesALevelOutsideTheRange) {
  Collector c;
  std::string message;
  EXPECT_EQ(set_sink(collect, &c, 7, &message), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_NE(message.find("min_level 7"), std::string::npos) << message;
  EXPECT_EQ(set_sink(collect, &c, -1, &message), ZKP_ERR_INVALID_ARGUMENT);
}

struct Reentrant {
  std::atomic<zkp_status_t> status{ZKP_OK};
  std::atomic<int> calls{0};
};

void ZKP_CALL set_from_inside(void* user_data, const zkp_log_record_t*) {
  auto* r = static_cast<Reentrant*>(user_data);
  if (r->calls.fetch_add(1) == 0) r->status = zkp_host_set_log_sink(nullptr, nullptr, ZKP_LOG_TRACE, nullptr);
}

TEST_F(LogSink, RefusesACallFromInsideTheCallback) {
  Reentrant r;
  ASSERT_EQ(set_sink(set_from_inside, &r, ZKP_LOG_TRACE), ZKP_OK);
  { HostPtr host = must_create({"prover=sim", "pacer=greedy", "log_level=info"}); }
  EXPECT_GT(r.calls.load(), 0);
  EXPECT_EQ(r.status.load(), ZKP_ERR_INVALID_ARGUMENT);
}

// Hosts log from their threads while the sink moves between collectors: once set() returns,
// the previous collector is never called again (so its memory could be freed).
TEST_F(LogSink, SwitchingWhileHostsLogNeverCallsARetiredSink) {
  constexpr int kSwitches = 50;
  std::vector<std::unique_ptr<Collector>> collectors;
  for (int i = 0; i < kSwitches; ++i) collectors.push_back(std::make_unique<Collector>());
  std::atomic<bool> done{false};
  std::thread hosts([&] {
    while (!done.load()) {
      HostPtr host = must_create({"prover=sim", "pacer=greedy", "log_level=info", "prover.gpu_ms=1"});
    }
  });
  for (int i = 0; i < kSwitches; ++i) {
    ASSERT_EQ(set_sink(collect, collectors[static_cast<size_t>(i)].get(), ZKP_LOG_TRACE), ZKP_OK);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (i > 0) collectors[static_cast<size_t>(i - 1)]->retired = true;
  }
  ASSERT_EQ(set_sink(nullptr, nullptr, ZKP_LOG_TRACE), ZKP_OK);
  collectors.back()->retired = true;
  done = true;
  hosts.join();
  size_t received = 0;
  for (const auto& c : collectors) {
    EXPECT_EQ(c->calls_after_retire.load(), 0);
    received += c->lines.size();
  }
  EXPECT_GT(received, 0u);
}

}  // namespace
}  // namespace zkp::test
