// Sums of many affine points by batch-affine addition: the bucket accumulation of the MSM.
//
// Adding two affine points costs 1 inversion + 2M + 1S (λ = (y2 − y1)/(x2 − x1),
// x3 = λ² − x1 − x2, y3 = λ(x1 − x3) − y1). With Montgomery's trick one inversion serves a
// whole batch for 3M per element, so an addition costs ≈ 5M + 1S, against 8M + 2S for the
// XYZZ mixed addition (madd-2008-s). This is how the fastest CPU MSMs accumulate buckets
// (gnark-crypto: Botrel, El Housni, TCHES 2023, §4.1; snarkVM's batch_add).
//
// Batches need independent additions. Instead of queueing bucket conflicts, every bucket's
// points are summed as a pairwise tree: a round adds the pairs (0,1), (2,3), … of a bucket,
// a batch holds rounds of many buckets, and a bucket with k points is done after ⌈log2 k⌉
// rounds. A skewed
// bucket (circom's small scalars all land in the same few) costs as many additions as
// k − 1 mixed additions would, still batched, never serialised.
//
// Points are PointXY: x and y only, the point at infinity encoded as (0, 0), which is on
// neither curve (b ≠ 0). That is the zkey layout, so bases can be read in place.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/ff/montgomery.hpp"
#include "core/msm/scalars.hpp"

// x86-64 host builds (not nvcc): BN254 and BLS12-381 G1 and G2 batches go eight additions at
// a time through the AVX-512 IFMA kernels where the CPU has them (flush_by_eight below).
// montgomery.hpp, included first, is what defines ZKPIPE_MONT_ADX_DISPATCH: without it this
// #if would depend on the includer's order, and BucketSummer could differ between
// translation units (the ec headers include no field header).
#if defined(ZKPIPE_MONT_ADX_DISPATCH)
#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "core/ff/mont_ifma.hpp"
#endif

namespace zkp::msm {

template <class F>
struct PointXY {
  F x{}, y{};
  constexpr bool is_infinity() const { return x.is_zero() && y.is_zero(); }
};

namespace detail {
#if defined(ZKPIPE_MONT_ADX_DISPATCH)
// The IFMA batch passes (mont_ifma.hpp) of the coordinate fields that have them: prefix is the
// forward pass (for an Fq2, with the norms), add the backward pass.
template <class F>
struct LaneKernels;
template <>
struct LaneKernels<bn254::Fq> {
  static constexpr auto prefix = &mont::ifma::prefix_rows_bn254_fq_ifma;
  static constexpr auto add = &mont::ifma::add_rows_bn254_g1_ifma;
};
template <>
struct LaneKernels<bn254::Fq2> {
  static constexpr auto prefix = &mont::ifma::prefix_rows_bn254_fq2_norm_ifma;
  static constexpr auto add = &mont::ifma::add_rows_bn254_g2_ifma;
};
template <>
struct LaneKernels<bls12_381::Fq> {
  static constexpr auto prefix = &mont::ifma::prefix_rows_bls12_381_fq_ifma;
  static constexpr auto add = &mont::ifma::add_rows_bls12_381_g1_ifma;
};
template <>
struct LaneKernels<bls12_381::Fq2> {
  static constexpr auto prefix = &mont::ifma::prefix_rows_bls12_381_fq2_norm_ifma;
  static constexpr auto add = &mont::ifma::add_rows_bls12_381_g2_ifma;
};
template <class F>
concept HasLaneKernels = requires { LaneKernels<F>::add; };
#endif

// The field a batch of F-denominators is inverted in: F, or the base field of an extension.
template <class F>
struct InversionField {
  using type = F;
};
template <class F>
  requires requires { typename F::Base; }
struct InversionField<F> {
  using type = typename F::Base;
};

}  // namespace detail

// Reusable scratch for summing buckets; one per worker thread. Not thread-safe.
template <class F>
class BucketSummer {
 public:
  BucketSummer() = default;
  // by_eight = false keeps the scalar flush() where flush_by_eight() would run, so that tests
  // can compare the two on one machine.
  explicit BucketSummer(bool by_eight) : by_eight_(by_eight) {}

