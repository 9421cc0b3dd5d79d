#include "core/formats/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "core/formats/error.hpp"

namespace zkp {
namespace {

[[noreturn]] void io_fail(const std::string& name, const char* what) {
  throw IoError(detail::concat(name, ": ", what, ": ", std::strerror(errno)));
}

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

void require_regular(const std::string& name, const struct stat& st) {
  if (!S_ISREG(st.st_mode)) {
    throw FormatError(
        detail::concat(name, ": is ", kind_of(st.st_mode), ", not a regular file (zkpipe reads only regular files)"));
  }
}

// The largest single pread Linux performs (it caps every read at 0x7ffff000 bytes).
constexpr std::size_t kMaxRead = 0x7ffff000;

}  // namespace

RegularFile::RegularFile(const std::filesystem::path& path) : name_(path.string()) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) io_fail(name_, "cannot open");
  require_regular(name_, st);
  // O_NONBLOCK: should the path be swapped for a FIFO after the stat, open must not wait for a
  // writer; the fstat below then refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) io_fail(name_, "cannot open");
  fd_ = fd;
  // A constructor that throws runs no destructor: close the descriptor on the way out.
  struct CloseOnThrow {
    int& fd;
    bool armed = true;
    ~CloseOnThrow() {
      if (armed) ::close(std::exchange(fd, -1));
    }
  } guard{fd_};
  if (::fstat(fd_, &st) != 0) io_fail(name_, "cannot stat");
  require_regular(name_, st);
  guard.armed = false;
  size_ = static_cast<std::uint64_t>(st.st_size);
}

RegularFile::~RegularFile() {
  if (fd_ >= 0) ::close(fd_);
}

RegularFile::RegularFile(RegularFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_(std::exchange(other.size_, 0)), name_(std::move(other.name_)) {}

RegularFile& RegularFile::operator=(RegularFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    size_ = std::exchange(other.size_, 0);
    name_ = std::move(other.name_);
  }
  return *this;
}

void RegularFile::read(std::uint64_t offset, std::span<std::byte> out) const {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n =
        ::pread(fd_, out.data() + done, std::min(out.size() - done, kMaxRead), static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      io_fail(name_, "cannot read");
    }
    if (n == 0) {
      throw IoError(detail::concat(name_, ": the file shrank while it was read (", offset + done, " of ", size_,
                                   " bytes read); was it replaced or truncated?"));
    }
    done += static_cast<std::size_t>(n);
  }
}

void RegularFile::check_size_unchanged() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) io_fail(name_, "cannot stat");
  if (static_cast<std::uint64_t>(st.st_size) != size_) {
    throw IoError(detail::concat(name_, ": the file changed size while it was read (", size_, " then ", st.st_size,
                                 " bytes); was it replaced or truncated?"));
  }
}

void RegularFile::advise_sequential() const { (void)::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL); }

}  // namespace zkp
