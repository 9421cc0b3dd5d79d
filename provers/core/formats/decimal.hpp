// Decimal text <-> little-endian unsigned integers: snarkjs JSON carries every field element as
// a decimal string ("1234..."), the binary formats as n8 little-endian bytes.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "core/formats/bytes.hpp"

namespace zkp {

enum class DecimalStatus {
  ok,
  empty,         // ""
  not_a_digit,   // anything but 0-9 (signs, spaces, hex)
  leading_zero,  // "007": snarkjs never writes it, so it marks a hand-edited or foreign file
  too_large,     // does not fit in out.size() bytes
};

// Parses `text` into `out` (little-endian, zero-padded). `out` is written only on ok.
DecimalStatus decimal_to_le(std::string_view text, std::span<std::byte> out);

// The decimal text of a little-endian unsigned integer ("0" for all zeros).
std::string le_to_decimal(ByteView le);

// A short reason for messages: "not a decimal digit", ...
std::string_view describe(DecimalStatus s);

}  // namespace zkp