  // For every bucket b, out[b] = Σ over entries[offsets[b] .. offsets[b + 1]) of ±bases[i]
  // (SignedIndex), or infinity for an empty bucket. Bases must not be at infinity.
  // offsets has out.size() + 1 non-decreasing entries ending at entries.size().
  //
  // The buckets' rounds are pipelined (sum_group): every batch holds the next round of each
  // bucket in flight and the first round of as many further buckets as fill it, so the
  // survivors held between rounds stay within two batches' worth of points (≤ 300 KiB for
  // BN254 G1 and G2) whatever the window's size, and nearly every batch is full. A bucket of
  // more than kPieceEntries entries is cut into pieces that go through the same pipeline
  // (sum_large). The sums are exact, so the order of additions does not change them.
  void sum(std::span<const PointXY<F>> bases, std::span<const SignedIndex> entries,
           std::span<const std::uint32_t> offsets, std::span<PointXY<F>> out) {
    // Capacity up front: queued jobs point into rounds_, so it must never move while they do.
    rounds_.reserve(kRoundsCapacity);
    std::size_t b0 = 0;
    while (b0 < out.size()) {
      if (offsets[b0 + 1] - offsets[b0] > kPieceEntries) {
        sum_large(bases, entries, offsets[b0], offsets[b0 + 1], out[b0]);
        ++b0;
        continue;
      }
      std::size_t b1 = b0 + 1;
      while (b1 < out.size() && offsets[b1 + 1] - offsets[b1] <= kPieceEntries) ++b1;
      sum_group(bases, entries, offsets, out, b0, b1);
      b0 = b1;
    }
  }

  // acc[i] = acc[i] + addend[i] for every i, as batches of independent additions (one
  // inversion per batch); either side may be infinity, the sums are exact. The chained bucket
  // reduction (pippenger.hpp) runs it twice per step over its chains.
  void add_assign(std::span<PointXY<F>> acc, std::span<const PointXY<F>> addend) {
    for (std::size_t i = 0; i < acc.size(); ++i) {
      if (addend[i].is_infinity()) continue;
      if (acc[i].is_infinity()) {
        acc[i] = addend[i];
        continue;
      }
      push(acc[i], addend[i], &acc[i]);  // the job holds copies: dst may be its own p
    }
    flush();
  }

 private:
  // One bucket of more than kPieceEntries entries (a sparse window's few buckets, the unit
  // scalars): its pieces of kPieceEntries entries are summed as buckets of their own, through
  // the pipeline together, then the pieces' sums by pairwise rounds.
  void sum_large(std::span<const PointXY<F>> bases, std::span<const SignedIndex> entries, std::uint32_t begin,
                 std::uint32_t end, PointXY<F>& out) {
    const std::size_t m = (std::size_t{end} - begin + kPieceEntries - 1) / kPieceEntries;
    piece_offsets_.resize(m + 1);
    for (std::size_t i = 0; i < m; ++i) piece_offsets_[i] = static_cast<std::uint32_t>(begin + i * kPieceEntries);
    piece_offsets_[m] = end;
    pieces_.resize(m);
    sum_group(bases, entries, piece_offsets_, pieces_, 0, m);
    // Pairwise rounds compacting pieces_ in place, as sum_group's rounds do (safe for the same
    // reason: a job copies its two points when queued).
    while (pieces_.size() > 1) {
      const std::size_t n = pieces_.size();
      for (std::size_t j = 0; j + 1 < n; j += 2) push(pieces_[j], pieces_[j + 1], &pieces_[j / 2]);
      if (n % 2 != 0) pieces_[n / 2] = pieces_[n - 1];  // n / 2 < n − 1: n ≥ 3
      flush();
      pieces_.resize((n + 1) / 2);
    }
    out = pieces_.front();
  }

