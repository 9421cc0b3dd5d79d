// ZKP_HOST_INVARIANT(cond, message): a check that stays in release builds. A broken
// invariant of the host (over-committed budget, a count below zero) is a bug that
// would corrupt results if the host carried on; it logs the condition, file and line
// and aborts.
#pragma once

namespace zkp::host {

[[noreturn]] void invariant_failed(const char* condition, const char* message, const char* file,
                                   int line) noexcept;

}  // namespace zkp::host

#define ZKP_HOST_INVARIANT(cond, message)                                        \
  do {                                                                           \
    if (!(cond)) ::zkp::host::invariant_failed(#cond, message, __FILE__, __LINE__); \
  } while (false)
