// What the conformance suites share: a failed call's status and message as one text, the
// unknown option, the fixed (r, s).
#pragma once

#include "report.hpp"

#include <zkpipe/zkp_prover.h>

#include <string>
#include <vector>

namespace zkp::conformance {

// An option no plugin has: every factory must refuse it, by name.
inline constexpr const char* kUnknownOption = "zkp_check_no_such_option";

// Fixed (r, s), below r on both curves (top byte 0x0f), as tests/cuda_prover fixes them.
inline std::vector<uint8_t> fixed_randomness() {
  std::vector<uint8_t> rs(2 * ZKP_SCALAR_SIZE);
  for (size_t i = 0; i < rs.size(); ++i) rs[i] = static_cast<uint8_t>(i * 7 + 1);
  rs[ZKP_SCALAR_SIZE - 1] = rs[2 * ZKP_SCALAR_SIZE - 1] = 0x0f;
  return rs;
}

inline std::string status_text(zkp_status_t s, const zkp_error_t& err) {
  return cat(zkp_status_name(s), err.message[0] ? ": " : "", err.message);
}

}  // namespace zkp::conformance
