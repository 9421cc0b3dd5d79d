// How the provers report the formats layer's errors at the ABI. The formats layer throws
// FormatError (malformed or mismatched input) and IoError (the OS refused a read); a prover
// entry point runs its body through translate_format_errors, which turns them into
// ZKP_ERR_BAD_INPUT and ZKP_ERR_NOT_FOUND with the same message. Shared by the cpu and cuda
// provers, so the same bad file gets the same status from both.
#pragma once

#include <zkpipe/sdk/error.hpp>

#include "formats/error.hpp"

namespace zkp::cpu {

template <class Body>
auto translate_format_errors(Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const FormatError& e) {
    throw sdk::Error(ZKP_ERR_BAD_INPUT, e.what());
  } catch (const IoError& e) {
    throw sdk::Error(ZKP_ERR_NOT_FOUND, e.what());
  }
}

}  // namespace zkp::cpu
