// Option values from text: the one implementation behind sdk::Options' getters, the
// plugin option tables (option_table.hpp) and the host's configuration keys, so a value
// the host accepts for one key is spelled the way a plugin accepts it for another.
// Each parser returns nullopt for text it does not accept; the caller's error names
// the key, the value and what the matching *_expected function says was expected.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace zkp::sdk {

// An unsigned decimal integer in [min, max], nothing else ("", "-1", "2.5", "1e3" are not).
inline std::optional<uint64_t> parse_u64(std::string_view text, uint64_t min, uint64_t max) {
  uint64_t out = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  if (text.empty() || ec != std::errc() || ptr != end || out < min || out > max) return std::nullopt;
  return out;
}

inline std::string integer_expected(uint64_t min, uint64_t max) {
  return "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
}

// A real number (as std::stod reads it, the whole text) in [min, max], or in (min, max]
// when `above_min`: an EMA weight or a rate multiplier of zero is not a smaller one.
inline std::optional<double> parse_double(const std::string& text, double min, double max, bool above_min = false) {
  size_t used = 0;
  double out = 0;
  try {
    out = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const bool low_ok = above_min ? out > min : out >= min;
  if (used == 0 || used != text.size() || !(low_ok && out <= max)) return std::nullopt;
  return out;
}

// The shortest text that reads back as `v` ("0.15", "3", "-20", "1e+09").
inline std::string format_double(double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

inline std::string double_expected(double min, double max, bool above_min = false) {
  return std::string("a number in ") + (above_min ? "(" : "[") + format_double(min) + ", " + format_double(max) + "]";
}

inline std::optional<bool> parse_bool(std::string_view v) {
  if (v == "true" || v == "1" || v == "yes" || v == "on") return true;
  if (v == "false" || v == "0" || v == "no" || v == "off") return false;
  return std::nullopt;
}

inline constexpr const char* kBoolExpected = "true or false";

}  // namespace zkp::sdk
