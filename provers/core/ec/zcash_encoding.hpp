// The zcash encodings of BLS12-381 points: what the `bls12_381` crate, blst, blstrs and so
// bellperson (parameter files, proofs) read and write. Notes on the format in the crate's
// src/notes/serialization.rs; the code here is written from that description.
//
//   uncompressed  G1 96 bytes:  x | y                     each coordinate 48 bytes big-endian,
//                 G2 192 bytes: x.c1 | x.c0 | y.c1 | y.c0 standard form (not Montgomery)
//   compressed    G1 48 bytes:  x,  G2 96 bytes: x.c1 | x.c0
//
// q < 2^381 leaves the top three bits of byte 0 free; they carry flags:
//   0x80 compressed   set exactly in the compressed form;
//   0x40 infinity     the point at infinity: every other bit (flags aside) zero;
//   0x20 sort         compressed, finite, and y is the larger of y and −y (lexicographically_largest).
// So the uncompressed infinity is 0x40 then zeros, the compressed one 0xc0 then zeros, and an
// all-zero uncompressed encoding is the pair (0, 0), which is on no curve (b ≠ 0).
//
// Decoding writes `out` only on success and says what was wrong (PointStatus, encoding.hpp).
// A compressed point is on its curve by construction (y is recovered from x), so on_curve and
// canonical differ only for the uncompressed form. Nothing here is constant-time.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/encoding.hpp"

