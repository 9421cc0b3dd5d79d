// The shared buffer of one partition sent to a zkpipe-device process: its inputs, written
// by the host, and room for the proof, written by the device process.
//
//   [0, 64)                         r || s, when the job gave randomness
//   [input_offset, +input_size)     the input: a witness (.wtns bytes, an assignment, or a
//                                   .wtns path with its NUL), or caller-synthesized inputs
//                                   (SynthesizedHeader, then a, b, c, the assignment, the aux
//                                   assignment and the density bitmaps that are present)
//   [output_offset, +proof_capacity + public_capacity)   the proof, then its public inputs
//
// The host copies a caller's buffers in once (one memcpy, on the thread that packs); the
// device process reads them in place.
#pragma once

#include "channel.hpp"

#include <zkpipe/zkp_prover.h>

#include <cstdint>
#include <span>

namespace zkp::host::isolation {

// The buffer's first region: r || s, the randomness zkp_prove_input_t.randomness points to (the
// host's kRandomnessBytes, host/src/job.hpp, which isolated_prover.cpp checks it equals).
inline constexpr uint64_t kRandomnessRegionBytes = 2 * ZKP_SCALAR_SIZE;

struct ProveBuffer {
  SharedMemory memory;
  uint64_t kind = 0;  // a ZKP_WITNESS_* kind, or kKindSynthesized
  uint64_t input_offset = 0, input_size = 0, output_offset = 0, proof_capacity = 0, public_capacity = 0;
  // pack_for_synthesis only: the witness, after the proof's room, until release_witness().
  uint64_t witness_kind = 0, witness_offset = 0, witness_size = 0;

  // Fills the fields of a prove request that describe this buffer.
  void describe(ProveRequest& request) const;
  // Fills a synthesize request's (pack_for_synthesis).
  void describe_synthesis(SynthesizeRequest& request) const;
  // Gives the witness's pages back to the system (punches them out of the memfd) once the
  // device process synthesized it: the partition then holds its synthesized inputs only.
  void release_witness();
};

// Host side. Throw zkp::sdk::Error (ZKP_ERR_BAD_INPUT for a witness kind it cannot send).
ProveBuffer pack_witness(const zkp_witness_t& witness, size_t proof_capacity, size_t public_capacity);
ProveBuffer pack_synthesized(const zkp_synthesized_t& input, size_t proof_capacity, size_t public_capacity);
// The buffer of a partition a device process synthesizes (isolation = process): a
// kKindSynthesized input region of SynthesizedHeader + `synthesized_bytes` (the key's
// ZKP_SYNTHESIZED_INTO layout), left for the device process to fill, then the proof's room,
// then the witness (as pack_witness packs it, page-aligned so release_witness frees it whole).
ProveBuffer pack_for_synthesis(const zkp_witness_t& witness, uint64_t synthesized_bytes, size_t proof_capacity,
                               size_t public_capacity);

// Device side: views into `memory`, valid while it is mapped. Throw zkp::sdk::Error
// (ZKP_ERR_INTERNAL) when the request's regions do not fit the buffer.
zkp_witness_t witness_view(const SharedMemory& memory, const ProveRequest& request);
zkp_synthesized_t synthesized_view(const SharedMemory& memory, const ProveRequest& request);
// A synthesize request's: the witness, and the room synthesize_into writes to.
zkp_witness_t synthesis_witness_view(const SharedMemory& memory, const SynthesizeRequest& request);
std::span<uint8_t> synthesis_target(const SharedMemory& memory, const SynthesizeRequest& request);
// After synthesize_into wrote `out` into synthesis_target: checks that it is the
// ZKP_SYNTHESIZED_INTO layout there (ZKP_ERR_INTERNAL otherwise: the host would read other
// bytes than the prover wrote) and writes the SynthesizedHeader before it, so the input region
// reads as caller-synthesized inputs (synthesized_view) in any device process.
void finish_synthesis(const SharedMemory& memory, const SynthesizeRequest& request, const zkp_synthesized_t& out);

}  // namespace zkp::host::isolation
