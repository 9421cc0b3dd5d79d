// log_format: how the process's log lines look on stderr (the host key log_format, and
// `zkpipe serve`'s serve.log_format, which is the same switch).
//
//   text  [time] [zkpipe] [level] message
//   json  one JSON object per line, for a log shipper (journald, Loki, an ELK pipeline):
//           {"time":"2026-12-02T07:01:02.345Z","level":"info","logger":"zkpipe",
//            "message":"...","job":12,"partition":3,"gpu_index":0}
//         time is UTC (RFC 3339, milliseconds); level is the log_level name (trace, debug,
//         info, warn, error). job, partition, gpu_index and key are there when the message
//         names them ("job 12", "partition 3", "device 0", "key 2"), as numbers. Text that
//         is not UTF-8 is written as U+FFFD, so every line parses.
//
// The format belongs to the process's one logger (logging.hpp), so it holds for every host
// in the process. Lines routed to a caller's sink (zkp_host_set_log_sink) are not formatted:
// the caller gets the fields.
#pragma once

#include <spdlog/common.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace zkp::host {

enum class LogFormat { text, json };

// "text" or "json"; nullopt otherwise.
std::optional<LogFormat> parse_log_format(std::string_view name);

// One log line as json writes it, without the newline.
std::string json_log_line(std::chrono::system_clock::time_point time, spdlog::level::level_enum level,
                          std::string_view logger, std::string_view message);

// Makes the "zkpipe" logger write `format` on stderr from now on.
void apply_log_format(LogFormat format);
// The format apply_log_format last set (text until then): what a program's own last words on
// stderr (a command's failure) follow, so a JSON pipeline reads them too.
LogFormat current_log_format();

}  // namespace zkp::host
