#include <zkpipe/host/byte_size.hpp>

#include <array>
#include <cctype>
#include <cstdio>

namespace zkp::host {

namespace {

struct Unit {
  std::string_view suffix;
  uint64_t multiplier;
};

constexpr uint64_t kKi = 1024;
constexpr uint64_t kK = 1000;
constexpr std::array<Unit, 9> kUnits{{
    {"B", 1},
    {"KiB", kKi},
    {"MiB", kKi * kKi},
    {"GiB", kKi * kKi * kKi},
    {"TiB", kKi * kKi * kKi * kKi},
    {"KB", kK},
    {"MB", kK * kK},
    {"GB", kK * kK * kK},
    {"TB", kK * kK * kK * kK},
}};

// More fraction digits than this cannot change the result of a 64-bit byte count
// by a whole byte for any suffix up to TiB, and keeps the 128-bit product in range.
constexpr size_t kMaxFractionDigits = 12;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<uint64_t> parse_byte_size(std::string_view text) {
  text = trim(text);
  using u128 = unsigned __int128;
  constexpr u128 kMax = UINT64_MAX;

  size_t i = 0;
  u128 whole = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    whole = whole * 10 + static_cast<unsigned>(text[i] - '0');
    if (whole > kMax) return std::nullopt;
    ++i;
  }
  if (i == 0) return std::nullopt;

  u128 fraction = 0;
  u128 fraction_scale = 1;
  if (i < text.size() && text[i] == '.') {
    ++i;
    const size_t first = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      if (i - first < kMaxFractionDigits) {
        fraction = fraction * 10 + static_cast<unsigned>(text[i] - '0');
        fraction_scale *= 10;
      }
      ++i;
    }
    if (i == first) return std::nullopt;
  }
  const bool has_fraction = fraction_scale > 1;

  const std::string_view suffix = trim(text.substr(i));
  uint64_t multiplier = 0;
  if (suffix.empty()) {
    if (has_fraction) return std::nullopt;  // "1.5" bytes means nothing
    multiplier = 1;
  } else {
    for (const Unit& unit : kUnits) {
      if (suffix == unit.suffix) multiplier = unit.multiplier;
    }
    if (multiplier == 0) return std::nullopt;
  }

  const u128 bytes = whole * multiplier + fraction * multiplier / fraction_scale;
  if (bytes > kMax) return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

std::string format_bytes(uint64_t bytes) {
  static constexpr std::array<const char*, 5> kNames{"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= static_cast<double>(kKi) && unit + 1 < kNames.size()) {
    value /= static_cast<double>(kKi);
    ++unit;
  }
  char text[32];
  if (unit == 0) {
    std::snprintf(text, sizeof text, "%llu B", static_cast<unsigned long long>(bytes));
  } else {
    std::snprintf(text, sizeof text, "%.1f %s", value, kNames[unit]);
  }
  return text;
}

}  // namespace zkp::host
