// Pippenger's bucket method over a ScalarPlan (Pippenger 1976; the bucket form of
// Bernstein, Doumen, Lange, Oosterwijk, "Faster batch forgery identification", 2012, §4).
//
// For c-bit windows w = 0 … W−1 and signed digits d_iw (scalars.hpp):
//   Σ s_i·P_i = Σ_w 2^(wc) · S_w,   S_w = Σ_{k=1}^{2^(c−1)} k · B_wk,   B_wk = Σ_{d_iw = ±k} ±P_i.
// Buckets B_wk are summed in affine by BucketSummer (batched inversions); S_w by the
// running sum S_w = Σ_k (B_wk + … + B_w,top), 2 additions per bucket: batched in affine over
// chains of buckets where the window is large and dense (chained_running_sum), else in XYZZ
// (fewer where buckets are empty); then Horner in 2^c. Batch-affine buckets measured 1.3× (G1) to 2× (G2)
// faster than one XYZZ mixed addition per point (BM_Accumulation, BN254, 2^16).
//
// Work is split into tasks (window w, chunk of the scalars) for parallel_for; each task
// reduces its own buckets, so chunking trades extra reductions for load balance (split.hpp
// chooses c and the chunks for the thread count). Units (±1 scalars) form one bucket of
// their own, summed in chunks. The result does not depend on
// the thread count: it is an exact group element, returned in affine form.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/ec/affine.hpp"
#include "core/ec/xyzz.hpp"
#include "core/msm/bucket_sum.hpp"
#include "core/msm/msm.hpp"
#include "core/msm/parallel.hpp"
#include "core/msm/scalars.hpp"
#include "core/msm/split.hpp"

namespace zkp::msm::detail {

// x86-64 and the common ARM64 cores; only used to keep workers' scratch apart.
inline constexpr std::size_t kCacheLine = 64;

// Unit scalars per task: enough that a task's one inversion per batch and thread start
// are noise, small enough that two threads share a circom witness's ones.
inline constexpr std::size_t kUnitChunk = std::size_t{1} << 14;

// How buckets are accumulated. batch_affine is what msm() uses; xyzz (one mixed addition
// per point into XYZZ buckets, the textbook method) is kept as the measured baseline.
enum class Accumulation { batch_affine, xyzz };

template <CurveParams C>
class Pippenger {
  using F = typename C::Field;
  using Point = PointXY<F>;

 public:
  // `pool`: run on its threads (then `threads` is unused); nullptr: start `threads` threads.
  Pippenger(std::span<const Point> bases, const ScalarPlan& plan, WorkSplit split, std::size_t threads,
            Accumulation mode = Accumulation::batch_affine, ThreadPool* pool = nullptr)
      : bases_(bases),
        plan_(plan),
        c_(split.c),
        chunks_(std::max<std::size_t>(1, split.chunks)),
        threads_(std::max<std::size_t>(1, pool != nullptr ? pool->size() : threads)),
        mode_(mode),
        pool_(pool) {}

  Xyzz<C> run() {
    const std::size_t n = plan_.index.size();
    const std::size_t windows = window_count(plan_.max_bits, c_);
    const std::size_t chunks = windows == 0 ? 0 : chunks_;
    const std::size_t chunk_len = chunks == 0 ? 0 : (n + chunks - 1) / chunks;
    const std::size_t unit_tasks = (plan_.units.size() + kUnitChunk - 1) / kUnitChunk;
    const std::size_t window_tasks = windows * chunks;

    std::vector<Xyzz<C>> partial(window_tasks + unit_tasks, Xyzz<C>::identity());
    std::vector<Scratch> scratch(std::min(threads_, partial.size()));
    parallel_for(pool_, threads_, partial.size(), [&](std::size_t task, std::size_t worker) {
      Scratch& s = scratch[worker];
      if (task < window_tasks) {
        // Clamped: ⌈n/chunks⌉-long chunks can run out of scalars before the last one (n = 600
        // in 128 chunks of 5), which is then empty.
        const std::size_t w = task / chunks, lo = std::min(n, (task % chunks) * chunk_len);
        partial[task] = window_sum(w, lo, std::min(n, lo + chunk_len), s);
      } else {
        const std::size_t lo = (task - window_tasks) * kUnitChunk;
        const std::size_t hi = std::min(plan_.units.size(), lo + kUnitChunk);
        partial[task] = unit_sum(std::span(plan_.units).subspan(lo, hi - lo), s);
      }
    });

    Xyzz<C> acc = Xyzz<C>::identity();
    for (std::size_t w = windows; w-- > 0;) {
      for (unsigned i = 0; i < c_; ++i) acc = acc.dbl();
      for (std::size_t k = 0; k < chunks; ++k) acc += partial[w * chunks + k];
    }
    for (std::size_t t = window_tasks; t < partial.size(); ++t) acc += partial[t];
    return acc;
  }

