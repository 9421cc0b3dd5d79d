// Byte-level vocabulary shared by every parser: views into a file and little-endian reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace zkp {

// A read-only view into bytes owned elsewhere (a ByteSource, a caller buffer).
using ByteView = std::span<const std::byte>;
// Owned bytes, e.g. a field element decoded from JSON.
using ByteVec = std::vector<std::byte>;

// Unaligned little-endian loads: section payloads start at arbitrary offsets (after a 12-byte
// section header), so a reinterpret_cast to uint32_t* would be misaligned.
inline std::uint32_t load_u32le(const std::byte* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<std::uint32_t>(p[i]);
  return v;
}
inline std::uint64_t load_u64le(const std::byte* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<std::uint64_t>(p[i]);
  return v;
}

// Compares two equally long little-endian unsigned integers: a < b.
inline bool le_less(ByteView a, ByteView b) {
  for (std::size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i];
  }
  return false;
}

inline bool bytes_equal(ByteView a, ByteView b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

// Eight bytes at a time: the zkey point checks ask this of every point (an all-zero point is
// the identity), millions per key.
inline bool all_zero(ByteView a) {
  std::size_t i = 0;
  std::uint64_t any = 0;
  for (; i + 8 <= a.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, a.data() + i, 8);
    any |= w;
  }
  for (; i < a.size(); ++i) any |= std::to_integer<std::uint64_t>(a[i]);
  return any == 0;
}

}  // namespace zkp
