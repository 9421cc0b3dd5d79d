// What the conformance suites share: a failed call's status and message as one text.
#pragma once

#include "report.hpp"

#include <zkpipe/zkp_common.h>

#include <string>

namespace zkp::conformance {

// An option no plugin has: every factory must refuse it, by name.
inline constexpr const char* kUnknownOption = "zkp_check_no_such_option";

inline std::string status_text(zkp_status_t s, const zkp_error_t& err) {
  return cat(zkp_status_name(s), err.message[0] ? ": " : "", err.message);
}

}  // namespace zkp::conformance
