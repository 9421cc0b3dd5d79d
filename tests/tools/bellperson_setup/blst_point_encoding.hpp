// BLS12-381 points in the uncompressed zkcrypto/blst byte form, which bellperson's parameter
// files use (params.rs and verifying_key.rs write `to_uncompressed()` of blstrs affine points,
// i.e. blst_p1_affine_serialize / blst_p2_affine_serialize):
//
//   G1, 96 bytes:  x | y                      each coordinate 48 bytes big-endian, standard form
//   G2, 192 bytes: x.c1 | x.c0 | y.c1 | y.c0  (the imaginary part first, unlike snarkjs)
//
// The top three bits of byte 0 are flags: 0x80 compressed, 0x40 infinity, 0x20 sort (the sign
// of y, used only by the compressed form). An uncompressed finite point has all three clear
// (every Fq is < 2^381, so they are free); the point at infinity is 0x40 followed by zeros.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/ec/curves_bls12_381.hpp"

namespace zkp::bellperson_setup {

inline constexpr std::size_t kFqBytes = bls12_381::Fq::kBytes;  // 48
inline constexpr std::size_t kG1UncompressedBytes = 2 * kFqBytes;
inline constexpr std::size_t kG2UncompressedBytes = 4 * kFqBytes;
inline constexpr std::uint8_t kFlagCompressed = 0x80;
inline constexpr std::uint8_t kFlagInfinity = 0x40;
inline constexpr std::uint8_t kFlagSort = 0x20;

namespace detail {
// One coordinate, big-endian standard form (zkpipe's to_bytes is little-endian).
inline void put_fq_be(const bls12_381::Fq& v, std::span<std::uint8_t, kFqBytes> out) {
  v.to_bytes(out);
  std::reverse(out.begin(), out.end());
}
inline void put_infinity(std::span<std::uint8_t> out) {
  std::fill(out.begin(), out.end(), std::uint8_t{0});
  out[0] = kFlagInfinity;
}
}  // namespace detail

inline void encode_uncompressed(const bls12_381::G1Affine& p, std::span<std::uint8_t, kG1UncompressedBytes> out) {
  if (p.infinity) return detail::put_infinity(out);
  detail::put_fq_be(p.x, out.subspan<0, kFqBytes>());
  detail::put_fq_be(p.y, out.subspan<kFqBytes, kFqBytes>());
}

inline void encode_uncompressed(const bls12_381::G2Affine& p, std::span<std::uint8_t, kG2UncompressedBytes> out) {
  if (p.infinity) return detail::put_infinity(out);
  detail::put_fq_be(p.x.c1, out.subspan<0, kFqBytes>());
  detail::put_fq_be(p.x.c0, out.subspan<kFqBytes, kFqBytes>());
  detail::put_fq_be(p.y.c1, out.subspan<2 * kFqBytes, kFqBytes>());
  detail::put_fq_be(p.y.c0, out.subspan<3 * kFqBytes, kFqBytes>());
}

}  // namespace zkp::bellperson_setup