  // sum() for buckets [b0, b1), each of at most kPieceEntries entries, as a pipeline of
  // pairwise rounds. A bucket's round adds the pairs (0,1), (2,3), … of its points and keeps
  // the sums (and an odd last point) as the next round's points, until two are left, whose sum
  // is the bucket's. Each step queues the next round of every bucket in flight, then the first
  // round of further buckets while the batch has room (kBatch jobs), and flushes once: the
  // rounds of one bucket depend on each other, those of different buckets do not, so a step's
  // batch is full until the last buckets drain. Summing all buckets of a group round by round
  // instead held half of the group's entries as survivors (≈ 0.5 MiB a worker) and ended every
  // round with a partial batch, an inversion for few additions.
  //
  // The survivors of the buckets in flight sit contiguously in rounds_, bucket after bucket
  // in order, and each step compacts them in place toward the front, then appends the new
  // buckets' behind them. In place is safe because every write lands at or below what has
  // already been read: runs are in order, a run's survivors start at pos <= its own start (no
  // run grows), the pair at src[j], src[j + 1] goes to its run's output j/2 <= j, the new
  // buckets are written only after every run was read, and a queued job holds copies of its
  // two points, so the flush writing dst later reads nothing from the buffer. A step holds at
  // most kBatch jobs (or one bucket, alone), and each run or new bucket with survivors adds
  // at least one job, so rounds_ never needs more than kRoundsCapacity points.
  void sum_group(std::span<const PointXY<F>> bases, std::span<const SignedIndex> entries,
                 std::span<const std::uint32_t> offsets, std::span<PointXY<F>> out, std::size_t b0, std::size_t b1) {
    active_.clear();
    std::size_t b = b0;
    while (b < b1 || !active_.empty()) {
      cur_active_.swap(active_);
      active_.clear();
      std::size_t pos = 0, jobs = 0;
      for (const Run& r : cur_active_) {
        PointXY<F>* src = rounds_.data() + r.start;
        PointXY<F>* dst = r.count == 2 ? &out[r.bucket] : rounds_.data() + pos;
        for (std::uint32_t j = 0; j + 1 < r.count; j += 2) push(src[j], src[j + 1], dst++);
        if (r.count % 2 != 0 && dst != &src[r.count - 1]) *dst = src[r.count - 1];
        jobs += r.count / 2;
        if (r.count > 2) {
          active_.push_back({r.bucket, static_cast<std::uint32_t>(pos), (r.count + 1) / 2});
          pos += (r.count + 1) / 2;
        }
      }
      for (; b < b1; ++b) {
        const std::uint32_t begin = offsets[b], k = offsets[b + 1] - begin;
        const std::size_t kept = k > 2 ? (k + 1) / 2 : 0;
        if (jobs != 0 && jobs + k / 2 > kBatch) break;  // the next step's
        // Within the capacity reserved in sum(), so nothing queued moves (see above).
        if (rounds_.size() < pos + kept) rounds_.resize(pos + kept);
        // ±bases[entry j of the bucket] into `to`, written in place (see append()).
        const auto put = [&](std::uint32_t j, PointXY<F>& to) {
          // The gather of bases in bucket order is random access (bases do not fit in L2):
          // fetch ahead while the batch computes. Every cache line of the point: bases read in
          // place from a key file, or copied by malloc, are only 8- or 16-byte aligned, so a
          // 64-byte G1 point usually spans two lines (a G2 point three).
          if (begin + j + kPrefetch < entries.size()) prefetch_point(&bases[entries[begin + j + kPrefetch] & ~kNegBit]);
          const SignedIndex e = entries[begin + j];
          const PointXY<F>& p = bases[e & ~kNegBit];
          to.x = p.x;
          if ((e & kNegBit) != 0) to.y = -p.y;
          else to.y = p.y;
        };
        if (k == 0) {
          out[b] = {};
        } else if (k == 1) {
          put(0, out[b]);
        } else {
          PointXY<F>* dst = k == 2 ? &out[b] : rounds_.data() + pos;
          for (std::uint32_t j = 0; j + 1 < k; j += 2) {
            Job& job = append(dst++);
            put(j, job.p);
            put(j + 1, job.q);
            queued();
          }
          if (k % 2 != 0) put(k - 1, *dst);
          jobs += k / 2;
          if (k > 2) {
            active_.push_back({static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(pos), static_cast<std::uint32_t>(kept)});
            pos += kept;
          }
        }
      }
      flush();
    }
  }

