// Inputs and the CPU reference for the device MSM tests of G1 and G2: random bases from a
// random walk (one addition per base), random and 0/1 scalars, edge scalars.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <thread>
#include <vector>

#include "core/ec/batch_normalize.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/msm/msm.hpp"
#include "core/msm/scalars.hpp"

namespace zkp::cuda::test {

using zkp::msm::kScalarBytes;
using zkp::msm::ScalarInt;

// n bases on a random walk P_i = P_{i−1} + T_j over 16 random steps (as tests/core_msm).
template <CurveParams C>
std::vector<zkp::msm::Base<C>> walk_bases(std::size_t n, std::mt19937_64& rng) {
  constexpr std::size_t kSteps = 16;
  std::array<zkp::Jacobian<C>, kSteps> step;
  for (auto& s : step) s = scalar_mul(zkp::Jacobian<C>::generator(), C::Scalar::random(rng).to_bigint());
  std::vector<zkp::Jacobian<C>> walk(n);
  zkp::Jacobian<C> p = step[0];
  for (auto& w : walk) w = p += step[rng() % kSteps];
  std::vector<zkp::Affine<C>> affine(n);
  batch_to_affine<C>(walk, affine);
  std::vector<zkp::msm::Base<C>> bases(n);
  for (std::size_t i = 0; i < n; ++i) bases[i] = {affine[i].x, affine[i].y};
  return bases;
}

inline std::vector<std::uint8_t> full_width_scalars(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::uint8_t> s(n * kScalarBytes);
  for (auto& b : s) b = static_cast<std::uint8_t>(rng());
  return s;
}

inline std::vector<std::uint8_t> bit_scalars(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::uint8_t> s(n * kScalarBytes, 0);
  for (std::size_t i = 0; i < n; ++i) s[i * kScalarBytes] = static_cast<std::uint8_t>(rng() & 1);
  return s;
}

inline void put_scalar(std::vector<std::uint8_t>& s, std::size_t i, const ScalarInt& v) {
  v.to_le_bytes(std::span<std::uint8_t, kScalarBytes>(s.data() + i * kScalarBytes, kScalarBytes));
}

inline ScalarInt minus_one(ScalarInt v) {
  std::uint64_t borrow = 1;
  for (auto& l : v.limbs) l = zkp::sub_borrow(l, 0, borrow);
  return v;
}

template <CurveParams C>
zkp::Affine<C> reference_msm(std::span<const zkp::msm::Base<C>> bases, std::span<const std::uint8_t> scalars) {
  const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
  return zkp::msm::msm<C>(bases.first(scalars.size() / kScalarBytes), scalars, zkp::msm::Options{threads, 0});
}

}  // namespace zkp::cuda::test
