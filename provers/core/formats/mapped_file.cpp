#include "core/formats/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/formats/error.hpp"

namespace zkp {
namespace {

// Closes the descriptor on every path out of the constructor; the mapping does not need it.
struct FdGuard {
  int fd;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
};

[[noreturn]] void io_fail(const std::filesystem::path& path, const char* what) {
  throw IoError(detail::concat(path.string(), ": ", what, ": ", std::strerror(errno)));
}

}  // namespace

MappedFile::MappedFile(const std::filesystem::path& path) {
  FdGuard fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (fd.fd < 0) io_fail(path, "cannot open");
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0) io_fail(path, "cannot stat");
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    map_size_ = static_cast<std::size_t>(st.st_size);
    void* p = ::mmap(nullptr, map_size_, PROT_READ, MAP_PRIVATE, fd.fd, 0);
    if (p == MAP_FAILED) io_fail(path, "cannot mmap");
    map_ = p;
    view_ = ByteView(static_cast<const std::byte*>(map_), map_size_);
    return;
  }
  // Not mappable (pipe, /dev/stdin, empty file): read until EOF.
  constexpr std::size_t chunk = 1 << 16;
  for (;;) {
    const std::size_t used = copy_.size();
    copy_.resize(used + chunk);
    const ssize_t n = ::read(fd.fd, copy_.data() + used, chunk);
    if (n < 0) {
      if (errno == EINTR) {
        copy_.resize(used);
        continue;
      }
      io_fail(path, "cannot read");
    }
    copy_.resize(used + static_cast<std::size_t>(n));
    if (n == 0) break;
  }
  view_ = ByteView(copy_.data(), copy_.size());
}

MappedFile::~MappedFile() { release(); }

MappedFile::MappedFile(MappedFile&& other) noexcept
    : map_(std::exchange(other.map_, nullptr)),
      map_size_(std::exchange(other.map_size_, 0)),
      copy_(std::move(other.copy_)),
      view_(std::exchange(other.view_, {})) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    release();
    map_ = std::exchange(other.map_, nullptr);
    map_size_ = std::exchange(other.map_size_, 0);
    copy_ = std::move(other.copy_);
    view_ = std::exchange(other.view_, {});
  }
  return *this;
}

void MappedFile::release() noexcept {
  if (map_ != nullptr) ::munmap(map_, map_size_);
  map_ = nullptr;
  map_size_ = 0;
  copy_.clear();
  view_ = {};
}

ByteSource ByteSource::from_file(const std::filesystem::path& path) {
  MappedFile file(path);
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

}  // namespace zkp
