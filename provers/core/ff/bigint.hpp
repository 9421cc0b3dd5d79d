// Fixed-width unsigned integers of N 64-bit limbs, little-endian limb order.
//
// This is the plain-integer layer under the fields: moduli, exponents, scalars
// in standard form (what an MSM slices into windows) and the decimal/hex text
// of proof.json. Everything is constexpr so that field constants can be derived
// from the modulus at compile time. Nothing here is constant-time.
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

// Add-with-carry builtins for add_carry / sub_borrow (see there); not in CUDA device code.
#if !defined(__CUDA_ARCH__) && defined(__clang__)
#define ZKPIPE_ADDC_BUILTIN 1
#elif !defined(__CUDA_ARCH__) && (defined(__x86_64__) || defined(_M_X64))
#define ZKPIPE_ADDC_X86 1
#include <x86intrin.h>
#endif

namespace zkp {

__extension__ typedef unsigned __int128 uint128_t;  // __extension__: quiet under -Wpedantic

// The carry helpers below are the inner loop of every field operation. GCC 12 does not
// turn the portable 128-bit form into an ADC chain (it zero-extends each operand and
// keeps the sums in register pairs: 3–4× the instructions, measured in docs/PERF-CPU.md
// "Field arithmetic"), so at run time they use the compiler's add-with-carry builtins,
// which GCC and Clang lower to one ADC/SBB each. Constant evaluation, CUDA device code
// and other targets take the portable form.

// a + b + carry_in; returns the low word and leaves the carry (0 or 1) in `carry`.
[[gnu::always_inline]] constexpr std::uint64_t add_carry(std::uint64_t a, std::uint64_t b, std::uint64_t& carry) {
#if defined(ZKPIPE_ADDC_BUILTIN)
  if (!std::is_constant_evaluated()) {
    unsigned long long out;
    const unsigned long long s = __builtin_addcll(a, b, carry, &out);
    carry = out;
    return s;
  }
#elif defined(ZKPIPE_ADDC_X86)
  if (!std::is_constant_evaluated()) {
    unsigned long long s;
    carry = _addcarry_u64(static_cast<unsigned char>(carry), a, b, &s);
    return s;
  }
#endif
  const uint128_t s = uint128_t{a} + b + carry;
  carry = static_cast<std::uint64_t>(s >> 64);
  return static_cast<std::uint64_t>(s);
}

// a − b − borrow_in; returns the low word and leaves the borrow (0 or 1) in `borrow`.
[[gnu::always_inline]] constexpr std::uint64_t sub_borrow(std::uint64_t a, std::uint64_t b, std::uint64_t& borrow) {
#if defined(ZKPIPE_ADDC_BUILTIN)
  if (!std::is_constant_evaluated()) {
    unsigned long long out;
    const unsigned long long d = __builtin_subcll(a, b, borrow, &out);
    borrow = out;
    return d;
  }
#elif defined(ZKPIPE_ADDC_X86)
  if (!std::is_constant_evaluated()) {
    unsigned long long d;
    borrow = _subborrow_u64(static_cast<unsigned char>(borrow), a, b, &d);
    return d;
  }
#endif
  const uint128_t d = uint128_t{a} - b - borrow;
  borrow = static_cast<std::uint64_t>(d >> 127);
  return static_cast<std::uint64_t>(d);
}

template <std::size_t N>
struct BigInt {
  static_assert(N > 0);
  static constexpr std::size_t kLimbs = N;
  static constexpr std::size_t kBits = 64 * N;
  static constexpr std::size_t kBytes = 8 * N;

  std::array<std::uint64_t, N> limbs{};  // limbs[0] is least significant

  static constexpr BigInt from_u64(std::uint64_t v) {
    BigInt r;
    r.limbs[0] = v;
    return r;
  }

  // Hex text, optional "0x" prefix, at most kBits bits. Throws std::invalid_argument
  // otherwise, which inside a constant expression is a compile error.
  static constexpr BigInt from_hex(std::string_view s) {
    if (s.starts_with("0x") || s.starts_with("0X")) s.remove_prefix(2);
    if (s.empty() || s.size() > 16 * N) throw std::invalid_argument("BigInt::from_hex: bad length");
    BigInt r;
    std::size_t nibble = 0;
    for (std::size_t i = s.size(); i-- > 0; ++nibble) {
      const char c = s[i];
      std::uint64_t d = 0;
      if (c >= '0' && c <= '9') d = static_cast<std::uint64_t>(c - '0');
      else if (c >= 'a' && c <= 'f') d = static_cast<std::uint64_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') d = static_cast<std::uint64_t>(c - 'A' + 10);
      else throw std::invalid_argument("BigInt::from_hex: not a hex digit");
      r.limbs[nibble / 16] |= d << (4 * (nibble % 16));
    }
    return r;
  }

  // Decimal text of digits only (no sign, no spaces); nullopt if empty, not a
  // number, or at least 2^kBits.
  static constexpr std::optional<BigInt> parse_decimal(std::string_view s) {
    if (s.empty()) return std::nullopt;
    BigInt r;
    for (const char c : s) {
      if (c < '0' || c > '9') return std::nullopt;
      if (r.mul_add_small(10, static_cast<std::uint64_t>(c - '0')) != 0) return std::nullopt;
    }
    return r;
  }

  // As parse_decimal, but throws std::invalid_argument: for constants.
  static constexpr BigInt from_decimal(std::string_view s) {
    const auto r = parse_decimal(s);
    if (!r) throw std::invalid_argument("BigInt::from_decimal: not a decimal number that fits");
    return *r;
  }