namespace zkp::zcash {

// The groups this encoding is defined for.
template <class C>
concept Group = std::same_as<C, bls12_381::G1> || std::same_as<C, bls12_381::G2>;

template <Group C>
inline constexpr std::size_t kUncompressedBytes = 2 * C::Field::kBytes;  // 96 or 192
template <Group C>
inline constexpr std::size_t kCompressedBytes = C::Field::kBytes;  // 48 or 96

inline constexpr std::uint8_t kFlagCompressed = 0x80;
inline constexpr std::uint8_t kFlagInfinity = 0x40;
inline constexpr std::uint8_t kFlagSort = 0x20;
inline constexpr std::uint8_t kFlagMask = kFlagCompressed | kFlagInfinity | kFlagSort;

// y is the larger of y and −y as integers, i.e. y > (q − 1)/2 (zero is not).
constexpr bool lexicographically_largest(const bls12_381::Fq& y) {
  constexpr bls12_381::Fq::Int kHalf = [] {
    auto h = bls12_381::Fq::kModulus;
    h.shr1();  // q odd: (q − 1)/2
    return h;
  }();
  return y.to_bigint() > kHalf;
}
// Fq2 compares c1 first, c0 only when c1 is zero: the crate's Fp2::lexicographically_largest.
constexpr bool lexicographically_largest(const bls12_381::Fq2& y) {
  return lexicographically_largest(y.c1) || (y.c1.is_zero() && lexicographically_largest(y.c0));
}

namespace detail {

using bls12_381::Fq;
using bls12_381::Fq2;
using Fq48 = std::span<const std::uint8_t, Fq::kBytes>;

// 48 big-endian bytes straight into limbs (most significant limb first): decoding a 44 GiB
// parameter file spends most of its unchecked time here.
inline std::optional<Fq> from_be(Fq48 be) {
  Fq::Int v;
  for (std::size_t i = 0; i < Fq::kLimbs; ++i) {
    std::uint64_t limb = 0;
    for (std::size_t j = 0; j < 8; ++j) limb = (limb << 8) | be[8 * i + j];
    v.limbs[Fq::kLimbs - 1 - i] = limb;
  }
  return Fq::from_bigint(v);
}
inline void to_be(const Fq& v, std::span<std::uint8_t, Fq::kBytes> out) {
  const Fq::Int n = v.to_bigint();
  for (std::size_t i = 0; i < Fq::kLimbs; ++i) {
    const std::uint64_t limb = n.limbs[Fq::kLimbs - 1 - i];
    for (std::size_t j = 0; j < 8; ++j) out[8 * i + j] = static_cast<std::uint8_t>(limb >> (56 - 8 * j));
  }
}

// One coordinate, big-endian; Fq2 as c1 then c0.
template <class F>
std::optional<F> coordinate(std::span<const std::uint8_t, F::kBytes> be) {
  if constexpr (std::same_as<F, Fq>) {
    return from_be(be);
  } else {
    const auto c1 = from_be(be.template first<Fq::kBytes>());
    const auto c0 = from_be(be.template last<Fq::kBytes>());
    if (!c0 || !c1) return std::nullopt;
    return F{*c0, *c1};
  }
}
template <class F>
void put_coordinate(const F& v, std::span<std::uint8_t, F::kBytes> out) {
  if constexpr (std::same_as<F, Fq>) {
    to_be(v, out);
  } else {
    to_be(v.c1, out.template first<Fq::kBytes>());
    to_be(v.c0, out.template last<Fq::kBytes>());
  }
}

// The encoding with the flag bits of byte 0 cleared.
template <std::size_t N>
std::array<std::uint8_t, N> without_flags(std::span<const std::uint8_t, N> in) {
  std::array<std::uint8_t, N> b;
  std::copy(in.begin(), in.end(), b.begin());
  b[0] &= static_cast<std::uint8_t>(~kFlagMask);
  return b;
}

template <std::size_t N>
bool all_zero(const std::array<std::uint8_t, N>& b) {
  return std::all_of(b.begin(), b.end(), [](std::uint8_t v) { return v == 0; });
}

}  // namespace detail

// Uncompressed: both flag bits other than infinity must be clear.
template <Group C>
PointStatus decode_uncompressed(std::span<const std::uint8_t, kUncompressedBytes<C>> in, Affine<C>& out,
                                PointCheck check = PointCheck::on_curve) {
  using F = typename C::Field;
  const std::uint8_t flags = in[0] & kFlagMask;
  if ((flags & (kFlagCompressed | kFlagSort)) != 0) return PointStatus::bad_flags;
  const auto bytes = detail::without_flags(in);
  if ((flags & kFlagInfinity) != 0) {
    if (!detail::all_zero(bytes)) return PointStatus::bad_infinity;
    out = Affine<C>::identity();
    return PointStatus::ok;
  }
  const std::span<const std::uint8_t, kUncompressedBytes<C>> b(bytes);
  const std::optional<F> x = detail::coordinate<F>(b.template first<F::kBytes>());
  const std::optional<F> y = detail::coordinate<F>(b.template last<F::kBytes>());
  if (!x || !y) return PointStatus::non_canonical;
  const Affine<C> p = Affine<C>::from_xy(*x, *y);
  if (check != PointCheck::canonical && !p.is_on_curve()) return PointStatus::not_on_curve;
  if (check == PointCheck::subgroup && !bls12_381::in_prime_subgroup(p)) return PointStatus::not_in_subgroup;
  out = p;
  return PointStatus::ok;
}

template <Group C>
void encode_uncompressed(const Affine<C>& p, std::span<std::uint8_t, kUncompressedBytes<C>> out) {
  using F = typename C::Field;
  std::fill(out.begin(), out.end(), std::uint8_t{0});
  if (p.infinity) {
    out[0] = kFlagInfinity;
    return;
  }
  detail::put_coordinate(p.x, out.template first<F::kBytes>());
  detail::put_coordinate(p.y, out.template last<F::kBytes>());
}

// Compressed: y = ±√(x³ + b), the sign chosen by the sort flag. An x with no square root is
// reported as not_on_curve. `check` adds the subgroup test when it is PointCheck::subgroup.
template <Group C>
PointStatus decode_compressed(std::span<const std::uint8_t, kCompressedBytes<C>> in, Affine<C>& out,
                              PointCheck check = PointCheck::on_curve) {
  using F = typename C::Field;
  const std::uint8_t flags = in[0] & kFlagMask;
  if ((flags & kFlagCompressed) == 0) return PointStatus::bad_flags;
  const auto bytes = detail::without_flags(in);
  if ((flags & kFlagInfinity) != 0) {
    if ((flags & kFlagSort) != 0 || !detail::all_zero(bytes)) return PointStatus::bad_infinity;
    out = Affine<C>::identity();
    return PointStatus::ok;
  }
  const std::optional<F> x = detail::coordinate<F>(std::span<const std::uint8_t, F::kBytes>(bytes));
  if (!x) return PointStatus::non_canonical;
  std::optional<F> y = (x->square() * *x + C::kB).sqrt();
  if (!y) return PointStatus::not_on_curve;
  if (lexicographically_largest(*y) != ((flags & kFlagSort) != 0)) y = -*y;
  const Affine<C> p = Affine<C>::from_xy(*x, *y);
  if (check == PointCheck::subgroup && !bls12_381::in_prime_subgroup(p)) return PointStatus::not_in_subgroup;
  out = p;
  return PointStatus::ok;
}

template <Group C>
void encode_compressed(const Affine<C>& p, std::span<std::uint8_t, kCompressedBytes<C>> out) {
  std::fill(out.begin(), out.end(), std::uint8_t{0});
  if (p.infinity) {
    out[0] = kFlagCompressed | kFlagInfinity;
    return;
  }
  detail::put_coordinate(p.x, out);
  out[0] |= kFlagCompressed;
  if (lexicographically_largest(p.y)) out[0] |= kFlagSort;
}

}  // namespace zkp::zcash