  // Jobs per batch: one inversion is shared by this many additions. Sized so a batch (≈ 7
  // field elements per job: p, q, the denominator, its inverted part and prefix product)
  // stays within half of a 1 MiB L2 cache.
  static constexpr std::size_t kBatch = std::max<std::size_t>(256, (std::size_t{1} << 19) / (7 * sizeof(F)));

  // Entries of a bucket above which sum() cuts it into pieces (sum_large): a piece's first
  // round is at most half a batch, so pieces pipeline like other buckets.
  static constexpr std::size_t kPieceEntries = kBatch;
  // The survivors a pipeline step can hold (sum_group): each bucket in flight keeps at most
  // one more than its jobs and has at least one, and a step has at most kBatch jobs.
  static constexpr std::size_t kRoundsCapacity = 2 * kBatch + 1;

  // Entries ahead of the current one whose base is prefetched.
  static constexpr std::size_t kPrefetch = 16;
  static void prefetch_point(const PointXY<F>* p) {
    const auto* first = reinterpret_cast<const char*>(p);
    const auto* last = first + sizeof(PointXY<F>) - 1;
    for (const char* line = first; line <= last; line += 64) __builtin_prefetch(line);
    if ((reinterpret_cast<std::uintptr_t>(first) & 63) > (reinterpret_cast<std::uintptr_t>(last) & 63))
      __builtin_prefetch(last);  // the tail line the 64-byte steps skipped over
  }

  enum class Kind : std::uint8_t { add, dbl, copy_first, copy_second, infinity };
  struct Job {
    PointXY<F> p, q;
    PointXY<F>* dst;
    Kind kind;
  };
  struct Run {
    std::uint32_t bucket, start, count;  // count ≥ 2 points at rounds_[start ..]
  };

  // The field whose inversions are batched. For F = Fp2 (G2) it is the base field: 1/d =
  // conj(d)/N(d) with N(d) = d0² + d1² (u² = −1, as in Fp2::inverse), so the batch runs on the
  // norms and costs 2S + 3M + 2M in Fq per denominator instead of 3 Fp2 products (9M).
  static constexpr bool kViaNorm = requires { typename F::Base; };
  using D = typename detail::InversionField<F>::type;
  static D inverted_part(const F& d) {
    if constexpr (kViaNorm) return d.c0.square() + d.c1.square();
    else return d;
  }
  // 1/d from d and 1/inverted_part(d).
  static F inverse_from(const F& d, const D& part_inv) {
    if constexpr (kViaNorm) return d.conjugate().mul_by_fp(part_inv);
    else return part_inv;
  }

  // The next job slot, for dst; the caller writes its p and q in place, then calls queued().
  // Jobs are filled where they live, never built as temporaries and copied in: GCC assembled
  // such a temporary on the stack from 8-byte stores and read it back as 16-byte loads, a
  // store-forwarding stall per point (perf: most of sum_group's own time for BN254 G1).
  Job& append(PointXY<F>* dst) {
    if (jobs_.size() < kBatch) {
      jobs_.resize(kBatch);
      // The flushes' per-job arrays at their largest once, here: grown by push_back and
      // resize() they doubled past it (den_ to 4096 entries for 2344, BN254 G1), and each
      // smaller buffer they left behind stayed in the worker's malloc arena: ≈ 0.1 MiB a
      // worker, 1.6 MB of a 16-thread 2^16 proof's peak.
      const std::size_t lanes = 8 * ((kBatch + 7) / 8);
      prefix_.reserve(lanes);
      den_.reserve(lanes);
      if (kViaNorm || !by_eight_) part_.reserve(lanes);  // flush_by_eight's G1 has no parts
#if defined(ZKPIPE_MONT_ADX_DISPATCH)
      lane_jobs_.reserve(kBatch);
      dbl_rows_.reserve(lanes / 8);
#endif
    }
    Job& j = jobs_[n_jobs_++];
    j.dst = dst;  // kind is set where a flush classifies the job
    return j;
  }
  void queued() {
    if (n_jobs_ == kBatch) flush();
  }
  void push(const PointXY<F>& p, const PointXY<F>& q, PointXY<F>* dst) {
    Job& j = append(dst);
    j.p = p;
    j.q = q;
    queued();
  }

