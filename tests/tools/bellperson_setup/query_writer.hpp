// One query of a parameter file: a u32 big-endian count, then [k]G for each scalar k, encoded
// uncompressed. Products are computed on every thread of the pool, a batch at a time, so the
// memory held is one batch of Jacobian points and their bytes, not the query.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <ostream>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "blst_point_encoding.hpp"
#include "core/ec/batch_normalize.hpp"
#include "fixed_base_table.hpp"

namespace zkp::bellperson_setup {

template <CurveParams C>
inline constexpr std::size_t kUncompressedBytes =
    std::is_same_v<C, bls12_381::G1> ? kG1UncompressedBytes : kG2UncompressedBytes;

inline void write_u32_be(std::ostream& out, std::size_t v) {
  if (v > std::numeric_limits<std::uint32_t>::max()) throw std::invalid_argument("query longer than a u32 count");
  const std::array<char, 4> b{static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
                              static_cast<char>(v)};
  out.write(b.data(), b.size());
}

// Writes the points only (no count): the vk's single points use it too.
template <CurveParams C>
void write_points(std::ostream& out, std::span<const bls12_381::Fr> scalars, const FixedBaseTable<C>& table,
                  ThreadPool& pool) {
  constexpr std::size_t kBytes = kUncompressedBytes<C>;
  // 2^14 points: 3 MiB of G2 bytes per batch, enough work (~16K products) to keep every thread
  // busy between writes.
  constexpr std::size_t kBatch = std::size_t{1} << 14;
  // Sub-ranges normalised together: one inversion per 256 points makes its cost negligible.
  constexpr std::size_t kGrain = 256;
  std::vector<std::uint8_t> bytes;
  for (std::size_t begin = 0; begin < scalars.size(); begin += kBatch) {
    const std::size_t n = std::min(kBatch, scalars.size() - begin);
    bytes.resize(n * kBytes);
    pool.parallel_for(n, kGrain, [&](std::size_t lo, std::size_t hi) {
      std::vector<Jacobian<C>> jac(hi - lo);
      for (std::size_t i = lo; i < hi; ++i) jac[i - lo] = table.mul(scalars[begin + i]);
      std::vector<Affine<C>> aff(jac.size());
      batch_to_affine(std::span<const Jacobian<C>>(jac), std::span<Affine<C>>(aff));
      for (std::size_t i = lo; i < hi; ++i)
        encode_uncompressed(aff[i - lo], std::span<std::uint8_t, kBytes>(bytes.data() + i * kBytes, kBytes));
    });
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  }
}

template <CurveParams C>
void write_query(std::ostream& out, std::span<const bls12_381::Fr> scalars, const FixedBaseTable<C>& table,
                 ThreadPool& pool) {
  write_u32_be(out, scalars.size());
  write_points(out, scalars, table, pool);
}

}  // namespace zkp::bellperson_setup
