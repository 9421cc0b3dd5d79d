#include "error_message.hpp"

#include <algorithm>
#include <cstring>

namespace zkp::rapidsnark {

void copy_error(char* out, unsigned long long capacity, std::string_view message) noexcept {
  if (out == nullptr || capacity == 0) return;
  const std::size_t n = static_cast<std::size_t>(std::min<unsigned long long>(message.size(), capacity - 1));
  std::memcpy(out, message.data(), n);
  out[n] = '\0';
}

}  // namespace zkp::rapidsnark
