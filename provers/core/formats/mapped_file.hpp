// Read-only access to a whole file, and ByteSource: "the bytes a parser reads", from a file or
// from a buffer the host hands over (witnesses usually arrive as memory, not as files).
// (The file keeps its historical name: files used to be mmap'ed, see FileContents for why not.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "core/formats/bytes.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp {

// A whole regular file, read with pread into memory this object owns. Files are not mmap'ed: a
// loaded key's points are read for the life of the key, and a mapped file that another process
// truncates (`cp new.zkey circuit.zkey` over a loaded key) kills the whole process with SIGBUS
// at the next read; an owned copy cannot change under zkpipe. The buffer is anonymous memory
// (map_large: 2 MiB-aligned, huge pages where the kernel gives them, zero pages until read,
// returned to the OS when freed). Move-only; the view
// stays at the same address across moves, so spans taken from bytes() survive moving it.
class FileContents {
 public:
  // Throws IoError if the file cannot be opened, stat'ed or read, or changes size while it is
  // read. Throws FormatError if the path is not a regular file (a FIFO would block the reading
  // thread, /dev/zero would never end; both are refused without reading) or is larger than
  // `max_size` bytes (the caller's bound, e.g. what a key implies for its witness). With a
  // pool, a large file is read in pieces on its threads: the copy out of the page cache and the
  // first touch of every page are one thread's serial work otherwise (a 2^18 BN254 zkey: 77 ms,
  // about a tenth of a two-core proof's key load and the longest part of it on one core).
  explicit FileContents(const std::filesystem::path& path,
                        std::uint64_t max_size = std::numeric_limits<std::uint64_t>::max(),
                        ThreadPool* pool = nullptr);
  ~FileContents();
  FileContents(FileContents&& other) noexcept;
  FileContents& operator=(FileContents&& other) noexcept;
  FileContents(const FileContents&) = delete;
  FileContents& operator=(const FileContents&) = delete;

  ByteView bytes() const { return view_; }

  // Gives the whole pages inside `part` (a range of bytes()) back to the OS; they read as
  // zeros from then on. For bytes no one will read again, such as a key's point sections
  // once copied into aligned memory, so the key is not resident twice. Best effort: a
  // failing madvise leaves the bytes as they were.
  void discard(ByteView part) noexcept;

 private:
  void release() noexcept;

  void* buffer_ = nullptr;  // anonymous mmap, unmapped in release(); null for an empty file
  std::size_t buffer_size_ = 0;
  ByteView view_;
};

// The input of every parser: bytes plus a name for messages. Either owns its bytes (a file, or
// a vector handed over) or borrows a caller's buffer. Parsed objects (Zkey, Wtns, R1cs) keep
// their ByteSource, so their spans live exactly as long as they do.
class ByteSource {
 public:
  // Reads the file (FileContents: regular files only, at most `max_size` bytes); the name in
  // messages is the path as given.
  static ByteSource from_file(const std::filesystem::path& path,
                              std::uint64_t max_size = std::numeric_limits<std::uint64_t>::max(),
                              ThreadPool* pool = nullptr);
  // Borrows `bytes`: the caller keeps them alive and unchanged for as long as this source and
  // anything parsed from it exist (e.g. a witness buffer owned by the host until the proof is
  // done).
  static ByteSource borrow(ByteView bytes, std::string name);
  // Takes ownership of `bytes` (tests that mutate a file in memory, JSON read from a stream).
  static ByteSource adopt(std::vector<std::byte> bytes, std::string name);

  ByteView bytes() const { return view_; }
  const std::string& name() const { return name_; }

  // FileContents::discard for a source read from a file: `part` (a range of bytes()) then reads
  // as zeros. Borrowed and adopted bytes belong to someone else and are left as they are.
  void discard(ByteView part) noexcept;

 private:
  ByteSource(ByteView view, std::string name) : view_(view), name_(std::move(name)) {}

  std::variant<std::monostate, FileContents, std::vector<std::byte>> storage_;
  ByteView view_;
  std::string name_;
};

// The whole of a small regular file as text (config files, token files, JSON): FileContents'
// checks, so a FIFO or /dev/zero given as a config file is refused instead of read forever.
std::string read_text_file(const std::filesystem::path& path,
                           std::uint64_t max_size = std::numeric_limits<std::uint64_t>::max());

}  // namespace zkp
