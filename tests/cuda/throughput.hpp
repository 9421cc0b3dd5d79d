// Arithmetic throughput probes for bench_cuda_msm: how close field products and mixed
// additions alone come to the IMAD peak, with no memory traffic, so the MSM's gap to its
// floor can be split into arithmetic efficiency and everything else.
#pragma once

#include <cstdint>

#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/curves_bn254.hpp"

namespace zkp::cuda::test {

struct Throughput {
  double products_per_s = 0;  // Fq products (Montgomery)
  double madds_per_s = 0;     // madd-2008-s mixed additions
  // BLS12-381 only (cuda/ff/fp_f64.cuh; 0 for BN254): products on the FP64 pipe alone,
  // and two IMAD chains beside two FP64 chains in every thread (both pipes at once).
  double f64_products_per_s = 0;
  double mixed_products_per_s = 0;
};

template <CurveParams C>
Throughput measure_throughput(int gpu);

}  // namespace zkp::cuda::test
