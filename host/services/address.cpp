#include "services/address.hpp"

#include <cstdlib>

#include <unistd.h>

namespace zkp::services {

std::string default_socket() {
  if (const char* dir = std::getenv("XDG_RUNTIME_DIR"); dir != nullptr && *dir != '\0') {
    return std::string(dir) + "/zkpipe.sock";
  }
  return "/tmp/zkpipe-" + std::to_string(::getuid()) + ".sock";
}

std::string target_of(const std::string& address) {
  if (address.empty()) return "unix:" + default_socket();
  if (address.front() == '/') return "unix:" + address;
  return address;
}

}  // namespace zkp::services
