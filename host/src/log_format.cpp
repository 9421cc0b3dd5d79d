#include <zkpipe/host/log_format.hpp>

#include <zkpipe/host/logging.hpp>

#include <spdlog/details/log_msg.h>

#include <spdlog/formatter.h>

#include "core/formats/json.hpp"

#include <array>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>

namespace zkp::host {

namespace {

// The numbered things a host's message names, and the JSON field each becomes. "device N" is
// how the host names a GPU (its index), so it is gpu_index.
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kFields{{
    {"job", "job"},
    {"partition", "partition"},
    {"device", "gpu_index"},
    {"gpu", "gpu_index"},
    {"key", "key"},
}};

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-'; }

// The number after the first "WORD N" in `text` (WORD a whole word), or nullopt.
std::optional<std::string_view> number_after(std::string_view text, std::string_view word) {
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const size_t end = at + word.size();
    if (at > 0 && word_char(text[at - 1])) continue;
    if (end + 1 >= text.size() || text[end] != ' ') continue;
    size_t digits = end + 1;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])) != 0) ++digits;
    if (digits == end + 1 || digits - end - 1 > 18) continue;  // no number, or more than fits
    if (digits < text.size() && word_char(text[digits]) && text[digits] != '.') continue;  // "3rd", "2x"
    return text.substr(end + 1, digits - end - 1);
  }
  return std::nullopt;
}

class JsonFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    const std::string line = json_log_line(msg.time, msg.level, std::string_view(msg.logger_name.data(), msg.logger_name.size()),
                                           std::string_view(msg.payload.data(), msg.payload.size()));
    dest.append(line.data(), line.data() + line.size());
    dest.push_back('\n');
  }
  std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<JsonFormatter>(); }
};

}  // namespace

std::optional<LogFormat> parse_log_format(std::string_view name) {
  if (name == "text") return LogFormat::text;
  if (name == "json") return LogFormat::json;
  return std::nullopt;
}

std::string json_log_line(std::chrono::system_clock::time_point time, spdlog::level::level_enum level,
                          std::string_view logger, std::string_view message) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[40];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &utc);
  char millis[8];
  std::snprintf(millis, sizeof millis, ".%03dZ", static_cast<int>(ms % 1000));

  std::string out = "{\"time\":\"";
  out += stamp;
  out += millis;
  out += "\",\"level\":\"";
  out += log_level_name(level);
  out += "\",\"logger\":";
  append_json_string(out, logger);
  out += ",\"message\":";
  append_json_string(out, message);
  std::string_view written[kFields.size()];
  size_t n_written = 0;
  for (const auto& [word, field] : kFields) {
    bool seen = false;
    for (size_t i = 0; i < n_written; ++i) seen = seen || written[i] == field;
    if (seen) continue;  // "device N" came first: "gpu N" does not write gpu_index again
    if (const auto number = number_after(message, word)) {
      out += ",\"";
      out += field;
      out += "\":";
      out += std::to_string(std::stoull(std::string(*number)));  // no leading zeros in JSON
      written[n_written++] = field;
    }
  }
  out += '}';
  return out;
}

namespace {
std::atomic<LogFormat> g_log_format{LogFormat::text};
}  // namespace

LogFormat current_log_format() { return g_log_format.load(); }

void apply_log_format(LogFormat format) {
  g_log_format.store(format);
  if (format == LogFormat::json) {
    log().set_formatter(std::make_unique<JsonFormatter>());
  } else {
    log().set_pattern(kTextPattern);
  }
}

}  // namespace zkp::host
