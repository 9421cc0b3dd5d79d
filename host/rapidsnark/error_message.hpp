// How librapidsnark hands a failure to its caller: a rapidsnark status code and a message,
// copied into the caller's error_msg truncated to its size, as rapidsnark's CopyError does.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

// On the definitions of rapidsnark's functions: the library is built with hidden visibility
// (and rapidsnark.map), and prover.h / verifier.h stay rapidsnark's plain declarations.
#define ZKP_RAPIDSNARK_EXPORT __attribute__((visibility("default")))

namespace zkp::rapidsnark {

// A failure with the status code the C function returns (PROVER_* or VERIFIER_*).
class Failure : public std::runtime_error {
 public:
  Failure(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// Writes `message`, NUL-terminated and truncated to `capacity` bytes; nothing when `out` is
// NULL or `capacity` is 0. Never throws.
void copy_error(char* out, unsigned long long capacity, std::string_view message) noexcept;

// Runs `body`, which returns the status code, and turns every exception into `error_code` (or
// a Failure's own code) with its message in error_msg: nothing crosses the C boundary.
template <class Body>
int guard(int error_code, char* error_msg, unsigned long long error_msg_maxsize, Body&& body) noexcept {
  try {
    return body();
  } catch (const Failure& f) {
    copy_error(error_msg, error_msg_maxsize, f.what());
    return f.code();
  } catch (const std::exception& e) {
    copy_error(error_msg, error_msg_maxsize, e.what());
  } catch (...) {
    copy_error(error_msg, error_msg_maxsize, "unknown error");
  }
  return error_code;
}

}  // namespace zkp::rapidsnark
