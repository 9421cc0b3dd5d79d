#include "frame.hpp"

#include <zkpipe/sdk/error.hpp>

#include <string>

namespace zkp::host::isolation {

void Frame::set_text(std::span<const char> s) {
  const size_t n = std::min(s.size(), sizeof(text) - 1);
  std::memcpy(text, s.data(), n);
  text[n] = '\0';
}

void Frame::throw_wrong_op(uint32_t got, uint32_t wanted) {
  throw sdk::Error(ZKP_ERR_INTERNAL, "zkpipe-device protocol: a frame of op " + std::to_string(got) +
                                         " read as a payload of op " + std::to_string(wanted));
}

}  // namespace zkp::host::isolation
