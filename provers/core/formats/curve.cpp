#include "core/formats/curve.hpp"

#include <array>
#include <cstddef>

namespace zkp {
namespace {

// Big-endian hex (as the primes are usually written) to little-endian bytes, at compile time.
template <std::size_t N>
constexpr std::array<std::byte, N> le_from_hex(std::string_view hex) {
  std::array<std::byte, N> out{};
  std::size_t byte = 0;
  for (std::size_t i = hex.size(); i >= 2 && byte < N; i -= 2, ++byte) {
    auto nib = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    out[byte] = static_cast<std::byte>(nib(hex[i - 2]) * 16 + nib(hex[i - 1]));
  }
  return out;
}

// BN254 (alt_bn128, EIP-196) and BLS12-381 (IETF pairing-friendly-curves draft) primes.
constexpr auto kBnQ =
    le_from_hex<32>("30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47");
constexpr auto kBnR =
    le_from_hex<32>("30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001");
constexpr auto kBlsQ = le_from_hex<48>(
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf"
    "6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
constexpr auto kBlsR =
    le_from_hex<32>("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");

const CurveInfo kCurves[] = {
    {Curve::bn254, "BN254", "bn128", 32, 32, kBnQ, kBnR},
    {Curve::bls12_381, "BLS12-381", "bls12381", 48, 32, kBlsQ, kBlsR},
};

}  // namespace

const CurveInfo& curve_info(Curve c) { return kCurves[static_cast<int>(c)]; }

std::optional<Curve> curve_from_primes(ByteView q, ByteView r) {
  for (const CurveInfo& c : kCurves) {
    if (bytes_equal(q, c.q) && bytes_equal(r, c.r)) return c.curve;
  }
  return std::nullopt;
}

std::optional<Curve> curve_from_scalar_prime(ByteView r) {
  for (const CurveInfo& c : kCurves) {
    if (bytes_equal(r, c.r)) return c.curve;
  }
  return std::nullopt;
}

std::optional<Curve> curve_from_snarkjs_name(std::string_view name) {
  for (const CurveInfo& c : kCurves) {
    if (name == c.snarkjs_name) return c.curve;
  }
  return std::nullopt;
}

}  // namespace zkp
