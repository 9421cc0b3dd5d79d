// How a prover reports the core's errors at the ABI. The formats layer throws FormatError
// (malformed or mismatched input) and IoError (the OS refused a read); a prover entry point
// runs its body through translate_format_errors, which turns them into ZKP_ERR_BAD_INPUT and
// ZKP_ERR_NOT_FOUND with the same message, so the same bad file gets the same status from every
// backend.
#pragma once

#include <zkpipe/sdk/error.hpp>

#include <string>

#include "core/formats/error.hpp"

namespace zkp::backend {

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

inline sdk::Error bad_input(const std::string& message) { return sdk::Error(ZKP_ERR_BAD_INPUT, message); }

// A synthesis passed to prove_start again after a proof took its memory over
// (ZKP_PROVE_INPUT_FINAL): a host that broke its promise, refused rather than proved wrong.
inline sdk::Error handed_over_error() {
  return sdk::Error(ZKP_ERR_INVALID_ARGUMENT,
                    "the synthesis was handed over to an earlier proof (ZKP_PROVE_INPUT_FINAL) and is consumed");
}

}  // namespace zkp::backend