 private:
  // One per worker, each on its own cache lines: the vectors' end pointers move on every
  // push_back, and must not share a line with another worker's.
  struct alignas(kCacheLine) Scratch {
    BucketSummer<F> summer;
    std::vector<std::int16_t> digits;  // d − 1 for each signed digit d of the chunk (window_sum)
    std::vector<std::uint32_t> offsets;
    std::vector<SignedIndex> entries;
    std::vector<Point> buckets;
    std::vector<Point> running, total, addend;  // chained_running_sum, one per chain
    std::vector<Xyzz<C>> xyzz_buckets;
  };

  // Scalars ahead whose magnitude is prefetched in window_sum's digit pass.
  static constexpr std::size_t kMagnitudePrefetch = 32;

  // S_w restricted to scalars [lo, hi).
  Xyzz<C> window_sum(std::size_t w, std::size_t lo, std::size_t hi, Scratch& s) const {
    if (mode_ == Accumulation::xyzz) return window_sum_xyzz(w, lo, hi, s);
    const std::size_t nb = std::size_t{1} << (c_ - 1);
    // Counting sort of the scalars' signed base references by bucket |d| − 1.
    // Capacity for the whole chunk up front: the entries' count changes from window to window,
    // and growing by resize() would double the buffer (2^20 scalars: 4 MiB more per worker).
    // The digits are kept as d − 1 in 16 bits, not d in 32: d ∈ (−2^(c−1), 2^(c−1)] with
    // c ≤ 16, so d − 1 fits an int16_t exactly (d itself would not: 2^15 at c = 16). Half the
    // bytes a scalar: 1 MB of a 16-thread 2^16 proof's peak, 2 MiB a worker at 2^20 scalars.
    static_assert(kMaxWindowBits <= 16, "digits are stored as d - 1 in an int16_t");
    s.digits.reserve(hi - lo);
    s.entries.reserve(hi - lo);
    s.digits.resize(hi - lo);
    s.offsets.assign(nb + 1, 0);
    for (std::size_t i = lo; i < hi; ++i) {
      if (i + kMagnitudePrefetch < hi) __builtin_prefetch(&plan_.magnitude[i + kMagnitudePrefetch]);
      const std::int32_t d = signed_digit(plan_.magnitude[i], w, c_);
      s.digits[i - lo] = static_cast<std::int16_t>(d - 1);
      if (d != 0) ++s.offsets[static_cast<std::size_t>(d < 0 ? -d : d)];  // bucket |d|−1, shifted by one
    }
    for (std::size_t b = 0; b < nb; ++b) s.offsets[b + 1] += s.offsets[b];
    s.entries.resize(s.offsets[nb]);
    for (std::size_t i = lo; i < hi; ++i) {
      const std::int32_t d = std::int32_t{s.digits[i - lo]} + 1;
      if (d == 0) continue;
      const std::size_t b = static_cast<std::size_t>(d < 0 ? -d : d) - 1;
      s.entries[s.offsets[b]++] = d < 0 ? plan_.index[i] ^ kNegBit : plan_.index[i];
    }
    // The scatter advanced offsets[b] to the end of bucket b; shift back to starts.
    for (std::size_t b = nb; b > 0; --b) s.offsets[b] = s.offsets[b - 1];
    s.offsets[0] = 0;

    s.buckets.resize(nb);
    s.summer.sum(bases_, s.entries, s.offsets, s.buckets);
    std::size_t nonempty = 0;
    for (std::size_t b = 0; b < nb; ++b) nonempty += s.offsets[b + 1] != s.offsets[b] ? 1 : 0;
    const std::size_t chains = std::min(kChains, nb / kMinChainLength);
    // A sparse window (the top one, circom's high windows) keeps running_sum's double-and-add
    // over runs of empty buckets.
    if (chains >= kMinChains && 2 * nonempty >= nb) return chained_running_sum(s.buckets, chains, s);
    return running_sum(s.buckets);
  }

