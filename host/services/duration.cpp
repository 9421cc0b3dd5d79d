#include "duration.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <utility>

namespace zkp::services {

namespace {

constexpr double kMsPerSecond = 1e3;
constexpr double kMsPerMinute = 60 * kMsPerSecond;
constexpr double kMsPerHour = 60 * kMsPerMinute;
// Digits beyond these say nothing a duration of at most 30 days needs, and keep the number
// well inside a double's exact integers.
constexpr size_t kMaxDigits = 15;

std::optional<std::chrono::milliseconds> fail(std::string* why, std::string reason) {
  if (why != nullptr) *why = std::move(reason);
  return std::nullopt;
}

}  // namespace

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text, DurationUnit bare, std::string* why) {
  const char* kForm = "a number with an optional fraction and unit: 1.5, 500ms, 30s, 2m, 1h";
  if (!text.empty() && text.front() == '-') return fail(why, "is negative");
  size_t end = 0;
  size_t digits = 0;
  const auto skip_digits = [&] {
    for (; end < text.size() && text[end] >= '0' && text[end] <= '9'; ++end) ++digits;
  };
  skip_digits();
  if (end < text.size() && text[end] == '.') {
    ++end;
    skip_digits();
  }
  if (digits == 0) return fail(why, std::string("is not a duration (") + kForm + ")");
  if (digits > kMaxDigits) return fail(why, "has more digits than a duration needs (" + std::to_string(kMaxDigits) + ")");
  const std::string_view unit = text.substr(end);
  double scale = 0;
  if (unit == "ms") scale = 1;
  else if (unit == "s") scale = kMsPerSecond;
  else if (unit == "m") scale = kMsPerMinute;
  else if (unit == "h") scale = kMsPerHour;
  else if (unit.empty()) scale = bare == DurationUnit::seconds ? kMsPerSecond : 1;
  else return fail(why, "has an unknown unit '" + std::string(unit) + "' (" + kForm + ")");
  const std::string number(text.substr(0, end));
  const double ms = std::ceil(std::strtod(number.c_str(), nullptr) * scale);
  if (!std::isfinite(ms) || ms > static_cast<double>(kMaxDuration.count())) {
    return fail(why, "is more than 30 days (" + std::to_string(kMaxDuration.count() / 1000) + " s), the longest accepted");
  }
  return std::chrono::milliseconds(static_cast<int64_t>(ms));
}

}  // namespace zkp::services
