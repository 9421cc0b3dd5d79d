#include "synthesized.hpp"

#include <zkpipe/sdk/error.hpp>

namespace zkp::serve {

namespace {

std::string where(uint32_t index, const char* field) {
  return "partition " + std::to_string(index) + ": synthesized." + field;
}

// The scalars of `bytes`, checked to be whole 32-byte scalars.
uint64_t scalars(const std::string& bytes, uint32_t index, const char* field) {
  if (bytes.size() % ZKP_SCALAR_SIZE != 0) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, where(index, field) + " is " + std::to_string(bytes.size()) +
                                                   " bytes, not whole " + std::to_string(ZKP_SCALAR_SIZE) +
                                                   "-byte scalars");
  }
  return bytes.size() / ZKP_SCALAR_SIZE;
}

const uint8_t* bytes_of(const std::string& s) { return s.empty() ? nullptr : reinterpret_cast<const uint8_t*>(s.data()); }

// A bitmap's words (nullptr: not set, every bit) and bit length, checked.
void bitmap(bool present, const zkpipe::v1::DensityBitmap& b, uint32_t index, const char* field, const uint64_t** words,
            uint64_t* bit_len) {
  *words = nullptr;
  *bit_len = 0;
  if (!present) return;
  const std::string& w = b.words();
  if (w.size() % sizeof(uint64_t) != 0) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT,
                     where(index, field) + ".words is " + std::to_string(w.size()) + " bytes, not whole u64 words");
  }
  // Not (bit_len + 63) / 64: that wraps for a bit_len within 63 of 2^64 and then needs no
  // words at all (fuzz_serve_request's invariant; tests/fuzz-corpus/serve_request/regress-*).
  const uint64_t needed = b.bit_len() / 64 + (b.bit_len() % 64 != 0 ? 1 : 0);
  if (w.size() / sizeof(uint64_t) < needed) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, where(index, field) + " has " + std::to_string(w.size() / 8) +
                                                   " words; bit_len " + std::to_string(b.bit_len()) + " needs " +
                                                   std::to_string(needed));
  }
  // libstdc++'s string storage is at least 8-aligned (operator new's alignment, or the
  // object's own for a short string); the prover reads the words as uint64_t.
  if (reinterpret_cast<uintptr_t>(w.data()) % alignof(uint64_t) != 0) {
    throw sdk::Error(ZKP_ERR_INTERNAL, where(index, field) + ": the words are not 8-byte aligned in memory");
  }
  *words = w.empty() ? nullptr : reinterpret_cast<const uint64_t*>(w.data());
  *bit_len = b.bit_len();
}

}  // namespace

SynthesizedInput::SynthesizedInput(zkpipe::v1::SynthesizedPartition&& from, uint32_t index) : arrays_(std::move(from)) {
  const uint64_t a = scalars(arrays_.a(), index, "a");
  const uint64_t b = scalars(arrays_.b(), index, "b");
  const uint64_t c = scalars(arrays_.c(), index, "c");
  if (a == 0 || a != b || a != c) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, where(index, "a, b and c") + " hold " + std::to_string(a) + ", " +
                                                   std::to_string(b) + " and " + std::to_string(c) +
                                                   " scalars: they must be as many, and not none");
  }
  const uint64_t assigned = scalars(arrays_.assignment(), index, "assignment");
  if (assigned == 0) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, where(index, "assignment") + " is empty (it starts with the constant 1)");
  const uint64_t aux = scalars(arrays_.aux_assignment(), index, "aux_assignment");

  record_ = sdk::make_struct<zkp_synthesized_t>();
  record_.a = bytes_of(arrays_.a());
  record_.b = bytes_of(arrays_.b());
  record_.c = bytes_of(arrays_.c());
  record_.abc_length = a;
  record_.assignment = bytes_of(arrays_.assignment());
  record_.assignment_length = assigned;
  record_.flags = arrays_.montgomery() ? ZKP_SYNTHESIZED_MONTGOMERY : 0u;
  record_.aux_assignment = bytes_of(arrays_.aux_assignment());
  record_.aux_assignment_length = aux;
  bitmap(arrays_.has_a_aux_density(), arrays_.a_aux_density(), index, "a_aux_density", &record_.a_aux_density,
         &record_.a_aux_bit_len);
  bitmap(arrays_.has_b_input_density(), arrays_.b_input_density(), index, "b_input_density", &record_.b_input_density,
         &record_.b_input_bit_len);
  bitmap(arrays_.has_b_aux_density(), arrays_.b_aux_density(), index, "b_aux_density", &record_.b_aux_density,
         &record_.b_aux_bit_len);
}

}  // namespace zkp::serve