  // running_sum's result, Σ_k (k + 1)·buckets[k], with the steps batched: the buckets are cut
  // into m chains of L consecutive ones (nb = m·L), bucket k = l·L + j in chain l, and
  //   Σ_k (k + 1)·B_k = Σ_l T_l + L·Σ_l l·R_l,  T_l = Σ_j (j + 1)·B_{lL+j},  R_l = Σ_j B_{lL+j}.
  // Every chain runs running_sum's two additions per bucket (running += B, total += running)
  // in step with the others, so each step is two batches of m independent affine additions
  // (BucketSummer::add_assign: ≈ 6 products each with the shared inversion, on the IFMA lanes
  // where there are some) instead of an XYZZ mixed addition and an XYZZ addition (≈ 10 and
  // 14 products, one at a time). Then Σ_l T_l, and Σ_l l·R_l = running_sum(R_1 … R_{m−1}), in
  // XYZZ, and log2 L doublings: ≈ 3m additions against the 2·nb saved on.
  static constexpr std::size_t kChains = 256;
  static constexpr std::size_t kMinChains = 64;       // enough additions per batch for its inversion
  static constexpr std::size_t kMinChainLength = 16;  // the final ≈ 3m additions stay a few per cent
  Xyzz<C> chained_running_sum(std::span<const Point> buckets, std::size_t m, Scratch& s) const {
    const std::size_t len = buckets.size() / m;  // both powers of two
    s.running.assign(m, Point{});
    s.total.assign(m, Point{});
    s.addend.resize(m);
    for (std::size_t j = len; j-- > 0;) {
      for (std::size_t l = 0; l < m; ++l) s.addend[l] = buckets[l * len + j];
      s.summer.add_assign(s.running, s.addend);
      s.summer.add_assign(s.total, s.running);
    }
    Xyzz<C> sum = Xyzz<C>::identity();
    for (const Point& t : s.total)
      if (!t.is_infinity()) sum += Affine<C>::from_xy(t.x, t.y);
    Xyzz<C> weighted = running_sum(std::span<const Point>(s.running).subspan(1));  // Σ_l l·R_l
    for (std::size_t step = 1; step < len; step *= 2) weighted = weighted.dbl();
    return sum + weighted;
  }

  Xyzz<C> window_sum_xyzz(std::size_t w, std::size_t lo, std::size_t hi, Scratch& s) const {
    s.xyzz_buckets.assign(std::size_t{1} << (c_ - 1), Xyzz<C>::identity());
    for (std::size_t i = lo; i < hi; ++i) {
      const std::int32_t d = signed_digit(plan_.magnitude[i], w, c_);
      if (d == 0) continue;
      const SignedIndex e = d < 0 ? plan_.index[i] ^ kNegBit : plan_.index[i];
      const Point& p = bases_[e & ~kNegBit];
      const Affine<C> a = Affine<C>::from_xy(p.x, (e & kNegBit) != 0 ? -p.y : p.y);
      Xyzz<C>& bucket = s.xyzz_buckets[static_cast<std::size_t>(d < 0 ? -d : d) - 1];
      bucket = bucket.add_mixed(a);
    }
    Xyzz<C> running = Xyzz<C>::identity(), total = Xyzz<C>::identity();
    for (std::size_t k = s.xyzz_buckets.size(); k-- > 0;) {
      running += s.xyzz_buckets[k];
      total += running;
    }
    return total;
  }

  // Σ_k (k + 1)·buckets[k] = Σ_k R_k with R_k = buckets[k] + … + buckets[top]. R_k only
  // changes at non-empty buckets, so a run of `len` equal terms is added as [len]R by
  // double-and-add: a dense window costs the usual 2 additions per bucket, a sparse one (the
  // top window, circom's high windows, tests with c = 16) ≈ log2(gap) doublings per bucket.
  static Xyzz<C> running_sum(std::span<const Point> buckets) {
    Xyzz<C> running = Xyzz<C>::identity(), total = Xyzz<C>::identity();
    std::size_t k = buckets.size();
    while (k > 0 && buckets[k - 1].is_infinity()) --k;
    while (k > 0) {
      --k;  // buckets[k] is non-empty
      running += Affine<C>::from_xy(buckets[k].x, buckets[k].y);
      const std::size_t hi = k;
      while (k > 0 && buckets[k - 1].is_infinity()) --k;
      total += times(running, hi - k + 1);  // R_j is the same for j = k … hi
    }
    return total;
  }

  static Xyzz<C> times(const Xyzz<C>& p, std::size_t m) {
    if (m == 1) return p;
    Xyzz<C> acc = p;
    for (int bit = 62 - __builtin_clzll(m); bit >= 0; --bit) {
      acc = acc.dbl();
      if ((m >> bit) & 1) acc += p;
    }
    return acc;
  }

  Xyzz<C> unit_sum(std::span<const SignedIndex> units, Scratch& s) const {
    if (mode_ == Accumulation::xyzz) {
      Xyzz<C> acc = Xyzz<C>::identity();
      for (const SignedIndex e : units) {
        const Point& p = bases_[e & ~kNegBit];
        acc = acc.add_mixed(Affine<C>::from_xy(p.x, (e & kNegBit) != 0 ? -p.y : p.y));
      }
      return acc;
    }
    const std::uint32_t offsets[2] = {0, static_cast<std::uint32_t>(units.size())};
    Point sum;
    s.summer.sum(bases_, units, offsets, std::span(&sum, 1));
    return sum.is_infinity() ? Xyzz<C>::identity() : Xyzz<C>::from_affine(Affine<C>::from_xy(sum.x, sum.y));
  }

  std::span<const Point> bases_;
  const ScalarPlan& plan_;
  unsigned c_;
  std::size_t chunks_;
  std::size_t threads_;
  Accumulation mode_;
  ThreadPool* pool_;
};

}  // namespace zkp::msm::detail
