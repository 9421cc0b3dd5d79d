// The shape of one device MSM: window size c, number of windows, how many windows share
// one set of buckets through precomputed copies of the bases, and the derived sizes.
// Plain host code (no CUDA), so it is unit-tested everywhere.
//
// Signed digits (msm/digits.cuh) put a scalar's magnitude, at most (r − 1)/2 < 2^(b−1)
// after sign folding (b = bit length of r), into W = ⌊(b − 1 + c)/c⌋ windows of digits in
// [−2^(c−1), 2^(c−1)], so each window needs 2^(c−1) buckets. With F precomputed copies
// 2^(c·f)·P_i (f < F), windows w = g·F + f all add into bucket group g: G = ⌈W/F⌉ groups
// instead of W, at F·n bases of memory. F = W (one group) is the classic precomputation
// for resident bases: it takes the per-window bucket reduction out, which lets c grow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace zkp::cuda::msm {

// Calls of at least this many scalars take the compacted path (msm/trivial.cuh: scalars 0 and
// ±1 kept out of the sort and the buckets), which waits once per call for a count on the host;
// below it that wait would show next to the MSM, and the plain path runs.
inline constexpr std::size_t kCompactFrom = std::size_t{1} << 22;

struct Config {
  unsigned window_bits = 0;  // c, 2..kMaxWindowBits; 0 chooses by the cost model below
  unsigned precompute = 1;   // F ≥ 1 windows per bucket group; 0 means all windows (F = W)
  std::size_t compact_from = kCompactFrom;  // n at which the compacted path starts
};

inline constexpr unsigned kMaxWindowBits = 24;  // 2^23 buckets of a group: ≤ 1.6 GB (BLS12-381)

struct Plan {
  std::size_t bases = 0;      // N, resident bases
  unsigned scalar_bits = 0;   // b − 1: bit bound of a folded magnitude
  unsigned c = 0;             // window bits
  unsigned windows = 0;       // W
  unsigned copies = 0;        // F
  unsigned groups = 0;        // G = ⌈W/F⌉
  std::uint32_t half = 0;     // 2^(c−1): buckets per group
  std::size_t entries = 0;    // N·W digit slots (sort length)

  std::size_t buckets() const { return std::size_t{groups} * half; }
  std::uint32_t sentinel_key() const { return static_cast<std::uint32_t>(buckets()); }  // zero digits
  unsigned key_bits() const;  // bits the radix sort looks at: enough for the sentinel
};

// Device time of each stage of one MSM call, from CUDA events (Msm::last_phase_times).
struct PhaseTimes {
  float digits_ms = 0;      // scalars → (bucket, base) pairs (compacted: with classify, select, ±1 sum)
  float sort_ms = 0;        // radix sort of the pairs
  float accumulate_ms = 0;  // level 0: mixed additions into buckets and pieces
  float pieces_ms = 0;      // levels ≥ 1: summing the pieces
  float reduce_ms = 0;      // bucket groups' weighted sums, and the copy back
  float total_ms = 0;
};

// How the sorted entries are summed into buckets and the buckets into group sums
// (msm/accumulate.cuh, msm/bucket_sum.cuh): level 0 cuts the entries into `segments0`
// segments (the resident threads of the accumulation kernel, so one wave covers the sort);
// each later level sums the previous level's 2·segments pieces, kPieceLen per thread, the
// last one in a single segment. The bucket reduction cuts each group's buckets into
// `chunks` chunks of `chunk_buckets`.
struct PieceLevel {
  std::uint32_t count = 0;     // pieces in: twice the previous level's segments
  std::uint32_t len = 0;       // pieces per segment
  std::uint32_t segments = 0;  // threads
  bool final = false;          // one segment: every run is complete
};

struct ReductionShape {
  std::uint32_t segments0 = 1;
  std::vector<PieceLevel> levels;  // empty when level 0 is a single (final) segment
  std::uint32_t chunk_buckets = 1;
  std::uint32_t chunks = 1;
};

// Pieces per segment on levels ≥ 1: each level divides the pieces by kPieceLen/2, and a
// segment is a serial chain of kPieceLen full additions (≈ 20 µs each for BLS12-381).
inline constexpr std::uint32_t kPieceLen = 8;
// Level-0 segments shorter than this are not worth a thread of their own.
inline constexpr std::size_t kMinSegmentLen = 8;
// Buckets per chunk in the bucket reduction.
inline constexpr std::uint32_t kChunkBuckets = 16;

ReductionShape make_reduction_shape(const Plan& plan, std::size_t resident_threads);

// Windows needed for magnitudes of `bits` bits with c-bit signed digits.
constexpr unsigned window_count(unsigned bits, unsigned c) { return (bits + c) / c; }

// Builds the plan for N bases and scalars of a field with `scalar_field_bits` = b. Throws
// std::invalid_argument for c outside 2..kMaxWindowBits, or if F·N or N·W reach 2^31 (the
// signed 32-bit base references and the sort length).
Plan make_plan(std::size_t bases, unsigned scalar_field_bits, const Config& config);

// The c that minimises the modelled cost for N bases and F copies (F = 0: all windows):
// N·W mixed additions (8M + 2S ≈ 10 products each) plus ≈ 3.4 full additions
// (12M + 2S ≈ 14 products) per bucket for the reduction (msm/bucket_sum.cuh).
unsigned choose_window_bits(std::size_t bases, unsigned scalar_field_bits, unsigned copies);

}  // namespace zkp::cuda::msm
