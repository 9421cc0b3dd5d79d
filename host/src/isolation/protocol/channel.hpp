// The channel between the host and one zkpipe-device process (process isolation, issue 17).
//
// A unix SOCK_SEQPACKET socketpair carries fixed-size Frames, one per sendmsg, so a read
// is always one whole frame and a short read means the peer is gone. Anything larger than
// a frame (a key, a witness, synthesized inputs, the proof) travels in a memfd passed with
// the frame (SCM_RIGHTS) and mapped by both sides: the bytes are written once, by the side
// that has them, and read in place; none go through the socket.
#pragma once

#include <zkpipe/zkp_common.h>

#include <cstddef>
#include <cstdint>
#include <span>

namespace zkp::host::isolation {

// The exit status of a zkpipe-device process whose prover answered ZKP_ERR_DEVICE_LOST: its
// device's context is broken for good in that process, so it replies, then exits, and the host
// restarts it (device_process.hpp) with a context of its own. Distinct from 1 (an exception in
// main), 2 (usage) and 127 (exec failed), so the host's message can say why it exited.
inline constexpr int kExitDeviceLost = 3;

// What a frame asks (host → device) or answers (device → host: the same op, the same id).
enum class Op : uint32_t {
  create = 1,   // memfd: plugin path '\0' then key '\0' value '\0' ...; arg: device, workers, synthesis, ops, log level
                // reply arg: device_count, flags; text: the prover's name (or the error)
  key_load,     // arg: key id, format, 1 if the memfd holds a path (else the key's bytes)
                // reply arg: curve, n_vars, n_public, domain_size, synthesis_bytes, proof_size, public_size
  key_free,     // arg: key id; an empty reply once it is freed
  prove,        // memfd: ProveLayout's regions; arg: ProveArg; reply arg: ProveReply
  verify,       // memfd: proof then public inputs; arg: key id, proof size, public size; reply arg: valid
  device_info,  // reply arg: memory, free, started, proved, busy_ns; text: the device's name
  synthesize,   // memfd: SynthesisLayout's regions (prove_buffer.hpp); arg: SynthesizeArg; an empty reply
                // once the synthesized inputs are in the buffer (or the error)
};

// A frame's fixed shape. `text` is a NUL-terminated message (an error, a name).
struct Frame {
  uint32_t op = 0;
  int32_t status = 0;  // replies: a zkp_status_t
  uint64_t id = 0;     // the request it answers
  uint64_t arg[10] = {};
  char text[ZKP_ERROR_MESSAGE_CAPACITY] = {};  // as long as zkp_error_t.message: a plugin's message crosses whole

  void set_text(std::span<const char> s);
};

// Indices into Frame::arg of a prove request and of its reply.
namespace prove_arg {
inline constexpr int key = 0, kind = 1, worker = 2, has_randomness = 3, input_offset = 4, input_size = 5,
                     output_offset = 6, proof_capacity = 7, public_capacity = 8;
}
namespace prove_reply {
inline constexpr int proof_size = 0, public_size = 1, gpu_duration_ns = 2, epilogue_ns = 3, msm_ns = 4,
                     ntt_ns = 5, flags = 6;
}
// Indices into Frame::arg of a synthesize request: the key, where the witness lies (its
// ZKP_WITNESS_* kind, offset, size) and where the synthesized inputs go (the input region of
// the prove request that will follow, SynthesizedHeader first).
namespace synthesize_arg {
inline constexpr int key = 0, kind = 1, witness_offset = 2, witness_size = 3, input_offset = 4, input_size = 5;
}
// key_load's reply: arg[key_reply_synthesized_bytes] is key_info.synthesized_bytes, or 0 when
// the device process cannot synthesize into shared memory (a plugin without synthesize_into).
inline constexpr int key_reply_synthesized_bytes = 7;
// Frame::arg[prove_arg::kind] for caller-synthesized inputs (else a ZKP_WITNESS_* kind).
inline constexpr uint64_t kKindSynthesized = 1000;

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
