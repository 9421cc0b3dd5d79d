#include "channel.hpp"

#include <zkpipe/sdk/error.hpp>

#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

namespace zkp::host::isolation {

using sdk::Error;

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
  if (this != &o) reset(o.release());
  return *this;
}

int UniqueFd::release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

void UniqueFd::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

SharedMemory SharedMemory::create(size_t size, const char* name) {
  SharedMemory m;
  m.fd_.reset(::memfd_create(name, MFD_CLOEXEC));
  if (!m.fd_) throw Error(ZKP_ERR_OUT_OF_MEMORY, std::string("memfd_create: ") + std::strerror(errno));
  m.size_ = std::max<size_t>(size, 1);  // a mapping cannot be empty
  if (::ftruncate(m.fd_.get(), static_cast<off_t>(m.size_)) != 0) {
    throw Error(ZKP_ERR_OUT_OF_MEMORY, "ftruncate of a " + std::to_string(m.size_) + "-byte memfd: " + std::strerror(errno));
  }
  void* p = ::mmap(nullptr, m.size_, PROT_READ | PROT_WRITE, MAP_SHARED, m.fd_.get(), 0);
  if (p == MAP_FAILED) throw Error(ZKP_ERR_OUT_OF_MEMORY, std::string("mmap of a memfd: ") + std::strerror(errno));
  m.data_ = static_cast<uint8_t*>(p);
  return m;
}

SharedMemory SharedMemory::map(UniqueFd fd) {
  SharedMemory m;
  m.fd_ = std::move(fd);
  struct stat st {};
  if (!m.fd_ || ::fstat(m.fd_.get(), &st) != 0 || st.st_size <= 0) {
    throw Error(ZKP_ERR_INTERNAL, "a shared buffer from the other process is missing or empty");
  }
  m.size_ = static_cast<size_t>(st.st_size);
  void* p = ::mmap(nullptr, m.size_, PROT_READ | PROT_WRITE, MAP_SHARED, m.fd_.get(), 0);
  if (p == MAP_FAILED) throw Error(ZKP_ERR_INTERNAL, std::string("mmap of a shared buffer: ") + std::strerror(errno));
  m.data_ = static_cast<uint8_t*>(p);
  return m;
}

SharedMemory::SharedMemory(SharedMemory&& o) noexcept
    : fd_(std::move(o.fd_)), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}

SharedMemory& SharedMemory::operator=(SharedMemory&& o) noexcept {
  if (this != &o) {
    if (data_ != nullptr) ::munmap(data_, size_);
    fd_ = std::move(o.fd_);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
  }
  return *this;
}

SharedMemory::~SharedMemory() {
  if (data_ != nullptr) ::munmap(data_, size_);
}

bool send_frame(int socket, const Frame& frame, int fd) {
  iovec iov{const_cast<Frame*>(&frame), sizeof(Frame)};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  if (fd >= 0) {
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &fd, sizeof(int));
  }
  ssize_t n;
  do {
    n = ::sendmsg(socket, &msg, MSG_NOSIGNAL);  // a dead peer is an error, not SIGPIPE
  } while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(sizeof(Frame));
}

bool recv_frame(int socket, Frame& frame, UniqueFd& fd) {
  fd.reset();
  iovec iov{&frame, sizeof(Frame)};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  msg.msg_control = control;
  msg.msg_controllen = sizeof(control);
  ssize_t n;
  do {
    n = ::recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
      int received = -1;
      std::memcpy(&received, CMSG_DATA(c), sizeof(int));
      fd.reset(received);
    }
  }
  if (n != static_cast<ssize_t>(sizeof(Frame)) || (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0) return false;
  frame.text[sizeof(frame.text) - 1] = '\0';
  return true;
}

}  // namespace zkp::host::isolation
