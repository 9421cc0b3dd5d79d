// Where a bellperson proof's density bitmaps lie in a lane's density region (lane.hpp): the
// b_input, a_aux and b_aux bitmaps (u64 words, 256-byte aligned each), staged pinned and copied
// to the device, and on the device the bitmap gather's scratch behind them
// (cuda/util/bitmap_gather.hpp); last, the first-bad indices of the device input checks
// (cuda/util/input_checks.hpp), on the device and copied back to the same offset of the pinned
// side (a zkey's lanes with synthesis=device hold only these: checks_only). Plain host code: lane_needs sizes the region with it at key_load, the proof stages
// place the bitmaps by it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/bellperson/density.hpp"
#include "cuda/util/bitmap_gather.hpp"
#include "cuda/util/input_checks.hpp"

namespace zkp::cuda::prover {

struct DensityRegion {
  // The assignment's first bad index, then check_rows' four (RowCheckIndices).
  static constexpr std::size_t kCheckWords = 1 + RowCheckIndices::count;

  std::size_t b_input = 0, a_aux = 0, b_aux = 0;  // byte offsets of the three bitmaps
  std::size_t scratch = 0, scratch_bytes = 0;     // the gather's device scratch
  std::size_t checks = 0;                         // kCheckWords u64 first-bad indices
  std::size_t bytes = 0;                          // the whole region

  // For a key of n_inputs inputs (the constant one included) and n_aux aux variables.
  static DensityRegion for_key(std::uint64_t n_inputs, std::uint64_t n_aux) {
    constexpr std::size_t kAlign = 256;
    DensityRegion r;
    std::size_t at = 0;
    const auto take = [&at](std::size_t bytes) {
      const std::size_t offset = at;
      at += (bytes + kAlign - 1) / kAlign * kAlign;
      return offset;
    };
    const auto bitmap_bytes = [](std::uint64_t bits) {
      return static_cast<std::size_t>(bellperson::Density::words_for(bits)) * sizeof(std::uint64_t);
    };
    r.b_input = take(bitmap_bytes(n_inputs));
    r.a_aux = take(bitmap_bytes(n_aux));
    r.b_aux = take(bitmap_bytes(n_aux));
    r.scratch_bytes = bitmap_gather_scratch_bytes(static_cast<std::size_t>(n_inputs > n_aux ? n_inputs : n_aux));
    r.scratch = take(r.scratch_bytes);
    r.checks = take(kCheckWords * sizeof(std::uint64_t));
    r.bytes = at;
    return r;
  }

  // A zkey's lanes with synthesis=device: no bitmaps, only the check words (check_rows against
  // the circuit's C).
  static DensityRegion checks_only() {
    DensityRegion r;
    r.bytes = 256;
    return r;
  }
};

}  // namespace zkp::cuda::prover
