#include "invariant.hpp"

#include <zkpipe/host/logging.hpp>

#include <cstdio>
#include <cstdlib>

namespace zkp::host {

void invariant_failed(const char* condition, const char* message, const char* file, int line) noexcept {
  try {
    log().critical("invariant broken at {}:{}: {} ({})", file, line, message, condition);
    log().flush();
  } catch (...) {
    std::fprintf(stderr, "zkpipe: invariant broken at %s:%d: %s (%s)\n", file, line, message, condition);
  }
  std::abort();
}

}  // namespace zkp::host
