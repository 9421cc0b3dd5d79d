// One row of a = A·w (or b = B·w) from a SparseMatrix (sparse_system.hpp), as the device kernel
// (evaluate.cu) computes it per thread, written for both compilers so that the emulation tests
// run it on the CPU (tests/cuda/synth_emulation_test.cpp) against the host's synthesis.
//
// `D` is a device field (cuda/ff/fields.cuh). `witness` holds standard-form values, read as D
// without conversion: the Montgomery product of the stored x·R² and w is x·w in Montgomery form.
#pragma once

#include <cstdint>

#include "cuda/util/hd.cuh"

namespace zkp::cuda::synth {

template <class D>
ZKP_HD D evaluate_row(const std::uint32_t* row_start, const std::uint32_t* wire, const std::uint32_t* coef,
                             const D* dictionary, const D* witness, std::uint32_t row) {
  D sum = D::zero();
  const std::uint32_t end = row_start[row + 1];
  for (std::uint32_t p = row_start[row]; p < end; ++p) sum = sum + dictionary[coef[p]] * witness[wire[p]];
  return sum;
}

}  // namespace zkp::cuda::synth
