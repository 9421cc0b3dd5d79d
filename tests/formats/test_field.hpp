// A test-only prime field so the formats tests can do arithmetic without the ff/ layer:
// N-limb Montgomery multiplication (CIOS, Koc-Acar-Kaliski 1996), constant modulus per type.
// Slow and simple on purpose; it exists to check r1cs satisfaction and Montgomery encodings.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/formats/bytes.hpp"

namespace zkp::test {

template <std::size_t N>
using Limbs = std::array<std::uint64_t, N>;

template <std::size_t N>
Limbs<N> limbs_from_le(zkp::ByteView b) {
  Limbs<N> out{};
  for (std::size_t i = 0; i < b.size() && i < 8 * N; ++i) {
    out[i / 8] |= static_cast<std::uint64_t>(b[i]) << (8 * (i % 8));
  }
  return out;
}

template <std::size_t N>
bool geq(const Limbs<N>& a, const Limbs<N>& b) {
  for (std::size_t i = N; i-- > 0;) {
    if (a[i] != b[i]) return a[i] > b[i];
  }
  return true;
}

template <std::size_t N>
void sub_in_place(Limbs<N>& a, const Limbs<N>& b) {
  unsigned __int128 borrow = 0;
  for (std::size_t i = 0; i < N; ++i) {
    const unsigned __int128 d = static_cast<unsigned __int128>(a[i]) - b[i] - borrow;
    a[i] = static_cast<std::uint64_t>(d);
    borrow = (d >> 64) & 1;
  }
}

// Params: static zkp::ByteView modulus() (little-endian, N*8 bytes or fewer, odd, top limb
// leaving at least one spare bit so additions cannot overflow N limbs).
template <std::size_t N, class Params>
class MontField {
 public:
  MontField() = default;

  // Standard-form little-endian bytes -> element (reduces values >= p).
  static MontField from_bytes(zkp::ByteView b) {
    Limbs<N> v = limbs_from_le<N>(b);
    while (geq(v, p())) sub_in_place(v, p());
    return MontField(mul(v, r2()));
  }
  // Bytes that are already x*R mod p (e.g. zkey coordinates): no conversion.
  static MontField from_montgomery_bytes(zkp::ByteView b) { return MontField(limbs_from_le<N>(b)); }

  // Standard-form little-endian bytes, `n8` long.
  zkp::ByteVec to_bytes(std::size_t n8) const {
    Limbs<N> one{};
    one[0] = 1;
    const Limbs<N> v = mul(v_, one);
    zkp::ByteVec out(n8);
    for (std::size_t i = 0; i < n8; ++i) out[i] = static_cast<std::byte>(v[i / 8] >> (8 * (i % 8)));
    return out;
  }
  // The raw Montgomery representation (x*R mod p), `n8` bytes.
  zkp::ByteVec montgomery_bytes(std::size_t n8) const {
    zkp::ByteVec out(n8);
    for (std::size_t i = 0; i < n8; ++i)
      out[i] = static_cast<std::byte>(v_[i / 8] >> (8 * (i % 8)));
    return out;
  }

  friend MontField operator+(const MontField& a, const MontField& b) {
    Limbs<N> s{};
    unsigned __int128 carry = 0;
    for (std::size_t i = 0; i < N; ++i) {
      const unsigned __int128 t = static_cast<unsigned __int128>(a.v_[i]) + b.v_[i] + carry;
      s[i] = static_cast<std::uint64_t>(t);
      carry = t >> 64;
    }
    if (geq(s, p())) sub_in_place(s, p());
    return MontField(s);
  }
  friend MontField operator*(const MontField& a, const MontField& b) {
    return MontField(mul(a.v_, b.v_));
  }
  friend bool operator==(const MontField&, const MontField&) = default;

 private:
  explicit MontField(const Limbs<N>& v) : v_(v) {}

  static const Limbs<N>& p() {
    static const Limbs<N> m = limbs_from_le<N>(Params::modulus());
    return m;
  }
  // -p^-1 mod 2^64 by Newton iteration (each step doubles the correct low bits: 1,2,4,..,64).
  static std::uint64_t inv() {
    static const std::uint64_t v = [] {
      std::uint64_t x = 1;
      for (int i = 0; i < 6; ++i) x *= 2 - p()[0] * x;
      return ~x + 1;
    }();
    return v;
  }
  // R^2 mod p with R = 2^(64N), by doubling 1 (2*64N times) mod p.
  static const Limbs<N>& r2() {
    static const Limbs<N> v = [] {
      Limbs<N> x{};
      x[0] = 1;
      for (std::size_t i = 0; i < 2 * 64 * N; ++i) {
        std::uint64_t carry = 0;
        for (std::size_t j = 0; j < N; ++j) {
          const std::uint64_t next = x[j] >> 63;
          x[j] = (x[j] << 1) | carry;
          carry = next;
        }
        if (carry != 0 || geq(x, p())) sub_in_place(x, p());
      }
      return x;
    }();
    return v;
  }
  // a*b*R^-1 mod p (CIOS).
  static Limbs<N> mul(const Limbs<N>& a, const Limbs<N>& b) {
    std::array<std::uint64_t, N + 2> t{};
    for (std::size_t i = 0; i < N; ++i) {
      unsigned __int128 c = 0;
      for (std::size_t j = 0; j < N; ++j) {
        c += static_cast<unsigned __int128>(a[j]) * b[i] + t[j];
        t[j] = static_cast<std::uint64_t>(c);
        c >>= 64;
      }
      c += t[N];
      t[N] = static_cast<std::uint64_t>(c);
      t[N + 1] = static_cast<std::uint64_t>(c >> 64);
      const std::uint64_t m = t[0] * inv();
      c = static_cast<unsigned __int128>(m) * p()[0] + t[0];
      c >>= 64;
      for (std::size_t j = 1; j < N; ++j) {
        c += static_cast<unsigned __int128>(m) * p()[j] + t[j];
        t[j - 1] = static_cast<std::uint64_t>(c);
        c >>= 64;
      }
      c += t[N];
      t[N - 1] = static_cast<std::uint64_t>(c);
      t[N] = t[N + 1] + static_cast<std::uint64_t>(c >> 64);
    }
    Limbs<N> out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = t[i];
    if (t[N] != 0 || geq(out, p())) sub_in_place(out, p());
    return out;
  }

  Limbs<N> v_{};
};

}  // namespace zkp::test
