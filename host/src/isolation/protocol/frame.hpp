// What one frame between the host and a zkpipe-device process says (channel.hpp carries it).
//
// A frame is an op, a status, a request id, a payload and a message. The payload is one named
// struct per op and direction (below), copied in and out whole with Frame::put and Frame::get,
// so every value that crosses is a field read by the same name on both sides; the ABI's own
// structs (zkp_prover_facts_t, zkp_key_info_t, zkp_device_info_t) cross as they are.
//
// No versioning, no byte order: both ends are the same build (the host starts the
// zkpipe-device installed beside it, device_executable.hpp), so a payload is its struct's bytes
// as this compiler lays them out. A frame of another size is refused (recv_frame); a
// zkpipe-device of another build whose frames happen to be as long is not supported.
#pragma once

#include <zkpipe/zkp_common.h>
#include <zkpipe/zkp_prover.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

namespace zkp::host::isolation {

// What a frame asks (host → device) or answers (device → host: the same op, the same id).
enum class Op : uint32_t {
  create = 1,   // memfd: plugin path '\0' then key '\0' value '\0' ...; CreateRequest → CreateReply,
                // text: the prover's name (or the error)
  key_load,     // memfd: the key's path (with its NUL) or its bytes; KeyLoadRequest → KeyLoadReply
  key_free,     // KeyFreeRequest → an empty reply once it is freed
  prove,        // memfd: the partition's buffer (prove_buffer.hpp); ProveRequest → ProveReply
  verify,       // memfd: proof then public inputs; VerifyRequest → VerifyReply
  device_info,  // no payload → DeviceInfoReply
  synthesize,   // memfd: the partition's buffer (prove_buffer.hpp); SynthesizeRequest → an empty
                // reply once the synthesized inputs are in the buffer (or the error)
};

// ProveRequest::kind for caller-synthesized inputs (else a ZKP_WITNESS_* kind).
inline constexpr uint64_t kKindSynthesized = 1000;

// Each payload names its op: put() sets the frame's op from it and get() checks it, so a
// payload is never read as another op's.
struct CreateRequest {
  static constexpr Op op = Op::create;
  uint32_t device = 0;    // the one device of the prover this process serves
  int32_t log_level = 0;  // the host's spdlog::level, so the device process logs as it does
  zkp_prover_facts_t facts{};  // as the host would pass create_with_facts in its own process
};
struct CreateReply {
  static constexpr Op op = Op::create;
  uint32_t device_count = 0;
  uint32_t flags = 0;  // zkp_prover_t.flags
};

struct KeyLoadRequest {
  static constexpr Op op = Op::key_load;
  uint64_t key = 0;  // the host's id for it, which later requests name
  zkp_key_format_t format = ZKP_KEY_FORMAT_ZKEY;
  bool is_path = false;  // the memfd holds a path (with its NUL), else the key's bytes
  uint64_t size = 0;     // bytes of the key (not of the path)
};
struct KeyLoadReply {
  static constexpr Op op = Op::key_load;
  // The prover's key_info whole, but synthesized_bytes is 0 unless the prover has
  // synthesize_into: only then can the device process synthesize into shared memory.
  zkp_key_info_t info{};
};

struct KeyFreeRequest {
  static constexpr Op op = Op::key_free;
  uint64_t key = 0;
};

// Where a partition's regions lie in its buffer (prove_buffer.hpp), and which key and worker.
struct ProveRequest {
  static constexpr Op op = Op::prove;
  uint64_t key = 0;
  uint64_t kind = 0;  // a ZKP_WITNESS_* kind, or kKindSynthesized
  uint32_t worker = 0;
  bool has_randomness = false;  // r || s at the buffer's start, else the prover draws them
  uint64_t input_offset = 0, input_size = 0, output_offset = 0, proof_capacity = 0, public_capacity = 0;
};
// What prove_finish wrote into zkp_prove_output_t, by the same names (the proof and its public
// inputs are in the buffer).
struct ProveReply {
  static constexpr Op op = Op::prove;
  size_t proof_size = 0, public_size = 0;
  uint64_t gpu_duration_ns = 0, epilogue_ns = 0, msm_ns = 0, ntt_ns = 0;
  uint32_t flags = 0;  // ZKP_PROVE_OUTPUT_*
};

// The key, where the witness lies, and where the synthesized inputs go: the input region of the
// prove request that will follow, SynthesizedHeader first (prove_buffer.cpp).
struct SynthesizeRequest {
  static constexpr Op op = Op::synthesize;
  uint64_t key = 0;
  uint64_t witness_kind = 0;  // ZKP_WITNESS_*
  uint64_t witness_offset = 0, witness_size = 0, input_offset = 0, input_size = 0;
};

struct VerifyRequest {
  static constexpr Op op = Op::verify;
  uint64_t key = 0;
  uint64_t proof_size = 0, public_size = 0;  // the memfd: proof, then public inputs
};
struct VerifyReply {
  static constexpr Op op = Op::verify;
  int32_t valid = 0;  // 1 or 0, as zkp_prover_t.verify writes it
};

struct DeviceInfoReply {
  static constexpr Op op = Op::device_info;
  zkp_device_info_t info{};
};

// Room for the largest payload.
inline constexpr size_t kPayloadBytes =
    std::max({sizeof(CreateRequest), sizeof(CreateReply), sizeof(KeyLoadRequest), sizeof(KeyLoadReply),
              sizeof(KeyFreeRequest), sizeof(ProveRequest), sizeof(ProveReply), sizeof(SynthesizeRequest),
              sizeof(VerifyRequest), sizeof(VerifyReply), sizeof(DeviceInfoReply)});

// A frame's fixed shape. `text` is a NUL-terminated message (an error, a name).
struct Frame {
  uint32_t op = 0;
  int32_t status = 0;  // replies: a zkp_status_t
  uint64_t id = 0;     // the request it answers
  alignas(8) unsigned char payload[kPayloadBytes] = {};
  char text[ZKP_ERROR_MESSAGE_CAPACITY] = {};  // as long as zkp_error_t.message: a plugin's message crosses whole

  void set_text(std::span<const char> s);

  // Writes `p` as the payload and its op as the frame's.
  template <class Payload>
  void put(const Payload& p) {
    check_payload<Payload>();
    op = static_cast<uint32_t>(Payload::op);
    std::memcpy(payload, &p, sizeof(Payload));
  }
  // The payload as `Payload`. Throws zkp::sdk::Error(ZKP_ERR_INTERNAL) if the frame is of
  // another op (a reply is read only once its status is ZKP_OK).
  template <class Payload>
  Payload get() const {
    check_payload<Payload>();
    if (op != static_cast<uint32_t>(Payload::op)) throw_wrong_op(op, static_cast<uint32_t>(Payload::op));
    Payload p;
    std::memcpy(&p, payload, sizeof(Payload));
    return p;
  }

 private:
  template <class Payload>
  static constexpr void check_payload() {
    static_assert(std::is_trivially_copyable_v<Payload>, "a payload crosses as its bytes");
    static_assert(sizeof(Payload) <= kPayloadBytes, "a payload must fit the frame: list it in kPayloadBytes");
    static_assert(std::is_same_v<decltype(Payload::op), const Op>, "a payload names its op");
  }
  [[noreturn]] static void throw_wrong_op(uint32_t got, uint32_t wanted);
};

static_assert(std::is_trivially_copyable_v<Frame>, "a frame crosses as its bytes");

}  // namespace zkp::host::isolation