  // dst = p + q for every queued job, with one inversion. Flattened: GCC does not inline
  // the ff layer's add/sub/mul here on its own, and the calls cost ≈ 20% (perf, BN254 G1).
  [[gnu::flatten]] void flush() {
    if (n_jobs_ == 0) return;
#if defined(ZKPIPE_MONT_ADX_DISPATCH)
    if constexpr (detail::HasLaneKernels<F>) {
      if (by_eight_ && mont::use_ifma_kernels()) {
        flush_by_eight();
        return;
      }
    }
#endif
    prefix_.resize(n_jobs_);
    den_.resize(n_jobs_);
    part_.resize(n_jobs_);
    D acc = D::one();
    for (std::size_t t = 0; t < n_jobs_; ++t) {
      Job& j = jobs_[t];
      if (j.p.is_infinity()) {
        j.kind = Kind::copy_second;
        continue;
      }
      if (j.q.is_infinity()) {
        j.kind = Kind::copy_first;
        continue;
      }
      // x2 − x1 is needed anyway, and testing it for zero replaces comparing x1 with x2
      // (a memcmp call per job: 1.3% of a BN254 2^16 proof in perf).
      F den = j.q.x - j.p.x;
      if (den.is_zero()) {
        // Same x: the same point (tangent, denominator 2y) or opposite points (sum at infinity).
        // y = 0 cannot occur: the groups have odd order, so no point of order 2.
        if (j.p.y != j.q.y) {
          j.kind = Kind::infinity;
          continue;
        }
        j.kind = Kind::dbl;
        den = j.p.y.dbl();
      } else {
        j.kind = Kind::add;
      }
      prefix_[t] = acc;
      den_[t] = den;
      part_[t] = inverted_part(den);
      acc *= part_[t];
    }
    D inv = acc.inverse();
    for (std::size_t t = n_jobs_; t-- > 0;) {
      const Job& j = jobs_[t];
      switch (j.kind) {
        case Kind::copy_first: *j.dst = j.p; break;
        case Kind::copy_second: *j.dst = j.q; break;
        case Kind::infinity: *j.dst = {}; break;
        case Kind::add:
        case Kind::dbl: {
          const F den_inv = inverse_from(den_[t], inv * prefix_[t]);
          inv *= part_[t];
          const F num = j.kind == Kind::add ? j.q.y - j.p.y : j.p.x.square().template mul_small<3>();
          const F lambda = num * den_inv;
          const F x3 = lambda.square() - j.p.x - j.q.x;
          *j.dst = {x3, lambda * (j.p.x - x3) - j.p.y};
          break;
        }
      }
    }
    n_jobs_ = 0;
  }

#if defined(ZKPIPE_MONT_ADX_DISPATCH)
  // flush() for G1 and G2 of BN254 and BLS12-381 on the eight IFMA lanes (mont_ifma.hpp), the
  // same sums: the k-th addition of the batch goes to lane k % 8, so the one prefix-product
  // chain of flush() becomes eight independent chains, one per lane, whose eight products are
  // inverted together (Montgomery's trick again): still one field inversion per batch. The two
  // passes run in the kernels, which read each job's P and Q in place and write its sum, with
  // the products and the formulas' additions and subtractions on the lanes (done one lane at a
  // time between the products, those and the conversions cost about as much as the products).
  // For G2 the batch inverts the Fq norms of the denominators, as flush() does. Inverses are
  // exact, so the points are the ones flush() computes, bit for bit.
  void flush_by_eight() {
    static_assert(offsetof(Job, p) == 0 && offsetof(Job, q) == sizeof(PointXY<F>) &&
                      sizeof(PointXY<F>) == 2 * sizeof(F),
                  "the kernels read x1, y1, x2, y2 as four consecutive F and write x3, y3 as two");
    lane_jobs_.clear();
    den_.clear();
    dbl_rows_.clear();
    for (Job& j : std::span(jobs_.data(), n_jobs_)) {
      if (j.p.is_infinity()) {
        *j.dst = j.q;
        continue;
      }
      if (j.q.is_infinity()) {
        *j.dst = j.p;
        continue;
      }
      F den = j.q.x - j.p.x;
      bool dbl = false;
      if (den.is_zero()) {
        if (j.p.y != j.q.y) {  // opposite points (see flush())
          *j.dst = {};
          continue;
        }
        dbl = true;
        den = j.p.y.dbl();
      }
      const std::size_t k = lane_jobs_.size();
      if (k % 8 == 0) dbl_rows_.push_back(0);
      if (dbl) dbl_rows_.back() |= static_cast<std::uint8_t>(1u << (k % 8));
      lane_jobs_.push_back({&j.p.x, &j.dst->x});
      den_.push_back(den);
    }
    if (!lane_jobs_.empty()) run_lanes(lane_jobs_.size());
    n_jobs_ = 0;
  }

