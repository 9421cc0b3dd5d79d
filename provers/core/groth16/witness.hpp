// The full assignment w (wire-indexed, w[0] = 1) as standard-form integers: the scalars of the
// A, B1, B2 and C MSMs, and the right operand of synthesis's Montgomery products.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "core/formats/bytes.hpp"
#include "core/formats/error.hpp"

namespace zkp::groth16 {

static_assert(std::endian::native == std::endian::little,
              "scalars are copied from little-endian files limb by limb");

// Reads `count` values of Fr::kBytes little-endian standard-form bytes. Throws FormatError
// naming `what` unless every value is below r and w[0] = 1 (the constant wire; a witness
// without it cannot come from circom and would only produce a proof that fails to verify).
template <class Fr>
std::vector<typename Fr::Int> load_assignment(ByteView bytes, std::size_t count, std::string_view what) {
  using Int = typename Fr::Int;
  if (bytes.size() != count * Fr::kBytes) {
    format_fail(what, bytes.size(), " bytes of assignment, expected ", count, " values x ", Fr::kBytes,
                " bytes");
  }
  std::vector<Int> w(count);
  if (count != 0) std::memcpy(w.data(), bytes.data(), bytes.size());
  for (std::size_t i = 0; i < count; ++i) {
    if (!(w[i] < Fr::kModulus)) format_fail(what, "value ", i, " is not below the scalar field prime of ", Fr::Params::kName);
  }
  if (count == 0 || w[0] != Int::from_u64(1)) {
    format_fail(what, "value 0 (the constant wire) must be 1");
  }
  return w;
}

}  // namespace zkp::groth16
