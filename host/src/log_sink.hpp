// Where the process's log lines go: stderr, or a caller's callback (zkp_host_set_log_sink,
// zkp_host.h, says what a caller may rely on). The "zkpipe" logger (logging.hpp) has this one
// sink; it forwards each line to stderr (formatted: log_format.hpp) or hands its fields to the
// callback (unformatted: the caller's logger formats).
//
// Calls of the callback run on the thread that logged, under a shared lock, so lines from
// several threads reach it at once and nothing queues: set() takes the lock exclusively, which
// is how it knows the previous callback has returned. A line logged from inside the callback
// (the callback called into the host) goes to stderr, since taking the shared lock again on
// that thread could wait behind a set() that waits for this very call.
#pragma once

#include <zkpipe/zkp_host.h>

#include <spdlog/sinks/sink.h>

#include <memory>
#include <shared_mutex>
#include <string>

namespace zkp::host {

class LogSink final : public spdlog::sinks::sink {
 public:
  LogSink();

  // Routes lines at min_level and above to `callback` (NULL: back to stderr). Throws
  // sdk::Error(ZKP_ERR_INVALID_ARGUMENT) for a bad min_level or a call from inside the callback.
  void set(zkp_log_callback_t callback, void* user_data, zkp_log_level_t min_level);

  void log(const spdlog::details::log_msg& msg) override;
  void flush() override;
  void set_pattern(const std::string& pattern) override;
  void set_formatter(std::unique_ptr<spdlog::formatter> formatter) override;

 private:
  std::shared_ptr<spdlog::sinks::sink> stderr_;
  std::shared_mutex mutex_;  // shared: a call of the callback; exclusive: set()
  zkp_log_callback_t callback_ = nullptr;
  void* user_data_ = nullptr;
  zkp_log_level_t min_level_ = ZKP_LOG_TRACE;
};

// The level a caller's sink receives for an spdlog level (critical is ZKP_LOG_ERROR).
zkp_log_level_t to_plugin_level(spdlog::level::level_enum level);

}  // namespace zkp::host