  // The two kernel passes over the n jobs flush_by_eight queued in lane_jobs_, den_ and dbl_rows_.
  void run_lanes(std::size_t n) {
    const std::size_t rows = (n + 7) / 8;
    den_.resize(8 * rows, F::one());  // padding lanes multiply by one
    prefix_.resize(8 * rows);
    alignas(64) D acc[8], inv[8];
    std::fill(acc, acc + 8, D::one());
    using Kernels = detail::LaneKernels<F>;
    if constexpr (kViaNorm) {
      part_.resize(8 * rows);  // the norms
      Kernels::prefix(prefix_.data(), part_.data(), acc, den_.data(), rows);
      invert_lanes(acc, inv);
      Kernels::add(lane_jobs_.data(), n, dbl_rows_.data(), prefix_.data(), part_.data(), den_.data(), inv);
    } else {
      Kernels::prefix(prefix_.data(), acc, den_.data(), rows);
      invert_lanes(acc, inv);
      Kernels::add(lane_jobs_.data(), n, dbl_rows_.data(), prefix_.data(), den_.data(), inv);
    }
  }
  // inv[l] = 1/acc[l] for eight lanes with one field inversion (Montgomery's trick).
  static void invert_lanes(const D* acc, D* inv) {
    D lane_prefix[8];
    D all = D::one();
    for (std::size_t l = 0; l < 8; ++l) {
      lane_prefix[l] = all;
      all *= acc[l];
    }
    D all_inv = all.inverse();
    for (std::size_t l = 8; l-- > 0;) {
      inv[l] = all_inv * lane_prefix[l];
      all_inv *= acc[l];
    }
  }
  std::vector<mont::ifma::AffineAdd<F>> lane_jobs_;  // the jobs that add or double, in order
  std::vector<std::uint8_t> dbl_rows_;                 // per row of eight: the lanes that double
#endif

  bool by_eight_ = true;

  std::vector<Job> jobs_;  // kBatch slots once used; [0, n_jobs_) are queued
  std::size_t n_jobs_ = 0;
  std::vector<D> prefix_, part_;  // per job: the product of earlier parts, its inverted part
  std::vector<F> den_;            // per job: its denominator
  std::vector<PointXY<F>> rounds_;  // sum_group: the survivors of its rounds
  std::vector<PointXY<F>> pieces_;            // sum_large: the sums of a bucket's pieces
  std::vector<std::uint32_t> piece_offsets_;  // ... and their bounds in entries
  std::vector<Run> active_, cur_active_;
};

}  // namespace zkp::msm
