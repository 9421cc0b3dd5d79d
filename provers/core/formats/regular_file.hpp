// RegularFile: an open regular file, read with pread at any offset. What FileContents reads a
// whole file with, and what a reader that streams a file too large to hold twice (a 44 GiB
// bellperson parameter file) reads it with, piece by piece.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace zkp {

class RegularFile {
 public:
  // Opens `path` for reading. Throws IoError if it cannot be opened or stat'ed, FormatError if
  // it is not a regular file: a FIFO would block the reading thread and /dev/zero would never
  // end, so both are refused before anything is read (stat before open, as opening a device
  // node or a FIFO can itself block or have effects).
  explicit RegularFile(const std::filesystem::path& path);
  ~RegularFile();
  RegularFile(RegularFile&& other) noexcept;
  RegularFile& operator=(RegularFile&& other) noexcept;
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;

  const std::string& name() const { return name_; }
  // The size when the file was opened: every read is checked against it.
  std::uint64_t size() const { return size_; }

  // Reads out.size() bytes from `offset` (offset + out.size() <= size()). Throws IoError on a
  // read error, and "the file shrank while it was read (…); was it replaced or truncated?"
  // when the file ends early. Safe to call from several threads at once.
  void read(std::uint64_t offset, std::span<std::byte> out) const;

  // Throws IoError unless the file still has the size it had when opened.
  void check_size_unchanged() const;

  // Tells the kernel the file is read once, front to back (posix_fadvise; a hint only).
  void advise_sequential() const;

 private:
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::string name_;
};

}  // namespace zkp
