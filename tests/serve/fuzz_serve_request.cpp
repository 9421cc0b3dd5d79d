// Fuzz entry point: a gRPC request's bytes as `zkpipe serve` decodes them, without the network:
// the protobuf parse of a JobRequest (what gRPC hands Submit and Prove) and take_partitions
// (host/serve/job_request.hpp), which turns it into the partitions the host gets. A malformed
// message is one the parse refuses; a bad request may be refused only with zkp::sdk::Error
// (ZKP_ERR_INVALID_ARGUMENT, what the client sees as INVALID_ARGUMENT). Anything else escaping,
// a sanitizer report, or partitions that break what take_partitions promises (each pointing
// into bytes it owns, of the lengths it states, every density bitmap as long as its bit_len
// needs) is a bug, and the fuzzer reports it.
#include <zkpipe/sdk/error.hpp>

#include "job_request.hpp"
#include "zkpipe/v1/prover.pb.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

namespace v1 = zkpipe::v1;

[[noreturn]] void broken(const char* what, size_t partition) {
  std::fprintf(stderr, "fuzz_serve_request: partition %zu: %s\n", partition, what);
  std::abort();
}

// The words a bitmap of `bit_len` bits needs, without overflow for any bit_len.
uint64_t words_needed(uint64_t bit_len) { return bit_len / 64 + (bit_len % 64 != 0 ? 1 : 0); }

void check_bitmap(bool present, const v1::DensityBitmap& sent, const uint64_t* words, uint64_t bit_len,
                  size_t partition) {
  if (!present) {
    if (words != nullptr || bit_len != 0) broken("an absent bitmap was given words or a length", partition);
    return;
  }
  if (bit_len != sent.bit_len()) broken("a bitmap's bit_len changed", partition);
  if (sent.words().size() / sizeof(uint64_t) < words_needed(bit_len)) {
    broken("a bitmap has fewer words than its bit_len needs", partition);
  }
  if ((words == nullptr) != sent.words().empty()) broken("a bitmap's words went missing", partition);
}

void check_synthesized(const zkp_synthesized_t& r, const v1::SynthesizedPartition& sent, size_t partition) {
  const uint64_t n = sent.a().size() / ZKP_SCALAR_SIZE;
  if (r.abc_length == 0 || r.abc_length != n || sent.a().size() % ZKP_SCALAR_SIZE != 0 ||
      sent.b().size() != sent.a().size() || sent.c().size() != sent.a().size()) {
    broken("a, b and c are not as many whole scalars as abc_length says", partition);
  }
  if (r.a == nullptr || r.b == nullptr || r.c == nullptr) broken("a, b or c is missing", partition);
  if (r.assignment == nullptr || r.assignment_length * ZKP_SCALAR_SIZE != sent.assignment().size()) {
    broken("the assignment is not assignment_length scalars", partition);
  }
  if (r.aux_assignment_length * ZKP_SCALAR_SIZE != sent.aux_assignment().size()) {
    broken("the aux assignment is not aux_assignment_length scalars", partition);
  }
  check_bitmap(sent.has_a_aux_density(), sent.a_aux_density(), r.a_aux_density, r.a_aux_bit_len, partition);
  check_bitmap(sent.has_b_input_density(), sent.b_input_density(), r.b_input_density, r.b_input_bit_len, partition);
  check_bitmap(sent.has_b_aux_density(), sent.b_aux_density(), r.b_aux_density, r.b_aux_bit_len, partition);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  v1::JobRequest request;
  if (!request.ParseFromArray(data, static_cast<int>(size))) return 0;  // gRPC answers INTERNAL: not ours
  const v1::JobRequest sent = request;  // take_partitions moves out of `request`
  zkp::serve::JobPartitions job;
  try {
    zkp::serve::take_partitions(request, job);
  } catch (const zkp::sdk::Error& e) {
    if (e.status() != ZKP_ERR_INVALID_ARGUMENT) broken("refused with a status other than INVALID_ARGUMENT", 0);
    return 0;
  }
  const size_t w = static_cast<size_t>(sent.witnesses_size()), s = static_cast<size_t>(sent.synthesized_size());
  if ((w == 0) == (s == 0) || job.parts.size() != w + s) broken("not one partition per witness or synthesis", 0);
  for (size_t i = 0; i < w; ++i) {
    const zkp_partition_t& p = job.parts[i];
    // inputs: input.json texts for the key's witness generator; else .wtns bytes.
    const zkp_witness_kind_t kind = sent.inputs() ? ZKP_WITNESS_INPUT_JSON : ZKP_WITNESS_WTNS_BUFFER;
    if (p.witness.kind != kind || p.witness.size != sent.witnesses(static_cast<int>(i)).size() ||
        (p.witness.size != 0 && p.witness.data != job.witnesses[i].data()) || p.synthesized != nullptr) {
      broken("a witness partition does not point at its own bytes", i);
    }
  }
  for (size_t i = 0; i < s; ++i) {
    const zkp_partition_t& p = job.parts[w + i];
    if (p.synthesized != &job.synthesized[i]->record()) broken("a synthesized partition lost its record", i);
    check_synthesized(*p.synthesized, sent.synthesized(static_cast<int>(i)), i);
  }
  return 0;
}
