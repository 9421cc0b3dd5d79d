#include "services/address.hpp"

#include <cstddef>
#include <cstdlib>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <unistd.h>

namespace zkp::services {

namespace {
constexpr unsigned long kMaxPort = 65535;
constexpr size_t kMaxPortDigits = 5;
}  // namespace

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

bool is_loopback_address(const std::string& address) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon + 1 == address.size()) return false;
  const std::string host = address.substr(0, colon);
  const std::string port = address.substr(colon + 1);
  if (port.find_first_not_of("0123456789") != std::string::npos || port.size() > kMaxPortDigits ||
      std::stoul(port) > kMaxPort) {
    return false;
  }
  if (host == "localhost") return true;
  in_addr v4{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  return host.size() > 2 && host.front() == '[' && host.back() == ']' &&
         ::inet_pton(AF_INET6, host.substr(1, host.size() - 2).c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

}  // namespace zkp::services
