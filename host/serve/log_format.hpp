// serve.log_format: how `zkpipe serve` writes its log lines on stderr.
//
//   text  the host's lines as every zkpipe command writes them: [time] [zkpipe] [level] message
//   json  one JSON object per line, for a log shipper (journald, Loki, an ELK pipeline):
//           {"time":"2026-12-02T07:01:02.345Z","level":"info","logger":"zkpipe",
//            "message":"...","job":12,"partition":3,"gpu_index":0}
//         time is UTC (RFC 3339, milliseconds); level is the log_level name (trace, debug,
//         info, warn, error). job, partition, gpu_index and key are there when the message
//         names them ("job 12", "partition 3", "device 0", "key 2"), as numbers. Text that
//         is not UTF-8 is written as U+FFFD, so every line parses.
//
// The format is the process's logger's (one logger for the host and the service), chosen at
// start; SIGHUP does not change it (it takes a restart, and the reload says so).
#pragma once

#include <spdlog/details/log_msg.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace zkp::serve {

enum class LogFormat { text, json };

// "text" or "json"; nullopt otherwise.
std::optional<LogFormat> parse_log_format(std::string_view name);

// One log line as json writes it, without the newline.
std::string json_log_line(std::chrono::system_clock::time_point time, spdlog::level::level_enum level,
                          std::string_view logger, std::string_view message);

// Makes the "zkpipe" logger write `format` from now on (text leaves it as it is).
void apply_log_format(LogFormat format);

}  // namespace zkp::serve
