// Definitions of the msm.hpp templates; included by the one-group-per-file instantiation
// units msm_<curve>_<group>.cpp (split so that a -j build compiles them in parallel).
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/msm/msm.hpp"
#include "core/msm/pippenger.hpp"
#include "core/msm/scalars.hpp"
#include "core/msm/split.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::msm {

template <CurveParams C>
Affine<C> msm(std::span<const Base<C>> bases, std::span<const std::uint8_t> scalars, const Options& options) {
  if (scalars.size() != bases.size() * kScalarBytes)
    throw std::invalid_argument("msm: need 32 scalar bytes per base");
  const ScalarPlan plan = plan_scalars(
      scalars, C::Scalar::kModulus, [&](std::size_t i) { return bases[i].is_infinity(); }, options.pool, options.threads);
  if (options.scalars_read) options.scalars_read();  // `scalars` may be gone from here on
  if (options.window_bits != 0 && (options.window_bits < kMinWindowBits || options.window_bits > kMaxWindowBits))
    throw std::invalid_argument("msm: window_bits outside 2..16");
  const std::size_t threads = std::max<std::size_t>(1, options.pool != nullptr ? options.pool->size() : options.threads);
  const WorkSplit split = split_work(plan.index.size(), plan.max_bits, plan.units.size(), threads, sizeof(Base<C>),
                                     options.window_bits);
  return detail::Pippenger<C>(bases, plan, split, options.threads, detail::Accumulation::batch_affine, options.pool).run().to_affine();
}

template <CurveParams C>
Affine<C> msm(std::span<const Affine<C>> bases, std::span<const std::uint8_t> scalars, const Options& options) {
  std::vector<Base<C>> xy(bases.size());
  std::transform(bases.begin(), bases.end(), xy.begin(),
                 [](const Affine<C>& p) { return p.infinity ? Base<C>{} : Base<C>{p.x, p.y}; });
  return msm<C>(std::span<const Base<C>>(xy), scalars, options);
}

template <CurveParams C>
Affine<C> msm(std::span<const Base<C>> bases, std::span<const typename C::Scalar> scalars, const Options& options) {
  if (scalars.size() != bases.size()) throw std::invalid_argument("msm: need one scalar per base");
  std::vector<std::uint8_t> bytes(scalars.size() * kScalarBytes);
  for (std::size_t i = 0; i < scalars.size(); ++i)
    scalars[i].to_bigint().to_le_bytes(std::span<std::uint8_t, kScalarBytes>(bytes.data() + i * kScalarBytes, kScalarBytes));
  return msm<C>(bases, std::span<const std::uint8_t>(bytes), options);
}

template <CurveParams C>
std::span<const Base<C>> bases_from_mont_bytes(std::span<const std::uint8_t> section) {
  static_assert(sizeof(Base<C>) == 2 * C::Field::kBytes, "Base must have the zkey layout, no padding");
  if (section.size() % sizeof(Base<C>) != 0) throw std::invalid_argument("msm: section is not whole points");
  if (reinterpret_cast<std::uintptr_t>(section.data()) % alignof(Base<C>) != 0)
    throw std::invalid_argument("msm: point section not 8-byte aligned");
  return {reinterpret_cast<const Base<C>*>(section.data()), section.size() / sizeof(Base<C>)};
}

}  // namespace zkp::msm

// Explicit instantiation of everything msm.hpp declares, for one group; use inside
// namespace zkp::msm.
#define ZKP_MSM_INSTANTIATE(C)                                                                     \
  template Affine<C> msm<C>(std::span<const Base<C>>, std::span<const std::uint8_t>, const Options&); \
  template Affine<C> msm<C>(std::span<const Affine<C>>, std::span<const std::uint8_t>, const Options&); \
  template Affine<C> msm<C>(std::span<const Base<C>>, std::span<const typename C::Scalar>, const Options&); \
  template std::span<const Base<C>> bases_from_mont_bytes<C>(std::span<const std::uint8_t>);
