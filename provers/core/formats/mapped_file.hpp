// Read-only access to a whole file, and ByteSource: "the bytes a parser reads", from a file or
// from a buffer the host hands over (witnesses usually arrive as memory, not as files).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "core/formats/bytes.hpp"

namespace zkp {

// A whole file, read-only. Regular files are mmap'ed (a zkey can be gigabytes; mapping costs no
// copy and lets the kernel page it in); pipes, character devices and empty files are read into
// memory instead, since they cannot be mapped. Move-only; the view stays at the same address
// across moves, so spans taken from bytes() survive moving the MappedFile.
class MappedFile {
 public:
  // Throws IoError if the file cannot be opened, stat'ed, mapped or read.
  explicit MappedFile(const std::filesystem::path& path);
  ~MappedFile();
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  ByteView bytes() const { return view_; }
  // True when the bytes are an mmap of the file, false when they were copied in.
  bool is_mapped() const { return map_ != nullptr; }

 private:
  void release() noexcept;

  void* map_ = nullptr;  // mmap result, unmapped in release()
  std::size_t map_size_ = 0;
  std::vector<std::byte> copy_;  // used when the file cannot be mapped
  ByteView view_;
};

// The input of every parser: bytes plus a name for messages. Either owns its bytes (a file, or
// a vector handed over) or borrows a caller's buffer. Parsed objects (Zkey, Wtns, R1cs) keep
// their ByteSource, so their spans live exactly as long as they do.
class ByteSource {
 public:
  // Maps or reads the file; the name in messages is the path as given.
  static ByteSource from_file(const std::filesystem::path& path);
  // Borrows `bytes`: the caller keeps them alive and unchanged for as long as this source and
  // anything parsed from it exist (e.g. a witness buffer owned by the host until the proof is
  // done).
  static ByteSource borrow(ByteView bytes, std::string name);
  // Takes ownership of `bytes` (tests that mutate a file in memory, JSON read from a stream).
  static ByteSource adopt(std::vector<std::byte> bytes, std::string name);

  ByteView bytes() const { return view_; }
  const std::string& name() const { return name_; }

 private:
  ByteSource(ByteView view, std::string name) : view_(view), name_(std::move(name)) {}

  std::variant<std::monostate, MappedFile, std::vector<std::byte>> storage_;
  ByteView view_;
  std::string name_;
};

}  // namespace zkp
