// Shared by the fuzz entry points: a parser may refuse input only with FormatError. Anything
// else escaping (std::bad_alloc from an unchecked count, std::out_of_range, ...) is a bug, and
// leaving it uncaught makes libFuzzer and the replay driver report the input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/formats/bytes.hpp"
#include "core/formats/error.hpp"

namespace zkp::fuzz {

inline ByteView as_bytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const std::byte*>(data), size};
}

// Reads the view's first and last bytes so ASan checks that it lies inside the input; the empty
// asm keeps the compiler from dropping the unused reads.
inline void touch(ByteView v) {
  if (v.empty()) return;
  const auto first = static_cast<unsigned char>(v.front()),
             last = static_cast<unsigned char>(v.back());
  asm volatile("" : : "r"(first), "r"(last));
}

template <class F>
void refuse_only_with_format_error(F&& f) {
  try {
    f();
  } catch (const zkp::FormatError&) {
  }
}

}  // namespace zkp::fuzz
