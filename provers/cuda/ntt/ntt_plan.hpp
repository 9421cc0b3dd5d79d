// How a radix-2 transform of 2^log_n elements is cut into tile passes on the device
// (ntt/tile.cuh). Plain host code, unit-tested everywhere.
//
// A pass does the butterfly stages of `rows` consecutive index bits [lo, lo + rows) in
// shared memory: a thread block loads a tile of 2^rows × 2^cols elements (the `cols`
// lowest index bits vary along a row, so a warp reads 2^cols consecutive elements, and
// the rows are the stage bits), runs its stages, and writes the tile back. One pass is
// one read and one write of the array, however many stages it covers.
//
// The odd-coset transform (iFFT, DIF, natural → bit-reversed; ×g^i/n; FFT, DIT,
// bit-reversed → natural) runs as: the DIF passes over the high bits, top bits first;
// then one fused pass over the low bits that does the last DIF stages, the coset scaling
// and the first DIT stages while the tile is in shared memory; then the DIT passes over
// the high bits, low bits first. For 2^24: 2 + 1 + 2 passes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda/util/hd.cuh"

namespace zkp::cuda::ntt {

// 2^10 elements of 32 bytes: a 32 KiB tile, within the 48 KiB of static shared memory.
inline constexpr unsigned kTileLog = 10;
// At most 2^8 rows in a strided pass, so at least 2^2 columns: each row segment a warp
// reads is 4 × 32 B = one 128-byte line.
inline constexpr unsigned kMaxRowLog = 8;

struct TilePass {
  std::uint32_t log_n = 0;
  std::uint32_t lo = 0;    // first stage bit
  std::uint32_t rows = 0;  // stage bits: stages of half-size 2^lo … 2^(lo + rows − 1)
  std::uint32_t cols = 0;  // low index bits along a tile row (0 for the fused pass, lo = 0)

  ZKP_HD std::uint32_t tile_log() const { return rows + cols; }
  ZKP_HD std::size_t tiles() const { return (std::size_t{1} << log_n) >> tile_log(); }
  ZKP_HD std::uint32_t butterflies() const { return rows == 0 ? 0 : std::uint32_t{1} << (tile_log() - 1); }
};

struct CosetPlan {
  TilePass fused;                  // bits [0, min(log_n, kTileLog))
  std::vector<TilePass> high;      // bits above, ascending: DIT order; DIF runs it backwards
};

inline CosetPlan make_coset_plan(std::uint32_t log_n) {
  CosetPlan p;
  const std::uint32_t low = std::min<std::uint32_t>(log_n, kTileLog);
  p.fused = {log_n, 0, low, 0};
  const std::uint32_t high_bits = log_n - low;
  if (high_bits == 0) return p;
  const std::uint32_t passes = (high_bits + kMaxRowLog - 1) / kMaxRowLog;
  std::uint32_t lo = low;
  for (std::uint32_t k = 0; k < passes; ++k) {
    // Balanced: the first (high_bits mod passes) passes take one bit more.
    const std::uint32_t rows = high_bits / passes + (k < high_bits % passes ? 1 : 0);
    p.high.push_back({log_n, lo, rows, kTileLog - rows});
    lo += rows;
  }
  return p;
}

// Threads per block of a tile pass: two butterflies per thread per stage on a full tile;
// at least a warp.
inline constexpr unsigned kTileThreads = 256;
inline unsigned tile_threads(const TilePass& p) {
  return std::clamp<unsigned>(p.butterflies(), 32, kTileThreads);
}

}  // namespace zkp::cuda::ntt
