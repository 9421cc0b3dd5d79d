#include "core/formats/mapped_file.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>
#include <variant>

#include "core/formats/error.hpp"
#include "core/formats/regular_file.hpp"
#include "core/util/large_pages.hpp"

namespace zkp {

namespace {
// Pieces of a parallel read: large enough that a pread call's cost is noise, small enough that
// every thread of a pool gets several of a key-sized file.
constexpr std::size_t kReadPiece = std::size_t{8} << 20;
}  // namespace

FileContents::FileContents(const std::filesystem::path& path, std::uint64_t max_size, ThreadPool* pool) {
  const RegularFile file(path);
  const std::uint64_t size = file.size();
  if (size > max_size) {
    throw FormatError(detail::concat(path.string(), ": is ", size, " bytes, more than the ", max_size,
                                     " bytes it can be here"));
  }
  if (size == 0) return;
  buffer_size_ = static_cast<std::size_t>(size);
  // Huge pages where the kernel gives them: a key is hundreds of MB to tens of GB, and with
  // 4 KiB pages the first touch of each (in the read below) and the unmap are most of a key
  // read's time (large_pages.hpp).
  void* p = map_large(buffer_size_);
  if (p == nullptr) {
    buffer_size_ = 0;
    throw IoError(detail::concat(path.string(), ": cannot allocate memory for its contents: ", std::strerror(errno)));
  }
  buffer_ = p;
  auto* out = static_cast<std::byte*>(buffer_);
  try {
    if (pool != nullptr && pool->size() > 1 && buffer_size_ > 2 * kReadPiece) {
      const std::size_t pieces = (buffer_size_ + kReadPiece - 1) / kReadPiece;
      pool->parallel_for(pieces, 1, [&](std::size_t first, std::size_t last) {
        const std::size_t lo = first * kReadPiece, hi = std::min(buffer_size_, last * kReadPiece);
        file.read(lo, {out + lo, hi - lo});
      });
    } else {
      file.read(0, {out, buffer_size_});
    }
    file.check_size_unchanged();
  } catch (...) {
    release();
    throw;
  }
  // Read-only from here on: a stray write through a parser's view faults at once.
  ::mprotect(buffer_, buffer_size_, PROT_READ);
  view_ = ByteView(out, buffer_size_);
}

FileContents::~FileContents() { release(); }

FileContents::FileContents(FileContents&& other) noexcept
    : buffer_(std::exchange(other.buffer_, nullptr)),
      buffer_size_(std::exchange(other.buffer_size_, 0)),
      view_(std::exchange(other.view_, {})) {}

FileContents& FileContents::operator=(FileContents&& other) noexcept {
  if (this != &other) {
    release();
    buffer_ = std::exchange(other.buffer_, nullptr);
    buffer_size_ = std::exchange(other.buffer_size_, 0);
    view_ = std::exchange(other.view_, {});
  }
  return *this;
}

void FileContents::release() noexcept {
  unmap_large(buffer_, buffer_size_);
  buffer_ = nullptr;
  buffer_size_ = 0;
  view_ = {};
}

void FileContents::discard(ByteView part) noexcept {
  if (buffer_ == nullptr || part.empty()) return;
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto base = reinterpret_cast<std::uintptr_t>(buffer_);
  const auto lo = reinterpret_cast<std::uintptr_t>(part.data());
  const std::uintptr_t hi = lo + part.size();
  if (lo < base || hi > base + buffer_size_) return;  // not ours
  // Only pages wholly inside `part`: the bytes around it share its first and last pages.
  const std::uintptr_t first = (lo + page - 1) / page * page, last = hi / page * page;
  if (first < last) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

void ByteSource::discard(ByteView part) noexcept {
  if (auto* file = std::get_if<FileContents>(&storage_)) file->discard(part);
}

ByteSource ByteSource::from_file(const std::filesystem::path& path, std::uint64_t max_size, ThreadPool* pool) {
  FileContents file(path, max_size, pool);
  ByteSource src(file.bytes(), path.string());
  src.storage_ = std::move(file);
  return src;
}

ByteSource ByteSource::borrow(ByteView bytes, std::string name) {
  return ByteSource(bytes, std::move(name));
}

ByteSource ByteSource::adopt(std::vector<std::byte> bytes, std::string name) {
  ByteSource src(ByteView(bytes.data(), bytes.size()), std::move(name));
  src.storage_ = std::move(bytes);  // a moved vector keeps its buffer, so view_ stays valid
  return src;
}

std::string read_text_file(const std::filesystem::path& path, std::uint64_t max_size) {
  const FileContents file(path, max_size);
  return {reinterpret_cast<const char*>(file.bytes().data()), file.bytes().size()};
}

}  // namespace zkp
