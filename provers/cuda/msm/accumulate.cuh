// Kernels 2 and 3 of the MSM: summing the sorted (bucket key, base) entries into buckets.
//
// Sorting made every bucket a run of equal keys. The runs are summed by a segmented
// reduction that is balanced whatever the runs' lengths: the M non-zero entries are cut
// into S equal segments, one thread each (S ≈ the threads the GPU holds at once), and a
// thread adds up its segment run by run. A run that lies inside one segment is complete
// and goes straight to its bucket. The first and the last run of a segment may continue in
// a neighbour, so their partial sums go to the segment's two piece slots, keyed by bucket,
// and the next level sums the 2S pieces the same way (with full XYZZ additions); the last
// level is a single segment, where every run is complete. The piece array stays sorted by
// key, so levels need no further sorting. A skewed input (every scalar 1: one bucket holds
// every base) costs the same as a uniform one, which per-bucket threads would not.
//
// Level 0 gathers bases by reference (f·N + i, sign in bit 31) from the resident table and
// does mixed additions (madd-2008-s, 8M + 2S): this is where almost all of an MSM's time
// goes. It fetches the next base before adding the current one, so the random gather's
// latency hides behind the ~3,000 instructions of an addition.
//
// A segment's work is a host-and-device function (the emulation tests run the whole
// reduction on the CPU); the kernels map one thread to one segment.
#pragma once

#include <cstdint>

#include "cuda/ec/xyzz.cuh"
#include "cuda/msm/digits.cuh"
#include "cuda/util/bits.cuh"

namespace zkp::cuda::msm {

inline constexpr std::uint32_t kNoKey = 0xffffffffu;  // the piece slots of an empty segment

// Where run sums go. Keys at or above bucket_count (the zero-digit sentinel, kNoKey) are
// not buckets and are dropped.
template <CurveParams C>
struct RunSink {
  Xyzz<C>* buckets;
  std::uint32_t bucket_count;
  std::uint32_t* piece_keys;  // 2 per segment; unused on the final level
  Xyzz<C>* pieces;
  bool final_level;

