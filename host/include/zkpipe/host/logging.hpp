// Logging: one spdlog logger named "zkpipe", writing to stderr (or to the caller's
// callback: log_sink.hpp), shared by every host in the process. Plugins log through
// zkp_host_services_t.log; their lines carry the plugin's name (see host_services.hpp).
#pragma once

#include <zkpipe/zkp_common.h>

#include <spdlog/spdlog.h>

#include <memory>
#include <optional>
#include <string_view>

namespace zkp::host {

class LogSink;

// The text format's pattern: [time] [logger] [level] message.
inline constexpr const char* kTextPattern = "[%H:%M:%S.%e] [%n] [%^%l%$] %v";

// The "zkpipe" logger; created on first use, never destroyed before exit.
spdlog::logger& log();

// The sink of log(); nullptr when the "zkpipe" logger was already registered by another copy
// of the host core in the process (then its lines cannot be routed from this one).
LogSink* log_sink();

// "trace", "debug", "info", "warn", "error", "off" → the spdlog level; nullopt otherwise.
std::optional<spdlog::level::level_enum> parse_log_level(std::string_view name);

// The name parse_log_level accepts for `level`.
const char* log_level_name(spdlog::level::level_enum level);

// A plugin's ZKP_LOG_* level as an spdlog level (unknown values log as errors, so a
// plugin bug is visible rather than silent).
spdlog::level::level_enum from_plugin_level(zkp_log_level_t level);

}  // namespace zkp::host
