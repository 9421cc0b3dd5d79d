// The blinding scalars r and s. Zero knowledge rests on them being uniform and secret, so they
// come from the operating system's CSPRNG (getrandom(2), which blocks only until the kernel
// pool is first seeded), by rejection sampling: uniform on [0, r), fewer than 2 draws on
// average for both curves' r.
#pragma once

#include <sys/random.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace zkp::groth16 {

// Fills `out` from getrandom(2). Throws std::runtime_error if the kernel refuses.
inline void os_random_bytes(void* out, std::size_t size) {
  auto* p = static_cast<std::uint8_t*>(out);
  while (size > 0) {
    const ssize_t got = ::getrandom(p, size, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("getrandom failed: ") + std::strerror(errno));
    }
    p += got;
    size -= static_cast<std::size_t>(got);
  }
}

template <class Fr>
Fr os_random_scalar() {
  using Int = typename Fr::Int;
  constexpr std::size_t kTopBits = Fr::kBits - 64 * (Int::kLimbs - 1);
  constexpr std::uint64_t kTopMask = kTopBits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << kTopBits) - 1;
  for (;;) {
    Int v;
    os_random_bytes(v.limbs.data(), sizeof(v.limbs));
    v.limbs[Int::kLimbs - 1] &= kTopMask;
    if (const auto f = Fr::from_bigint(v)) return *f;
  }
}

}  // namespace zkp::groth16
