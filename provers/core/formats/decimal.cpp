#include "core/formats/decimal.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace zkp {
namespace {
// Base-10^9 chunks keep the limb arithmetic in 64 bits: limb * 10^9 + carry < 2^62.
constexpr std::uint32_t kChunk = 1000000000;
constexpr int kChunkDigits = 9;
}  // namespace

DecimalStatus decimal_to_le(std::string_view text, std::span<std::byte> out) {
  if (text.empty()) return DecimalStatus::empty;
  for (char c : text) {
    if (c < '0' || c > '9') return DecimalStatus::not_a_digit;
  }
  if (text.size() > 1 && text[0] == '0') return DecimalStatus::leading_zero;
  // Every 2.4 decimal digits need at least one byte, so longer text cannot fit: reject before
  // the quadratic loop below sees megabytes of digits.
  if (text.size() > out.size() * 3 + 1) return DecimalStatus::too_large;
  std::vector<std::uint32_t> limbs((out.size() + 3) / 4 + 1, 0);  // base 2^32, little-endian
  for (char c : text) {
    std::uint64_t carry = static_cast<std::uint64_t>(c - '0');
    for (std::uint32_t& l : limbs) {
      const std::uint64_t v = static_cast<std::uint64_t>(l) * 10 + carry;
      l = static_cast<std::uint32_t>(v);
      carry = v >> 32;
    }
    if (carry != 0) return DecimalStatus::too_large;
  }
  std::vector<std::byte> bytes(limbs.size() * 4);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<std::byte>(limbs[i / 4] >> (8 * (i % 4)));
  }
  if (std::any_of(bytes.begin() + static_cast<std::ptrdiff_t>(out.size()), bytes.end(),
                  [](std::byte b) { return b != std::byte{0}; })) {
    return DecimalStatus::too_large;
  }
  std::copy_n(bytes.begin(), out.size(), out.begin());
  return DecimalStatus::ok;
}

std::string le_to_decimal(ByteView le) {
  std::vector<std::uint32_t> limbs((le.size() + 3) / 4, 0);  // base 2^32, little-endian
  for (std::size_t i = 0; i < le.size(); ++i) {
    limbs[i / 4] |= static_cast<std::uint32_t>(le[i]) << (8 * (i % 4));
  }
  std::vector<std::uint32_t> chunks;  // base 10^9, least significant first
  while (std::any_of(limbs.begin(), limbs.end(), [](std::uint32_t l) { return l != 0; })) {
    std::uint64_t rem = 0;
    for (std::size_t i = limbs.size(); i-- > 0;) {
      const std::uint64_t cur = (rem << 32) | limbs[i];
      limbs[i] = static_cast<std::uint32_t>(cur / kChunk);
      rem = cur % kChunk;
    }
    chunks.push_back(static_cast<std::uint32_t>(rem));
  }
  if (chunks.empty()) return "0";
  std::string s = std::to_string(chunks.back());
  for (std::size_t i = chunks.size() - 1; i-- > 0;) {
    const std::string part = std::to_string(chunks[i]);
    s.append(static_cast<std::size_t>(kChunkDigits) - part.size(), '0').append(part);
  }
  return s;
}

std::string_view describe(DecimalStatus s) {
  switch (s) {
    case DecimalStatus::ok: return "ok";
    case DecimalStatus::empty: return "empty string";
    case DecimalStatus::not_a_digit: return "not a decimal number";
    case DecimalStatus::leading_zero: return "leading zero";
    case DecimalStatus::too_large: return "too large";
  }
  return "?";
}

}  // namespace zkp
