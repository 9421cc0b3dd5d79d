// Level 0 of the MSM in affine coordinates, with one field inversion shared by a batch of
// additions (Montgomery's trick): the alternative to accumulate.cuh's XYZZ mixed additions
// that Config::affine_lanes selects.
//
// Why: a mixed XYZZ addition costs 10 field products (8M + 2S); an affine addition
// λ = (y2 − y1)/(x2 − x1), x3 = λ² − x1 − x2, y3 = λ(x1 − x3) − y1 costs 3, plus 3 more for
// its share of the batched inversion (one product forward, two backward) and 1/K of one
// inversion (safegcd, cuda/ff/inverse.cuh: ≈ 40–50 products' worth of instructions, where
// Fermat's would be 370–610). The accumulation is where an MSM's time goes, and it is bound
// by the products.
//
// Shape: the sorted entries are cut into S segments exactly as accumulate.cuh cuts them (and
// the runs go to the same RunSink, so the piece levels and the bucket reduction are
// unchanged), but one thread now carries K segments at once, its "lanes": segment
// g = j·T + t is lane j of thread t (T threads). A thread advances all its lanes one entry
// per step; the lanes whose entry continues their run need an addition, and those K
// additions share one inversion. Because SIMT runs a warp's lanes in lock step, sharing an
// inversion across a warp's threads would save nothing; it must be across one thread's own
// additions, so K is per thread and the lanes' state lives in global memory (AffineLanes),
// indexed by g so that a warp's accesses to one lane coalesce.
//
// Per step and lane (forward): a new run emits the finished one to the sink and starts from
// the entry's point; a point at infinity, or a run that sums to infinity (P + (−P)) needs no
// inversion; otherwise the denominator is x_P − x_acc (addition) or 2·y_acc (doubling, the
// same point twice), its running product is stashed, and the lane is marked. Backward, in
// reverse lane order, each marked lane takes its inverse from the stash and the shared
// inverse and finishes its addition. Which lanes are marked, and which of them double, are two
// bit masks in registers (so K ≤ kMaxAffineLanes = 64); a lane's run key and flags are one
// 8-byte record, written only when they change. The entry's base is gathered again backward
// rather than stored: one random 96-byte read instead of a 96-byte write and read.
#pragma once

#include <cstdint>

#include "cuda/ec/xyzz.cuh"
#include "cuda/ff/inverse.cuh"
#include "cuda/msm/accumulate.cuh"
#include "cuda/msm/digits.cuh"
#include "cuda/msm/plan.hpp"
#include "cuda/util/bits.cuh"

