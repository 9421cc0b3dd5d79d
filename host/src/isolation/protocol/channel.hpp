// The channel between the host and one zkpipe-device process (process isolation, issue 17).
//
// A unix SOCK_SEQPACKET socketpair carries fixed-size Frames, one per sendmsg, so a read
// is always one whole frame and a short read means the peer is gone. Anything larger than
// a frame (a key, a witness, synthesized inputs, the proof) travels in a memfd passed with
// the frame (SCM_RIGHTS) and mapped by both sides: the bytes are written once, by the side
// that has them, and read in place; none go through the socket.
#pragma once

#include "frame.hpp"

#include <cstddef>
#include <cstdint>

namespace zkp::host::isolation {

// The exit status of a zkpipe-device process whose prover answered ZKP_ERR_DEVICE_LOST: its
// device's context is broken for good in that process, so it replies, then exits, and the host
// restarts it (device_process.hpp) with a context of its own. Distinct from 1 (an exception in
// main), 2 (usage) and 127 (exec failed), so the host's message can say why it exited.
inline constexpr int kExitDeviceLost = 3;

// An owned file descriptor.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept;
  ~UniqueFd() { reset(); }
  int get() const { return fd_; }
  int release();
  void reset(int fd = -1);
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// A memfd mapped shared and read-write; either side may create or map one.
class SharedMemory {
 public:
  // Throws zkp::sdk::Error(ZKP_ERR_OUT_OF_MEMORY) when the memfd or the mapping fails.
  static SharedMemory create(size_t size, const char* name);
  // Maps a received memfd whole (its size from fstat). Throws zkp::sdk::Error(ZKP_ERR_INTERNAL).
  static SharedMemory map(UniqueFd fd);

  SharedMemory() = default;
  SharedMemory(SharedMemory&& o) noexcept;
  SharedMemory& operator=(SharedMemory&& o) noexcept;
  ~SharedMemory();

  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  int fd() const { return fd_.get(); }

 private:
  UniqueFd fd_;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

// One frame, with `fd` (>= 0) passed along. False when the peer is gone.
bool send_frame(int socket, const Frame& frame, int fd = -1);
// One frame, and the descriptor passed with it (or none). False at end of stream or on a
// frame of the wrong size (the peer is gone or is not a zkpipe-device of this build).
bool recv_frame(int socket, Frame& frame, UniqueFd& fd);

}  // namespace zkp::host::isolation
