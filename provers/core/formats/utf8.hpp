// Well-formed UTF-8 (RFC 3629), for the JSON reader (which refuses anything else) and the JSON
// writer (whose safe style writes U+FFFD for it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace zkp {

// The length of the well-formed UTF-8 sequence that starts at text[i] (2 to 4: no overlong
// forms, no surrogates, nothing above U+10FFFF, not cut short), 0 if there is none. Call it for
// a byte >= 0x80; ASCII is one byte and needs no check.
inline std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const auto b = static_cast<unsigned char>(text[i]);
  std::size_t n = 0;
  std::uint32_t min = 0;
  if (b >= 0xC2 && b <= 0xDF) {
    n = 2, min = 0x80;
  } else if (b >= 0xE0 && b <= 0xEF) {
    n = 3, min = 0x800;
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 4, min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  std::uint32_t cp = b & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    const auto c = static_cast<unsigned char>(text[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace zkp