namespace zkp::cuda::msm {

// A lane's flags (LaneRun::flags).
inline constexpr std::uint32_t kLaneInfinity = 1u;  // the run's sum so far is the identity
inline constexpr std::uint32_t kLaneFirst = 2u;     // the lane's current run is its first

// A lane's current run: its bucket key and flags, loaded and stored as one 8-byte word.
struct alignas(8) LaneRun {
  std::uint32_t key;
  std::uint32_t flags;
};

// The lanes' state, S of each (one per segment).
template <CurveParams C>
struct AffineLanes {
  PointXY<C>* acc;                        // the current run's sum (meaningless at infinity)
  DeviceField<typename C::Field>* stash;  // product of the earlier lanes' denominators this step
  LaneRun* run;
};

namespace detail {

template <CurveParams C>
ZKP_HD PointXY<C> signed_base(const PointXY<C>* table, std::uint32_t ref) {
  PointXY<C> p = load_base(table, ref & ~kNegBit);
  p.y = p.y.cond_neg((ref & kNegBit) != 0);
  return p;
}

template <CurveParams C>
ZKP_HD Xyzz<C> lane_sum(const PointXY<C>& acc, std::uint32_t flags) {
  return (flags & kLaneInfinity) != 0 ? Xyzz<C>::identity() : Xyzz<C>::from_xy(acc.x, acc.y);
}

}  // namespace detail

// Thread t of `threads`, lanes j < K, segment g = j·threads + t of `segments` over the m
// sorted non-zero entries (⌈m/segments⌉ each, as accumulate_segment cuts them).
template <CurveParams C>
ZKP_HD void accumulate_affine_thread(std::uint32_t t, std::uint32_t threads, std::uint32_t lanes_per_thread,
                                     std::uint32_t segments, std::uint32_t m, const std::uint32_t* keys,
                                     const std::uint32_t* refs, const PointXY<C>* table, const AffineLanes<C>& lanes,
                                     const RunSink<C>& sink) {
  using F = DeviceField<typename C::Field>;
  const std::uint32_t len = (m + segments - 1) / segments;
  const auto begin_of = [&](std::uint32_t g) { return std::uint64_t{g} * len; };
  const auto end_of = [&](std::uint32_t g) {
    const std::uint64_t e = std::uint64_t{g + 1} * len;
    return e < m ? e : std::uint64_t{m};
  };

  // Step 0: every lane's first entry starts its first run.
  std::uint32_t steps = 0;  // the longest lane's length: every lane but the last ones has len
  for (std::uint32_t j = 0; j < lanes_per_thread; ++j) {
    const std::uint32_t g = j * threads + t;
    if (g >= segments) break;
    const std::uint64_t b = begin_of(g);
    if (b >= m) {
      sink.empty(g);
      continue;
    }
    const std::uint32_t pos = static_cast<std::uint32_t>(b);
    const PointXY<C> p = detail::signed_base(table, refs[pos]);
    lanes.acc[g] = p;
    lanes.run[g] = LaneRun{keys[pos], kLaneFirst | (p.is_infinity() ? kLaneInfinity : 0u)};
    const std::uint64_t n = end_of(g) - b;
    if (n > steps) steps = static_cast<std::uint32_t>(n);
  }

  // Lane j's entry at step s (its key and signed base), fetched one lane ahead of its use so
  // that the gather's latency hides behind the previous lane's arithmetic.
  struct Entry {
    bool live;
    std::uint32_t key;
    PointXY<C> p;
  };
  const auto fetch = [&](std::uint32_t j, std::uint32_t s) {
    Entry e{false, 0, {}};
    const std::uint32_t g = j * threads + t;
    if (j >= lanes_per_thread || g >= segments) return e;
    const std::uint64_t pos = begin_of(g) + s;
    if (pos >= end_of(g)) return e;
    e.live = true;
    e.key = keys[pos];
    e.p = detail::signed_base(table, refs[pos]);
    return e;
  };
  for (std::uint32_t s = 1; s < steps; ++s) {
    // Forward: classify each lane's step, stash the running product of the denominators.
    F running = F::one();
    std::uint64_t marked = 0, doubled = 0;  // bit j: lane j adds (doubles) this step
    Entry next = fetch(0, s);
    for (std::uint32_t j = 0; j < lanes_per_thread; ++j) {
      const Entry cur = next;
      next = fetch(j + 1, s);
      if (!cur.live) continue;
      const std::uint32_t g = j * threads + t;
      const PointXY<C>& p = cur.p;
      const LaneRun run = lanes.run[g];
      if (cur.key != run.key) {
        sink.put(g, run.key, detail::lane_sum(lanes.acc[g], run.flags), (run.flags & kLaneFirst) != 0, false);
        lanes.acc[g] = p;
        lanes.run[g] = LaneRun{cur.key, p.is_infinity() ? kLaneInfinity : 0u};
        continue;
      }
      if (p.is_infinity()) continue;
      if ((run.flags & kLaneInfinity) != 0) {
        lanes.acc[g] = p;
        lanes.run[g] = LaneRun{run.key, run.flags & ~kLaneInfinity};
        continue;
      }
      const F ax = lanes.acc[g].x;  // y only when the x coordinates meet
      F d;
      if (ax != p.x) {
        d = p.x - ax;
      } else if (lanes.acc[g].y == p.y) {
        d = p.y + p.y;  // never zero: no point of odd order has y = 0
        doubled |= std::uint64_t{1} << j;
      } else {
        lanes.run[g] = LaneRun{run.key, run.flags | kLaneInfinity};  // P + (−P)
        continue;
      }
      lanes.stash[g] = running;
      running = running * d;
      marked |= std::uint64_t{1} << j;
    }
    if (marked == 0) continue;

    // Backward: one inversion, then each marked lane's inverse and its affine sum, from the
    // highest marked lane down, the next one's base fetched before this one's arithmetic.
    F inv = inverse_safegcd(running);
    const auto base_of = [&](std::uint32_t j) {
      return detail::signed_base(table, refs[begin_of(j * threads + t) + s]);
    };
    std::uint32_t j = static_cast<std::uint32_t>(top_bit(marked));
    PointXY<C> p = base_of(j);
    for (;;) {
      marked &= ~(std::uint64_t{1} << j);
      const std::uint32_t next_j = marked != 0 ? static_cast<std::uint32_t>(top_bit(marked)) : j;
      const PointXY<C> next_p = marked != 0 ? base_of(next_j) : p;
      const std::uint32_t g = j * threads + t;
      const PointXY<C> a = lanes.acc[g];
      const F inv_d = inv * lanes.stash[g];
      F lambda, x_other;
      if ((doubled >> j & 1) == 0) {
        inv = inv * (p.x - a.x);
        lambda = (p.y - a.y) * inv_d;
        x_other = p.x;
      } else {
        inv = inv * (a.y + a.y);
        const F xx = a.x.square();
        lambda = (xx + xx + xx) * inv_d;
        x_other = a.x;
      }
      const F x3 = lambda.square() - a.x - x_other;
      const F y3 = lambda * (a.x - x3) - a.y;
      lanes.acc[g] = PointXY<C>{x3, y3};
      if (marked == 0) break;
      j = next_j;
      p = next_p;
    }
  }

  // The last run of every lane.
  for (std::uint32_t j = 0; j < lanes_per_thread; ++j) {
    const std::uint32_t g = j * threads + t;
    if (g >= segments) break;
    if (begin_of(g) >= m) continue;
    const LaneRun run = lanes.run[g];
    sink.put(g, run.key, detail::lane_sum(lanes.acc[g], run.flags), (run.flags & kLaneFirst) != 0, true);
  }
}

#if defined(__CUDACC__)

inline constexpr unsigned kAffineThreads = 128;

template <CurveParams C>
__global__ void __launch_bounds__(kAffineThreads)
    accumulate_affine_kernel(const std::uint32_t* __restrict__ keys, const std::uint32_t* __restrict__ refs,
                             const PointXY<C>* __restrict__ table, const std::uint32_t* __restrict__ count,
                             std::uint32_t threads, std::uint32_t lanes_per_thread, std::uint32_t segments,
                             AffineLanes<C> lanes, RunSink<C> sink) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < threads) accumulate_affine_thread(t, threads, lanes_per_thread, segments, *count, keys, refs, table, lanes, sink);
}

#endif

}  // namespace zkp::cuda::msm
