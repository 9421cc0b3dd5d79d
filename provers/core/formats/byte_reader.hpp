// A bounds-checked little-endian cursor over one section. Every read names what it reads, so a
// truncated file reports e.g. "section 2 (groth16 header) at offset 84: truncated reading nVars".
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/formats/bytes.hpp"
#include "core/formats/error.hpp"

namespace zkp {

class ByteReader {
 public:
  // `base_offset` is the file offset of data[0]; `where` prefixes messages ("section 2 (...)").
  ByteReader(ByteView data, std::string_view file, std::string where, std::uint64_t base_offset)
      : data_(data), file_(file), where_(std::move(where)), base_(base_offset) {}

  std::uint32_t u32(std::string_view what) { return load_u32le(take(4, what).data()); }
  std::uint64_t u64(std::string_view what) { return load_u64le(take(8, what).data()); }

  ByteView take(std::uint64_t n, std::string_view what) {
    if (n > remaining()) {
      format_fail(file_, where_, " at offset ", offset(), ": truncated reading ", what, ": needs ",
                  n, " bytes, ", remaining(), " left");
    }
    ByteView out = data_.subspan(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return out;
  }

  std::uint64_t remaining() const { return data_.size() - pos_; }
  std::uint64_t offset() const { return base_ + pos_; }  // file offset of the next byte
  std::size_t position() const { return pos_; }          // offset inside this view

 private:
  ByteView data_;
  std::string_view file_;
  std::string where_;
  std::uint64_t base_;
  std::size_t pos_ = 0;
};

}  // namespace zkp
