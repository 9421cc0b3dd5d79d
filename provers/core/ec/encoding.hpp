// Byte encodings of affine points.
//
// snarkjs layout (zkey sections 3, 5–9; SNARKJS-FORMATS.md): x then y, each Field::kBytes
// little-endian, uncompressed, no flags; a G2 coordinate is c0 then c1; the point at
// infinity is all zero bytes. zkeys store coordinates in Montgomery form (the *_mont
// functions); proofs and everything outside the zkey use standard form.
//
// Decoding writes `out` only on success (blst style) and reports what was wrong.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "core/ec/affine.hpp"
#include "core/ec/jacobian.hpp"

namespace zkp {

// Bytes of one uncompressed affine point: 64 (BN254 G1), 128 (BN254 G2), 96, 192 (BLS12-381).
template <CurveParams C>
inline constexpr std::size_t kAffineBytes = 2 * C::Field::kBytes;

enum class PointStatus {
  ok,
  non_canonical,    // a coordinate (or its Montgomery image) is ≥ q
  not_on_curve,     // y² ≠ x³ + b
  not_in_subgroup,  // on the curve but not in the order-r subgroup
  // Only from the zcash encodings of BLS12-381 (zcash_encoding.hpp), whose byte 0 carries flags:
  bad_flags,     // compression or sort bit wrong for the form being read
  bad_infinity,  // infinity flag set, but some other bit is not zero
  at_infinity,   // a well-formed point at infinity where a finite point is required (the caller's rule)
};

enum class PointCheck {
  canonical,  // coordinates < q only (trusted input such as a zkey we wrote)
  on_curve,   // + curve equation: cheap (a few multiplications)
  subgroup,   // + prime-order subgroup (see in_prime_subgroup in curves_*.hpp): costs a scalar multiplication
};

constexpr const char* to_string(PointStatus s) {
  switch (s) {
    case PointStatus::ok: return "ok";
    case PointStatus::non_canonical: return "coordinate not below the field modulus";
    case PointStatus::not_on_curve: return "point not on the curve";
    case PointStatus::not_in_subgroup: return "point not in the prime-order subgroup";
    case PointStatus::bad_flags: return "flag bits wrong for this encoding (compression or sort bit)";
    case PointStatus::bad_infinity: return "infinity flag set, but the other bits are not all zero";
    case PointStatus::at_infinity: return "point at infinity where a finite point is required";
  }
  return "unknown point status";
}

namespace detail {

template <CurveParams C, bool kMont>
PointStatus decode_affine(std::span<const std::uint8_t, kAffineBytes<C>> in, Affine<C>& out, PointCheck check) {
  using F = typename C::Field;
  if (std::all_of(in.begin(), in.end(), [](std::uint8_t b) { return b == 0; })) {
    out = Affine<C>::identity();
    return PointStatus::ok;
  }
  const auto xb = in.template first<F::kBytes>();
  const auto yb = in.template last<F::kBytes>();
  const std::optional<F> x = kMont ? F::from_mont_bytes(xb) : F::from_bytes(xb);
  const std::optional<F> y = kMont ? F::from_mont_bytes(yb) : F::from_bytes(yb);
  if (!x || !y) return PointStatus::non_canonical;
  const Affine<C> p = Affine<C>::from_xy(*x, *y);
  if (check != PointCheck::canonical && !p.is_on_curve()) return PointStatus::not_on_curve;
  if (check == PointCheck::subgroup && !in_prime_subgroup(p)) return PointStatus::not_in_subgroup;
  out = p;
  return PointStatus::ok;
}

template <CurveParams C, bool kMont>
void encode_affine(const Affine<C>& p, std::span<std::uint8_t, kAffineBytes<C>> out) {
  using F = typename C::Field;
  if (p.infinity) {
    std::fill(out.begin(), out.end(), std::uint8_t{0});
    return;
  }
  if constexpr (kMont) {
    p.x.to_mont_bytes(out.template first<F::kBytes>());
    p.y.to_mont_bytes(out.template last<F::kBytes>());
  } else {
    p.x.to_bytes(out.template first<F::kBytes>());
    p.y.to_bytes(out.template last<F::kBytes>());
  }
}

}  // namespace detail

// Montgomery-form coordinates: the zkey layout.
template <CurveParams C>
PointStatus decode_affine_mont(std::span<const std::uint8_t, kAffineBytes<C>> in, Affine<C>& out,
                               PointCheck check = PointCheck::on_curve) {
  return detail::decode_affine<C, true>(in, out, check);
}
template <CurveParams C>
void encode_affine_mont(const Affine<C>& p, std::span<std::uint8_t, kAffineBytes<C>> out) {
  detail::encode_affine<C, true>(p, out);
}

// Standard-form coordinates: proof bytes and other external formats.
template <CurveParams C>
PointStatus decode_affine(std::span<const std::uint8_t, kAffineBytes<C>> in, Affine<C>& out,
                          PointCheck check = PointCheck::on_curve) {
  return detail::decode_affine<C, false>(in, out, check);
}
template <CurveParams C>
void encode_affine(const Affine<C>& p, std::span<std::uint8_t, kAffineBytes<C>> out) {
  detail::encode_affine<C, false>(p, out);
}

}  // namespace zkp
