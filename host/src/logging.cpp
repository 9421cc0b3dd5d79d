#include <zkpipe/host/logging.hpp>

#include "log_sink.hpp"

#include <array>
#include <utility>

namespace zkp::host {

namespace {

constexpr std::array<std::pair<const char*, spdlog::level::level_enum>, 6> kLevels{{
    {"trace", spdlog::level::trace},
    {"debug", spdlog::level::debug},
    {"info", spdlog::level::info},
    {"warn", spdlog::level::warn},
    {"error", spdlog::level::err},
    {"off", spdlog::level::off},
}};

struct ProcessLogger {
  std::shared_ptr<LogSink> sink;  // null when another copy of the host core made the logger
  std::shared_ptr<spdlog::logger> logger;
};

ProcessLogger make_logger() {
  // Another library in the process may have created it already (the registry is shared).
  if (auto existing = spdlog::get("zkpipe")) return {nullptr, existing};
  auto sink = std::make_shared<LogSink>();
  auto logger = std::make_shared<spdlog::logger>("zkpipe", sink);
  logger->set_pattern(kTextPattern);
  spdlog::register_logger(logger);
  return {sink, logger};
}

const ProcessLogger& process_logger() {
  static const ProcessLogger process = make_logger();
  return process;
}

}  // namespace

spdlog::logger& log() { return *process_logger().logger; }

LogSink* log_sink() { return process_logger().sink.get(); }

std::optional<spdlog::level::level_enum> parse_log_level(std::string_view name) {
  for (const auto& [text, level] : kLevels) {
    if (name == text) return level;
  }
  return std::nullopt;
}

const char* log_level_name(spdlog::level::level_enum level) {
  for (const auto& [text, value] : kLevels) {
    if (value == level) return text;
  }
  return "info";
}

spdlog::level::level_enum from_plugin_level(zkp_log_level_t level) {
  switch (level) {
    case ZKP_LOG_TRACE: return spdlog::level::trace;
    case ZKP_LOG_DEBUG: return spdlog::level::debug;
    case ZKP_LOG_INFO: return spdlog::level::info;
    case ZKP_LOG_WARN: return spdlog::level::warn;
    default: return spdlog::level::err;
  }
}

}  // namespace zkp::host
