// Random bases made on the GPU, for benchmarks at sizes where host scalar multiplication
// would take hours: base i is k_i·G for a pseudo-random 64-bit k_i (splitmix64 of seed + i).
// Instantiated for G1 in device_points.cu and for G2 in device_points_g2.cu.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/curves_bn254.hpp"
#include "core/msm/msm.hpp"

namespace zkp::cuda::test {

template <CurveParams C>
std::vector<zkp::msm::Base<C>> device_random_bases(int gpu, std::size_t n, std::uint64_t seed);

}  // namespace zkp::cuda::test
