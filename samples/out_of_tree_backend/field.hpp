// A 256-bit prime field in Montgomery form (R = 2^256), the simplest correct way: four 64-bit
// limbs, schoolbook CIOS multiplication with unsigned __int128, inversion by Fermat.
// Every constant is derived from the modulus at compile time, so a field is one line:
//   struct FqParams { static constexpr Limbs modulus = {...}; };  using Fq = Field<FqParams>;
// Montgomery form with R = 2^256 is also how snarkjs stores field elements in a .zkey, so a
// zkey coordinate is read into `mont` as it is.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

namespace ref {

using Limbs = std::array<uint64_t, 4>;  // little-endian limbs
using u128 = unsigned __int128;

// a >= b as 256-bit integers.
constexpr bool geq(const Limbs& a, const Limbs& b) {
  for (int i = 3; i >= 0; --i) {
    if (a[i] != b[i]) return a[i] > b[i];
  }
  return true;
}

// a - b, returning the borrow.
constexpr uint64_t sub_limbs(Limbs& a, const Limbs& b) {
  uint64_t borrow = 0;
  for (int i = 0; i < 4; ++i) {
    const u128 d = static_cast<u128>(a[i]) - b[i] - borrow;
    a[i] = static_cast<uint64_t>(d);
    borrow = static_cast<uint64_t>(d >> 64) & 1;
  }
  return borrow;
}

// a + b, returning the carry.
constexpr uint64_t add_limbs(Limbs& a, const Limbs& b) {
  uint64_t carry = 0;
  for (int i = 0; i < 4; ++i) {
    const u128 s = static_cast<u128>(a[i]) + b[i] + carry;
    a[i] = static_cast<uint64_t>(s);
    carry = static_cast<uint64_t>(s >> 64);
  }
  return carry;
}

constexpr bool bit(const Limbs& x, int i) { return (x[i / 64] >> (i % 64)) & 1; }

constexpr Limbs from_bytes_le(const uint8_t* p) {
  Limbs x{};
  for (int i = 0; i < 32; ++i) x[i / 8] |= static_cast<uint64_t>(p[i]) << (8 * (i % 8));
  return x;
}

inline void to_bytes_le(const Limbs& x, uint8_t* p) {
  for (int i = 0; i < 32; ++i) p[i] = static_cast<uint8_t>(x[i / 8] >> (8 * (i % 8)));
}

template <class P>
struct Field {
  static constexpr Limbs kModulus = P::modulus;
  // -modulus^-1 mod 2^64, by Newton's iteration (each step doubles the correct low bits).
  static constexpr uint64_t kInv = [] {
    uint64_t x = 1;
    for (int i = 0; i < 7; ++i) x *= 2 - kModulus[0] * x;
    return 0 - x;
  }();
  // R^2 mod p, by doubling 1 mod p 512 times.
  static constexpr Limbs kR2 = [] {
    Limbs x{1, 0, 0, 0};
    for (int i = 0; i < 512; ++i) {
      const uint64_t carry = add_limbs(x, x);
      if (carry || geq(x, kModulus)) sub_limbs(x, kModulus);
    }
    return x;
  }();

  Limbs mont{};  // x * R mod p

  static constexpr Field from_mont(const Limbs& m) { return Field{m}; }
  static constexpr Field zero() { return Field{}; }
  static constexpr Field one() { return from_int({1, 0, 0, 0}); }
  // A standard-form integer < p.
  static constexpr Field from_int(const Limbs& x) { return Field{x} * Field{kR2}; }

  constexpr Limbs to_int() const { return (*this * Field{Limbs{1, 0, 0, 0}}).mont; }
  constexpr bool is_zero() const { return mont == Limbs{}; }
  constexpr bool operator==(const Field& o) const { return mont == o.mont; }

  constexpr Field operator+(const Field& o) const {
    Field r = *this;
    const uint64_t carry = add_limbs(r.mont, o.mont);
    if (carry || geq(r.mont, kModulus)) sub_limbs(r.mont, kModulus);
    return r;
  }
  constexpr Field operator-(const Field& o) const {
    Field r = *this;
    if (sub_limbs(r.mont, o.mont)) add_limbs(r.mont, kModulus);
    return r;
  }
  constexpr Field operator-() const { return zero() - *this; }

  // CIOS Montgomery multiplication (Koç, Acar, Kaliski 1996): a * b / R mod p.
  constexpr Field operator*(const Field& o) const {
    uint64_t t[6] = {};
    for (int i = 0; i < 4; ++i) {
      uint64_t c = 0;
      for (int j = 0; j < 4; ++j) {
        const u128 s = static_cast<u128>(mont[j]) * o.mont[i] + t[j] + c;
        t[j] = static_cast<uint64_t>(s);
        c = static_cast<uint64_t>(s >> 64);
      }
      u128 s = static_cast<u128>(t[4]) + c;
      t[4] = static_cast<uint64_t>(s);
      t[5] = static_cast<uint64_t>(s >> 64);
      const uint64_t m = t[0] * kInv;
      s = static_cast<u128>(m) * kModulus[0] + t[0];
      c = static_cast<uint64_t>(s >> 64);
      for (int j = 1; j < 4; ++j) {
        s = static_cast<u128>(m) * kModulus[j] + t[j] + c;
        t[j - 1] = static_cast<uint64_t>(s);
        c = static_cast<uint64_t>(s >> 64);
      }
      s = static_cast<u128>(t[4]) + c;
      t[3] = static_cast<uint64_t>(s);
      t[4] = t[5] + static_cast<uint64_t>(s >> 64);
    }
    Field r{Limbs{t[0], t[1], t[2], t[3]}};
    if (t[4] || geq(r.mont, kModulus)) sub_limbs(r.mont, kModulus);
    return r;
  }

  constexpr Field pow(const Limbs& e) const {
    Field r = one();
    for (int i = 255; i >= 0; --i) {
      r = r * r;
      if (bit(e, i)) r = r * *this;
    }
    return r;
  }
  // x^(p-2) = 1/x (Fermat); 0 for 0.
  constexpr Field inverse() const {
    Limbs e = kModulus;
    sub_limbs(e, Limbs{2, 0, 0, 0});
    return pow(e);
  }
};

}  // namespace ref