  std::string to_decimal() const {
    if (is_zero()) return "0";
    // Peel off 19 decimal digits at a time: 10^19 is the largest power of ten below 2^64.
    constexpr std::uint64_t kChunk = 10'000'000'000'000'000'000ULL;
    constexpr int kChunkDigits = 19;
    BigInt q = *this;
    std::string out;
    while (!q.is_zero()) {
      std::uint64_t rem = q.div_small(kChunk);
      for (int d = 0; d < kChunkDigits && (rem != 0 || !q.is_zero()); ++d) {
        out.push_back(static_cast<char>('0' + rem % 10));
        rem /= 10;
      }
    }
    return {out.rbegin(), out.rend()};
  }

  std::string to_hex() const {
    constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = kBits / 4; i-- > 0;) {
      const auto d = (limbs[i / 16] >> (4 * (i % 16))) & 0xF;
      if (d != 0 || !out.empty()) out.push_back(kDigits[d]);
    }
    return out.empty() ? "0x0" : "0x" + out;
  }

  static constexpr BigInt from_le_bytes(std::span<const std::uint8_t, kBytes> b) {
    BigInt r;
    for (std::size_t i = 0; i < kBytes; ++i) r.limbs[i / 8] |= std::uint64_t{b[i]} << (8 * (i % 8));
    return r;
  }

  constexpr void to_le_bytes(std::span<std::uint8_t, kBytes> b) const {
    for (std::size_t i = 0; i < kBytes; ++i) b[i] = static_cast<std::uint8_t>(limbs[i / 8] >> (8 * (i % 8)));
  }

  constexpr bool is_zero() const {
    std::uint64_t acc = 0;
    for (auto l : limbs) acc |= l;
    return acc == 0;
  }
  constexpr bool is_odd() const { return (limbs[0] & 1) != 0; }
  constexpr bool bit(std::size_t i) const { return i < kBits && ((limbs[i / 64] >> (i % 64)) & 1) != 0; }

  // `count` (1..64) bits starting at bit `lo`, bits past the top read as zero:
  // the window extraction of a Pippenger MSM.
  constexpr std::uint64_t bits(std::size_t lo, std::size_t count) const {
    if (lo >= kBits) return 0;
    const std::size_t w = lo / 64, s = lo % 64;
    std::uint64_t v = limbs[w] >> s;
    if (s != 0 && w + 1 < N) v |= limbs[w + 1] << (64 - s);
    return count >= 64 ? v : v & ((std::uint64_t{1} << count) - 1);
  }

  // Index of the highest set bit plus one; 0 for zero.
  constexpr std::size_t num_bits() const {
    for (std::size_t i = N; i-- > 0;)
      if (limbs[i] != 0) return 64 * i + 64 - static_cast<std::size_t>(__builtin_clzll(limbs[i]));
    return 0;
  }

  // *this += b; returns the carry out.
  constexpr std::uint64_t add_in_place(const BigInt& b) {
    std::uint64_t c = 0;
    for (std::size_t i = 0; i < N; ++i) limbs[i] = add_carry(limbs[i], b.limbs[i], c);
    return c;
  }

  // *this −= b; returns the borrow out.
  constexpr std::uint64_t sub_in_place(const BigInt& b) {
    std::uint64_t br = 0;
    for (std::size_t i = 0; i < N; ++i) limbs[i] = sub_borrow(limbs[i], b.limbs[i], br);
    return br;
  }

  // *this = *this·m + a; returns the word that overflowed past the top limb.
  constexpr std::uint64_t mul_add_small(std::uint64_t m, std::uint64_t a) {
    std::uint64_t c = a;
    for (std::size_t i = 0; i < N; ++i) {
      const uint128_t t = uint128_t{limbs[i]} * m + c;
      limbs[i] = static_cast<std::uint64_t>(t);
      c = static_cast<std::uint64_t>(t >> 64);
    }
    return c;
  }

  // *this /= d (d ≠ 0); returns the remainder.
  constexpr std::uint64_t div_small(std::uint64_t d) {
    uint128_t rem = 0;
    for (std::size_t i = N; i-- > 0;) {
      const uint128_t cur = (rem << 64) | limbs[i];
      limbs[i] = static_cast<std::uint64_t>(cur / d);
      rem = cur % d;
    }
    return static_cast<std::uint64_t>(rem);
  }

  constexpr void shr1() {
    for (std::size_t i = 0; i + 1 < N; ++i) limbs[i] = (limbs[i] >> 1) | (limbs[i + 1] << 63);
    limbs[N - 1] >>= 1;
  }

  // Widen or narrow to M limbs; narrowing requires the dropped limbs to be zero (throws otherwise).
  template <std::size_t M>
  constexpr BigInt<M> resize() const {
    BigInt<M> r;
    for (std::size_t i = 0; i < N; ++i) {
      if (i < M) r.limbs[i] = limbs[i];
      else if (limbs[i] != 0) throw std::invalid_argument("BigInt::resize: value does not fit");
    }
    return r;
  }

  friend constexpr bool operator==(const BigInt&, const BigInt&) = default;

  // Numeric order (std::array's own <=> would compare the least significant limb first).
  friend constexpr std::strong_ordering operator<=>(const BigInt& a, const BigInt& b) {
    for (std::size_t i = N; i-- > 0;)
      if (a.limbs[i] != b.limbs[i]) return a.limbs[i] <=> b.limbs[i];
    return std::strong_ordering::equal;
  }
};

}  // namespace zkp
