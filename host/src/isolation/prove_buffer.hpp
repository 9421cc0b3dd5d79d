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

#include "isolation/channel.hpp"

#include <zkpipe/zkp_prover.h>

namespace zkp::host::isolation {

struct ProveBuffer {
  SharedMemory memory;
  uint64_t kind = 0;  // a ZKP_WITNESS_* kind, or kKindSynthesized
  uint64_t input_offset = 0, input_size = 0, output_offset = 0, proof_capacity = 0, public_capacity = 0;

  // Fills the prove request's arguments that describe this buffer.
  void describe(Frame& request) const;
};

// Host side. Throw zkp::sdk::Error (ZKP_ERR_BAD_INPUT for a witness kind it cannot send).
ProveBuffer pack_witness(const zkp_witness_t& witness, size_t proof_capacity, size_t public_capacity);
ProveBuffer pack_synthesized(const zkp_synthesized_t& input, size_t proof_capacity, size_t public_capacity);

// Device side: views into `memory`, valid while it is mapped. Throw zkp::sdk::Error
// (ZKP_ERR_INTERNAL) when the request's regions do not fit the buffer.
zkp_witness_t witness_view(const SharedMemory& memory, const Frame& request);
zkp_synthesized_t synthesized_view(const SharedMemory& memory, const Frame& request);

}  // namespace zkp::host::isolation