  ZKP_HD void put(std::uint32_t segment, std::uint32_t key, const Xyzz<C>& sum, bool first, bool last) const {
    if (final_level || (!first && !last)) {
      if (key < bucket_count) buckets[key] = sum;
      return;
    }
    const std::uint32_t slot = 2 * segment + (first ? 0 : 1);
    piece_keys[slot] = key;
    pieces[slot] = sum;
    if (first && last) {  // one run spans the segment: its second slot carries nothing
      piece_keys[slot + 1] = key;
      pieces[slot + 1] = Xyzz<C>::identity();
    }
  }
  ZKP_HD void empty(std::uint32_t segment) const {
    if (final_level) return;
    piece_keys[2 * segment] = piece_keys[2 * segment + 1] = kNoKey;
    pieces[2 * segment] = pieces[2 * segment + 1] = Xyzz<C>::identity();
  }
};

namespace detail {

// One base; on the device with 16-byte loads through the read-only path (the table is
// never written during an MSM).
template <CurveParams C>
ZKP_HD PointXY<C> load_base(const PointXY<C>* table, std::uint32_t index) {
#if defined(__CUDA_ARCH__)
  static_assert(sizeof(PointXY<C>) % sizeof(uint4) == 0);
  constexpr std::size_t kWords = sizeof(PointXY<C>) / sizeof(uint4);
  const uint4* src = reinterpret_cast<const uint4*>(table + index);
  union {
    uint4 words[kWords];
    PointXY<C> point;
  } u;
  ZKP_UNROLL
  for (std::size_t k = 0; k < kWords; ++k) u.words[k] = __ldg(src + k);
  return u.point;
#else
  return table[index];
#endif
}

}  // namespace detail

// Level 0, segment `seg` of `segments` over the m sorted non-zero entries: ⌈m/segments⌉
// entries each.
template <CurveParams C>
ZKP_HD void accumulate_segment(std::uint32_t seg, std::uint32_t segments, std::uint32_t m, const std::uint32_t* keys,
                               const std::uint32_t* refs, const PointXY<C>* table, const RunSink<C>& sink) {
  const std::uint32_t len = (m + segments - 1) / segments;
  const std::uint64_t begin64 = std::uint64_t{seg} * len;
  if (begin64 >= m) {
    sink.empty(seg);
    return;
  }
  const std::uint32_t begin = static_cast<std::uint32_t>(begin64);
  const std::uint32_t end = begin + len < m ? begin + len : m;

  std::uint32_t key = keys[begin], ref = refs[begin];
  PointXY<C> p = detail::load_base(table, ref & ~kNegBit);
  Xyzz<C> acc = Xyzz<C>::identity();
  bool first = true;
  for (std::uint32_t i = begin;;) {
    const std::uint32_t next = i + 1;
    const bool more = next < end;
    // Issue the next gather before the addition that hides it.
    const std::uint32_t next_key = more ? keys[next] : key;
    const std::uint32_t next_ref = more ? refs[next] : ref;
    const PointXY<C> next_p = detail::load_base(table, next_ref & ~kNegBit);
    if (!p.is_infinity()) acc = acc.add_xy(p.x, p.y.cond_neg((ref & kNegBit) != 0));
    if (!more) break;
    if (next_key != key) {
      sink.put(seg, key, acc, first, false);
      first = false;
      acc = Xyzz<C>::identity();
      key = next_key;
    }
    ref = next_ref;
    p = next_p;
    i = next;
  }
  sink.put(seg, key, acc, first, true);
}

// Levels ≥ 1, segment `seg`: pieces [seg·len, min((seg + 1)·len, count)).
template <CurveParams C>
ZKP_HD void reduce_pieces_segment(std::uint32_t seg, const std::uint32_t* keys, const Xyzz<C>* points,
                                  std::uint32_t count, std::uint32_t len, const RunSink<C>& sink) {
  const std::uint32_t begin = seg * len;
  if (begin >= count) {
    sink.empty(seg);
    return;
  }
  const std::uint32_t end = begin + len < count ? begin + len : count;
  std::uint32_t key = keys[begin];
  Xyzz<C> acc = points[begin];
  bool first = true;
  for (std::uint32_t i = begin + 1; i < end; ++i) {
    const std::uint32_t k = keys[i];
    if (k != key) {
      sink.put(seg, key, acc, first, false);
      first = false;
      acc = points[i];
      key = k;
    } else {
      acc = acc + points[i];
    }
  }
  sink.put(seg, key, acc, first, true);
}

#if defined(__CUDACC__)

inline constexpr unsigned kAccumulateThreads = 128;
inline constexpr unsigned kPieceThreads = 128;

// `count` (device) holds m, the non-zero digits the digit kernel counted.
template <CurveParams C>
__global__ void __launch_bounds__(kAccumulateThreads)
    accumulate_kernel(const std::uint32_t* __restrict__ keys, const std::uint32_t* __restrict__ refs,
                      const PointXY<C>* __restrict__ table, const std::uint32_t* __restrict__ count,
                      std::uint32_t segments, RunSink<C> sink) {
  const std::uint32_t seg = blockIdx.x * blockDim.x + threadIdx.x;
  if (seg < segments) accumulate_segment(seg, segments, *count, keys, refs, table, sink);
}

template <CurveParams C>
__global__ void __launch_bounds__(kPieceThreads)
    reduce_pieces_kernel(const std::uint32_t* __restrict__ keys, const Xyzz<C>* __restrict__ points, std::uint32_t count,
                         std::uint32_t len, std::uint32_t segments, RunSink<C> sink) {
  const std::uint32_t seg = blockIdx.x * blockDim.x + threadIdx.x;
  if (seg < segments) reduce_pieces_segment(seg, keys, points, count, len, sink);
}

#endif

}  // namespace zkp::cuda::msm
