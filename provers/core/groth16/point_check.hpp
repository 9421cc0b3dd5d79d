// Curve-point checks for the zkey reader (formats' PointValidator hook, point_validator.hpp),
// run in parallel on a ThreadPool.
//
// Levels (ec/encoding.hpp PointCheck): `on_curve` catches a corrupted or foreign key for the
// price of a few multiplications per point; `subgroup` adds an endomorphism test per point
// (ePrint 2022/352, 2021/1130), a 64–128-bit scalar multiplication: about 40 µs per G2 point,
// so it is opt-in for large keys. BN254 G1 has cofactor 1, where on_curve already is subgroup.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>

#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/curves_bn254.hpp"
#include "core/ec/encoding.hpp"
#include "core/formats/point_validator.hpp"
#include "core/util/first_index.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::groth16 {

// Index of the first point of `bytes` (count points of curve C, zkey or standard encoding)
// that fails `check`, or nullopt.
template <CurveParams C>
std::optional<std::size_t> first_invalid_point(ByteView bytes, std::size_t count, CoordEncoding encoding,
                                               PointCheck check, ThreadPool& pool) {
  constexpr std::size_t kBytes = kAffineBytes<C>;
  if (bytes.size() != count * kBytes) throw std::invalid_argument("first_invalid_point: size mismatch");
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  constexpr std::size_t kGrain = 256;
  return first_index(pool, count, kGrain, [&](std::size_t i) {
    const std::span<const std::uint8_t, kBytes> p(data + i * kBytes, kBytes);
    Affine<C> out;
    const PointStatus s = encoding == CoordEncoding::montgomery ? decode_affine_mont<C>(p, out, check)
                                                                 : decode_affine<C>(p, out, check);
    return s != PointStatus::ok;
  });
}

// A PointValidator for read_zkey / read_vkey_json. `pool` must outlive the validator's use.
inline PointValidator make_point_validator(PointCheck check, ThreadPool& pool) {
  return [check, &pool](const PointBatch& b) -> std::optional<std::size_t> {
    const bool g1 = b.group == PointGroup::g1;
    switch (b.curve) {
      case Curve::bn254:
        return g1 ? first_invalid_point<bn254::G1>(b.points, b.count, b.encoding, check, pool)
                  : first_invalid_point<bn254::G2>(b.points, b.count, b.encoding, check, pool);
      case Curve::bls12_381:
        return g1 ? first_invalid_point<bls12_381::G1>(b.points, b.count, b.encoding, check, pool)
                  : first_invalid_point<bls12_381::G2>(b.points, b.count, b.encoding, check, pool);
    }
    throw std::logic_error("make_point_validator: unknown curve");
  };
}

}  // namespace zkp::groth16
