#include "prove_buffer.hpp"

#include <zkpipe/sdk/error.hpp>

#include <fcntl.h>

#include <algorithm>
#include <cstring>
#include <string>

namespace zkp::host::isolation {

using sdk::Error;

namespace {

constexpr uint64_t kAux = 1, kADensity = 2, kBInputDensity = 4, kBAuxDensity = 8;

// What precedes a caller's synthesized arrays in the buffer.
struct SynthesizedHeader {
  uint64_t abc_length, assignment_length, flags, aux_length, a_aux_bits, b_input_bits, b_aux_bits, present;
};

uint64_t words(uint64_t bits) { return (bits + 63) / 64; }

// The buffer around an input of `input_size` bytes.
ProveBuffer make_buffer(uint64_t kind, size_t input_size, size_t proof_capacity, size_t public_capacity) {
  ProveBuffer b;
  b.kind = kind;
  b.input_offset = kRandomnessRegionBytes;
  b.input_size = input_size;
  b.output_offset = (b.input_offset + input_size + 63) / 64 * 64;
  b.proof_capacity = proof_capacity;
  b.public_capacity = public_capacity;
  b.memory = SharedMemory::create(b.output_offset + proof_capacity + public_capacity, "zkpipe-partition");
  return b;
}

void check_fits(const SharedMemory& m, uint64_t offset, uint64_t size) {
  if (offset > m.size() || size > m.size() - offset) {
    throw Error(ZKP_ERR_INTERNAL, "a partition's shared buffer is smaller than its request says");
  }
}

// The bytes pack_witness puts in a buffer for `witness` (a path with its NUL, or its data).
std::span<const uint8_t> witness_bytes(const zkp_witness_t& witness) {
  if (witness.kind == ZKP_WITNESS_WTNS_FILE) {
    if (witness.path == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "a .wtns file witness without a path");
    return {reinterpret_cast<const uint8_t*>(witness.path), std::strlen(witness.path) + 1};
  }
  if (witness.kind != ZKP_WITNESS_WTNS_BUFFER && witness.kind != ZKP_WITNESS_ASSIGNMENT) {
    throw Error(ZKP_ERR_BAD_INPUT, "witness kind " + std::to_string(witness.kind) +
                                       " cannot be sent to a device process (isolation = process)");
  }
  if (witness.data == nullptr && witness.size != 0) throw Error(ZKP_ERR_INVALID_ARGUMENT, "a witness buffer is NULL");
  return {static_cast<const uint8_t*>(witness.data), witness.size};
}

zkp_witness_t witness_at(const SharedMemory& m, uint64_t kind, uint64_t offset, uint64_t size) {
  check_fits(m, offset, size);
  auto w = sdk::make_struct<zkp_witness_t>();
  w.kind = static_cast<zkp_witness_kind_t>(kind);
  const uint8_t* data = m.data() + offset;
  if (w.kind == ZKP_WITNESS_WTNS_FILE) {
    if (size == 0 || data[size - 1] != '\0') throw Error(ZKP_ERR_INTERNAL, "a witness path without its NUL");
    w.path = reinterpret_cast<const char*>(data);
  } else {
    w.data = data;
    w.size = size;
  }
  return w;
}

constexpr uint64_t kPage = 4096;
uint64_t round_up(uint64_t n, uint64_t to) { return (n + to - 1) / to * to; }

}  // namespace

void ProveBuffer::describe(ProveRequest& request) const {
  request.kind = kind;
  request.input_offset = input_offset;
  request.input_size = input_size;
  request.output_offset = output_offset;
  request.proof_capacity = proof_capacity;
  request.public_capacity = public_capacity;
}

void ProveBuffer::describe_synthesis(SynthesizeRequest& request) const {
  request.witness_kind = witness_kind;
  request.witness_offset = witness_offset;
  request.witness_size = witness_size;
  request.input_offset = input_offset;
  request.input_size = input_size;
}

void ProveBuffer::release_witness() {
  if (witness_size == 0 || !memory.data()) return;
  // Best effort: a kernel without hole punching in memfds keeps the pages until the partition ends.
  (void)::fallocate(memory.fd(), FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(witness_offset),
                    static_cast<off_t>(round_up(witness_size, kPage)));
  witness_size = 0;
}

ProveBuffer pack_witness(const zkp_witness_t& witness, size_t proof_capacity, size_t public_capacity) {
  const std::span<const uint8_t> bytes = witness_bytes(witness);
  ProveBuffer b = make_buffer(witness.kind, bytes.size(), proof_capacity, public_capacity);
  if (!bytes.empty()) std::memcpy(b.memory.data() + b.input_offset, bytes.data(), bytes.size());
  return b;
}

ProveBuffer pack_for_synthesis(const zkp_witness_t& witness, uint64_t synthesized_bytes, size_t proof_capacity,
                               size_t public_capacity) {
  const std::span<const uint8_t> bytes = witness_bytes(witness);
  ProveBuffer b;
  b.kind = kKindSynthesized;
  b.input_offset = kRandomnessRegionBytes;
  b.input_size = sizeof(SynthesizedHeader) + synthesized_bytes;
  b.output_offset = round_up(b.input_offset + b.input_size, 64);
  b.proof_capacity = proof_capacity;
  b.public_capacity = public_capacity;
  b.witness_kind = witness.kind;
  b.witness_offset = round_up(b.output_offset + proof_capacity + public_capacity, kPage);
  b.witness_size = bytes.size();
  // The synthesized region is written once, by the device process; the memfd's pages are
  // allocated as it writes them (a fresh memfd reads as zeros and costs nothing until then).
  b.memory = SharedMemory::create(b.witness_offset + std::max<uint64_t>(bytes.size(), 1), "zkpipe-synthesis");
  if (!bytes.empty()) std::memcpy(b.memory.data() + b.witness_offset, bytes.data(), bytes.size());
  return b;
}

ProveBuffer pack_synthesized(const zkp_synthesized_t& caller, size_t proof_capacity, size_t public_capacity) {
  // An older caller's struct ends before flags: the rest reads as zero (zkp_prover.h).
  zkp_synthesized_t in = sdk::make_struct<zkp_synthesized_t>();
  std::memcpy(&in, &caller, std::min<size_t>(caller.header.struct_size, sizeof(in)));
  SynthesizedHeader h{in.abc_length, in.assignment_length, in.flags, in.aux_assignment_length,
                      in.a_aux_bit_len, in.b_input_bit_len, in.b_aux_bit_len, 0};
  struct Part {
    const void* data;
    uint64_t bytes;
  };
  const Part parts[] = {
      {in.a, h.abc_length * ZKP_SCALAR_SIZE},
      {in.b, h.abc_length * ZKP_SCALAR_SIZE},
      {in.c, h.abc_length * ZKP_SCALAR_SIZE},
      {in.assignment, h.assignment_length * ZKP_SCALAR_SIZE},
      {in.aux_assignment, in.aux_assignment != nullptr ? h.aux_length * ZKP_SCALAR_SIZE : 0},
      {in.a_aux_density, in.a_aux_density != nullptr ? words(h.a_aux_bits) * 8 : 0},
      {in.b_input_density, in.b_input_density != nullptr ? words(h.b_input_bits) * 8 : 0},
      {in.b_aux_density, in.b_aux_density != nullptr ? words(h.b_aux_bits) * 8 : 0},
  };
  if (in.aux_assignment != nullptr) h.present |= kAux;
  if (in.a_aux_density != nullptr) h.present |= kADensity;
  if (in.b_input_density != nullptr) h.present |= kBInputDensity;
  if (in.b_aux_density != nullptr) h.present |= kBAuxDensity;
  uint64_t size = sizeof(h);
  for (const Part& p : parts) {
    if (p.bytes != 0 && p.data == nullptr) throw Error(ZKP_ERR_INVALID_ARGUMENT, "zkp_synthesized_t has a NULL array");
    size += p.bytes;
  }
  ProveBuffer b = make_buffer(kKindSynthesized, size, proof_capacity, public_capacity);
  uint8_t* out = b.memory.data() + b.input_offset;
  std::memcpy(out, &h, sizeof(h));
  out += sizeof(h);
  for (const Part& p : parts) {
    if (p.bytes != 0) std::memcpy(out, p.data, p.bytes);
    out += p.bytes;
  }
  return b;
}

zkp_witness_t witness_view(const SharedMemory& m, const ProveRequest& r) {
  return witness_at(m, r.kind, r.input_offset, r.input_size);
}

zkp_witness_t synthesis_witness_view(const SharedMemory& m, const SynthesizeRequest& r) {
  return witness_at(m, r.witness_kind, r.witness_offset, r.witness_size);
}

std::span<uint8_t> synthesis_target(const SharedMemory& m, const SynthesizeRequest& r) {
  const uint64_t offset = r.input_offset, size = r.input_size;
  check_fits(m, offset, size);
  if (size < sizeof(SynthesizedHeader)) throw Error(ZKP_ERR_INTERNAL, "a synthesis region without room for its header");
  return {m.data() + offset + sizeof(SynthesizedHeader), size - sizeof(SynthesizedHeader)};
}

void finish_synthesis(const SharedMemory& m, const SynthesizeRequest& r, const zkp_synthesized_t& out) {
  const std::span<uint8_t> target = synthesis_target(m, r);
  const uint64_t abc = out.abc_length * ZKP_SCALAR_SIZE, assigned = out.assignment_length * ZKP_SCALAR_SIZE;
  const uint8_t* base = target.data();
  const bool layout = out.a == base && out.b == base + abc && out.c == base + 2 * abc &&
                      out.assignment == base + 3 * abc && 3 * abc + assigned <= target.size() &&
                      out.aux_assignment == nullptr && out.a_aux_density == nullptr &&
                      out.b_input_density == nullptr && out.b_aux_density == nullptr;
  if (!layout) {
    throw Error(ZKP_ERR_INTERNAL, "synthesize_into described arrays other than the ZKP_SYNTHESIZED_INTO layout "
                                  "of its buffer (zkp_prover.h)");
  }
  const SynthesizedHeader h{out.abc_length, out.assignment_length, out.flags, 0, 0, 0, 0, 0};
  std::memcpy(target.data() - sizeof(h), &h, sizeof(h));
}

zkp_synthesized_t synthesized_view(const SharedMemory& m, const ProveRequest& r) {
  const uint64_t offset = r.input_offset, size = r.input_size;
  check_fits(m, offset, size);
  if (size < sizeof(SynthesizedHeader)) throw Error(ZKP_ERR_INTERNAL, "synthesized inputs without their header");
  SynthesizedHeader h{};
  std::memcpy(&h, m.data() + offset, sizeof(h));
  uint64_t at = offset + sizeof(h);
  auto take = [&](bool present, uint64_t bytes) -> const uint8_t* {
    if (!present) return nullptr;
    check_fits(m, at, bytes);
    const uint8_t* p = m.data() + at;
    at += bytes;
    return p;
  };
  auto s = sdk::make_struct<zkp_synthesized_t>();
  s.abc_length = h.abc_length;
  s.a = take(true, h.abc_length * ZKP_SCALAR_SIZE);
  s.b = take(true, h.abc_length * ZKP_SCALAR_SIZE);
  s.c = take(true, h.abc_length * ZKP_SCALAR_SIZE);
  s.assignment_length = h.assignment_length;
  s.assignment = take(true, h.assignment_length * ZKP_SCALAR_SIZE);
  s.flags = static_cast<uint32_t>(h.flags);
  s.aux_assignment_length = h.aux_length;
  s.aux_assignment = take((h.present & kAux) != 0, h.aux_length * ZKP_SCALAR_SIZE);
  s.a_aux_bit_len = h.a_aux_bits;
  s.a_aux_density = reinterpret_cast<const uint64_t*>(take((h.present & kADensity) != 0, words(h.a_aux_bits) * 8));
  s.b_input_bit_len = h.b_input_bits;
  s.b_input_density =
      reinterpret_cast<const uint64_t*>(take((h.present & kBInputDensity) != 0, words(h.b_input_bits) * 8));
  s.b_aux_bit_len = h.b_aux_bits;
  s.b_aux_density = reinterpret_cast<const uint64_t*>(take((h.present & kBAuxDensity) != 0, words(h.b_aux_bits) * 8));
  return s;
}

}  // namespace zkp::host::isolation
