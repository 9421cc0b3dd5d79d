// The last step of the MSM, on the host: Σ_g 2^(c·F·g)·S_g over the bucket groups' sums
// S_g, by Horner's rule: (G − 1)·c·F doublings, none when one group holds every window.
#pragma once

#include <span>

#include "core/ec/affine.hpp"
#include "core/ec/xyzz.hpp"

namespace zkp::cuda::msm {

template <CurveParams C>
zkp::Affine<C> combine_groups(std::span<const zkp::Xyzz<C>> group_sums, unsigned shift_bits) {
  if (group_sums.empty()) return zkp::Affine<C>::identity();
  zkp::Xyzz<C> acc = group_sums.back();
  for (std::size_t g = group_sums.size() - 1; g-- > 0;) {
    for (unsigned k = 0; k < shift_bits; ++k) acc = acc.dbl();
    acc += group_sums[g];
  }
  return acc.to_affine();
}

}  // namespace zkp::cuda::msm
