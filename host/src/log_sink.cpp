#include "log_sink.hpp"

#include <zkpipe/sdk/error.hpp>

#include <spdlog/details/log_msg.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <chrono>
#include <mutex>
#include <string>

namespace zkp::host {

namespace {

// Set while this thread runs the caller's callback (the header says why it matters).
thread_local bool tl_in_callback = false;

class CallbackScope {
 public:
  CallbackScope() { tl_in_callback = true; }
  ~CallbackScope() { tl_in_callback = false; }
  CallbackScope(const CallbackScope&) = delete;
  CallbackScope& operator=(const CallbackScope&) = delete;
};

}  // namespace

zkp_log_level_t to_plugin_level(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace: return ZKP_LOG_TRACE;
    case spdlog::level::debug: return ZKP_LOG_DEBUG;
    case spdlog::level::info: return ZKP_LOG_INFO;
    case spdlog::level::warn: return ZKP_LOG_WARN;
    default: return ZKP_LOG_ERROR;
  }
}

LogSink::LogSink() : stderr_(std::make_shared<spdlog::sinks::stderr_color_sink_mt>()) {}

void LogSink::set(zkp_log_callback_t callback, void* user_data, zkp_log_level_t min_level) {
  if (tl_in_callback) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT,
                     "zkp_host_set_log_sink: called from inside the log callback (it would wait for itself)");
  }
  if (callback != nullptr && (min_level < ZKP_LOG_TRACE || min_level > ZKP_LOG_ERROR)) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_host_set_log_sink: min_level " + std::to_string(min_level) +
                                                   " is not a ZKP_LOG_* level (0..4)");
  }
  const std::unique_lock lock(mutex_);
  callback_ = callback;
  user_data_ = callback == nullptr ? nullptr : user_data;
  min_level_ = min_level;
}

void LogSink::log(const spdlog::details::log_msg& msg) {
  if (tl_in_callback) {
    stderr_->log(msg);
    return;
  }
  const std::shared_lock lock(mutex_);
  if (callback_ == nullptr) {
    stderr_->log(msg);
    return;
  }
  const zkp_log_level_t level = to_plugin_level(msg.level);
  if (level < min_level_) return;
  // The payload and the name are views without a NUL; the record promises C strings.
  const std::string logger(msg.logger_name.data(), msg.logger_name.size());
  const std::string message(msg.payload.data(), msg.payload.size());
  auto record = sdk::make_struct<zkp_log_record_t>();
  record.level = level;
  record.logger = logger.c_str();
  record.message = message.c_str();
  record.message_size = message.size();
  record.unix_time_ns = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(msg.time.time_since_epoch()).count());
  const CallbackScope scope;
  callback_(user_data_, &record);
}

void LogSink::flush() { stderr_->flush(); }

void LogSink::set_pattern(const std::string& pattern) { stderr_->set_pattern(pattern); }

void LogSink::set_formatter(std::unique_ptr<spdlog::formatter> formatter) {
  stderr_->set_formatter(std::move(formatter));
}

}  // namespace zkp::host
