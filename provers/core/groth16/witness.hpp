// The full assignment w (wire-indexed, w[0] = 1) as standard-form integers: the scalars of the
// A, B1, B2 and C MSMs, and the right operand of synthesis's Montgomery products.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/formats/bytes.hpp"
#include "core/formats/error.hpp"
#include "core/util/first_index.hpp"

namespace zkp::groth16 {

static_assert(std::endian::native == std::endian::little,
              "scalars are copied from little-endian files limb by limb");

// Reads `count` values of Fr::kBytes little-endian standard-form bytes. Throws FormatError
// naming `what` unless every value is below r and w[0] = 1 (the constant wire; a witness
// without it cannot come from circom and would only produce a proof that fails to verify).
// With a pool, the copy and the checks run on it (the error names the same first bad value):
// one thread's pass over a 2^20-wire witness was a serial stretch of a proof.
template <class Fr>
std::vector<typename Fr::Int> load_assignment(ByteView bytes, std::size_t count, std::string_view what,
                                              ThreadPool* pool = nullptr) {
  using Int = typename Fr::Int;
  if (bytes.size() != count * Fr::kBytes) {
    format_fail(what, bytes.size(), " bytes of assignment, expected ", count, " values x ", Fr::kBytes,
                " bytes");
  }
  std::vector<Int> w(count);
  const auto copy_fails = [&](std::size_t i) {
    std::memcpy(w[i].limbs.data(), bytes.data() + i * Fr::kBytes, Fr::kBytes);
    return !(w[i] < Fr::kModulus);
  };
  std::optional<std::size_t> bad;
  if (pool != nullptr) {
    bad = first_index(*pool, count, std::size_t{1} << 14, copy_fails);
  } else {
    for (std::size_t i = 0; i < count && !bad; ++i)
      if (copy_fails(i)) bad = i;
  }
  if (bad) format_fail(what, "value ", *bad, " is not below the scalar field prime of ", Fr::Params::kName);
  if (count == 0 || w[0] != Int::from_u64(1)) {
    format_fail(what, "value 0 (the constant wire) must be 1");
  }
  return w;
}

}  // namespace zkp::groth16
