#include "core/formats/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>
#include <variant>

#include "core/formats/error.hpp"

namespace zkp {
namespace {

// Closes the descriptor on every path out of the constructor; the copy does not need it.
struct FdGuard {
  int fd;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
};

[[noreturn]] void io_fail(const std::filesystem::path& path, const char* what) {
  throw IoError(detail::concat(path.string(), ": ", what, ": ", std::strerror(errno)));
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

void require_regular(const std::filesystem::path& path, const struct stat& st) {
  if (!S_ISREG(st.st_mode)) {
    throw FormatError(detail::concat(path.string(), ": is ", kind_of(st.st_mode),
                                     ", not a regular file (zkpipe reads only regular files)"));
  }
}

// The largest single pread Linux performs (it caps every read at 0x7ffff000 bytes).
constexpr std::size_t kMaxRead = 0x7ffff000;

}  // namespace

FileContents::FileContents(const std::filesystem::path& path, std::uint64_t max_size) {
  // stat before open: opening a device node or FIFO can itself block or have effects.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) io_fail(path, "cannot open");
  require_regular(path, st);
  // O_NONBLOCK: should the path be swapped for a FIFO after the stat, open must not wait for a
  // writer; the fstat below then refuses it.
  FdGuard fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (fd.fd < 0) io_fail(path, "cannot open");
  if (::fstat(fd.fd, &st) != 0) io_fail(path, "cannot stat");
  require_regular(path, st);
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_size) {
    throw FormatError(detail::concat(path.string(), ": is ", size, " bytes, more than the ", max_size,
                                     " bytes it can be here"));
  }
  if (size == 0) return;
  buffer_size_ = static_cast<std::size_t>(size);
  void* p = ::mmap(nullptr, buffer_size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    buffer_size_ = 0;
    io_fail(path, "cannot allocate memory for its contents");
  }
  buffer_ = p;
  auto* out = static_cast<std::byte*>(buffer_);
  std::size_t done = 0;
  try {
    while (done < buffer_size_) {
      const ssize_t n = ::pread(fd.fd, out + done, std::min(buffer_size_ - done, kMaxRead), static_cast<off_t>(done));
      if (n < 0) {
        if (errno == EINTR) continue;
        io_fail(path, "cannot read");
      }
      if (n == 0) {
        throw IoError(detail::concat(path.string(), ": the file shrank while it was read (", done, " of ",
                                     buffer_size_, " bytes read); was it replaced or truncated?"));
      }
      done += static_cast<std::size_t>(n);
    }
    if (::fstat(fd.fd, &st) != 0) io_fail(path, "cannot stat");
    if (static_cast<std::uint64_t>(st.st_size) != size) {
      throw IoError(detail::concat(path.string(), ": the file changed size while it was read (", size, " then ",
                                   st.st_size, " bytes); was it replaced or truncated?"));
    }
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
  if (buffer_ != nullptr) ::munmap(buffer_, buffer_size_);
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

ByteSource ByteSource::from_file(const std::filesystem::path& path, std::uint64_t max_size) {
  FileContents file(path, max_size);
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
