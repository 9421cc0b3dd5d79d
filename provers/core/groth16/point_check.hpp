// Curve-point checks for the zkey reader (formats' PointValidator hook, point_validator.hpp),
// run in parallel on a ThreadPool.
//
// Levels (ec/encoding.hpp PointCheck): `on_curve` catches a corrupted or foreign key for the
// price of a few multiplications per point; `subgroup` adds an endomorphism test per point
// (ePrint 2022/352, 2021/1130), a 64–128-bit scalar multiplication: about 40 µs per G2 point,
// so it is opt-in for large keys. BN254 G1 has cofactor 1, where on_curve already is subgroup.
//
// A zkey's sections at `on_curve` (the default check) go through the curve equation in blocks,
// its three products per point on the batch product (mul_n_*: eight lanes of AVX-512 IFMA where
// the CPU has them): both curves' G1 (four of a key's five point sections) and G2. One point at
// a time, the check was half of a 2^20 BN254 key load on 2 cores (docs/PERF.md, session 20).
// Only in x86-64 host builds, where the IFMA kernels exist (ZKPIPE_MONT_ADX_DISPATCH, defined
// by montgomery.hpp, included here for that reason); elsewhere every point goes one at a time.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>

#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/curves_bn254.hpp"
#include "core/ec/encoding.hpp"
#include "core/ff/montgomery.hpp"
#include "core/formats/bytes.hpp"
#include "core/formats/point_validator.hpp"
#include "core/util/first_index.hpp"
#include "core/util/thread_pool.hpp"

#if defined(ZKPIPE_MONT_ADX_DISPATCH)
#include "core/ff/mont_ifma.hpp"
#endif

namespace zkp::groth16 {

#if defined(ZKPIPE_MONT_ADX_DISPATCH)
namespace detail {

// The groups whose coordinate field has a batch product (mul_n below).
template <class C>
concept BatchOnCurve = std::same_as<C, bn254::G1> || std::same_as<C, bls12_381::G1> || std::same_as<C, bn254::G2> ||
                       std::same_as<C, bls12_381::G2>;

inline void mul_n(bn254::Fq* out, const bn254::Fq* a, const bn254::Fq* b, std::size_t n) {
  mont::ifma::mul_n_bn254_fq(out, a, b, n);
}
inline void mul_n(bls12_381::Fq* out, const bls12_381::Fq* a, const bls12_381::Fq* b, std::size_t n) {
  mont::ifma::mul_n_bls12_381_fq(out, a, b, n);
}
inline void mul_n(bn254::Fq2* out, const bn254::Fq2* a, const bn254::Fq2* b, std::size_t n) {
  mont::ifma::mul_n_bn254_fq2(out, a, b, n);
}
inline void mul_n(bls12_381::Fq2* out, const bls12_381::Fq2* a, const bls12_381::Fq2* b, std::size_t n) {
  mont::ifma::mul_n_bls12_381_fq2(out, a, b, n);
}

// Points one block checks: its x, y and x³ stay in the calling thread's L2 (72 KiB for
// BLS12-381 G2) and the pool gets 2^12 blocks from a 2^20 section.
inline constexpr std::size_t kOnCurveBlock = 256;

// The first index in [i0, i1) (at most kOnCurveBlock points, zkey encoding) whose point is not
// canonical or not on the curve, or i1: the same answer as decode_affine_mont at on_curve one
// point at a time. All-zero points are the identity, on the curve.
template <BatchOnCurve C>
std::size_t first_off_curve_in_block(const std::uint8_t* data, std::size_t i0, std::size_t i1) {
  using F = typename C::Field;
  constexpr std::size_t kBytes = kAffineBytes<C>;
  std::array<F, kOnCurveBlock> x, y, x3;
  std::array<bool, kOnCurveBlock> identity;
  const std::size_t n = i1 - i0;
  std::size_t first_non_canonical = n;  // the points before it are the ones the curve check sees
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint8_t* p = data + (i0 + k) * kBytes;
    identity[k] = all_zero(ByteView(reinterpret_cast<const std::byte*>(p), kBytes));
    if (identity[k]) {
      x[k] = y[k] = F::zero();
      continue;
    }
    const std::optional<F> xk = F::from_mont_bytes(std::span<const std::uint8_t, F::kBytes>(p, F::kBytes));
    const std::optional<F> yk = F::from_mont_bytes(std::span<const std::uint8_t, F::kBytes>(p + F::kBytes, F::kBytes));
    if (!xk || !yk) {
      first_non_canonical = k;  // only the points before it can fail first
      break;
    }
    x[k] = *xk;
    y[k] = *yk;
  }
  mul_n(x3.data(), x.data(), x.data(), first_non_canonical);
  mul_n(x3.data(), x3.data(), x.data(), first_non_canonical);
  mul_n(y.data(), y.data(), y.data(), first_non_canonical);
  for (std::size_t k = 0; k < first_non_canonical; ++k) {
    if (!identity[k] && y[k] != x3[k] + C::kB) return i0 + k;
  }
  return i0 + first_non_canonical;
}

}  // namespace detail
#endif

// Index of the first point of `bytes` (count points of curve C, zkey or standard encoding)
// that fails `check`, or nullopt.
template <CurveParams C>
std::optional<std::size_t> first_invalid_point(ByteView bytes, std::size_t count, CoordEncoding encoding,
                                               PointCheck check, ThreadPool& pool) {
  constexpr std::size_t kBytes = kAffineBytes<C>;
  if (bytes.size() != count * kBytes) throw std::invalid_argument("first_invalid_point: size mismatch");
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
#if defined(ZKPIPE_MONT_ADX_DISPATCH)
  if constexpr (detail::BatchOnCurve<C>) {
    if (encoding == CoordEncoding::montgomery && check == PointCheck::on_curve) {
      constexpr std::size_t kBlock = detail::kOnCurveBlock;
      const auto block_end = [count](std::size_t b) { return std::min(count, (b + 1) * kBlock); };
      const std::optional<std::size_t> bad_block =
          first_index(pool, (count + kBlock - 1) / kBlock, 1, [&](std::size_t b) {
            return detail::first_off_curve_in_block<C>(data, b * kBlock, block_end(b)) < block_end(b);
          });
      if (!bad_block) return std::nullopt;
      return detail::first_off_curve_in_block<C>(data, *bad_block * kBlock, block_end(*bad_block));
    }
  }
#endif
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
