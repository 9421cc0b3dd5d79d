// Sums of many affine points by batch-affine addition: the bucket accumulation of the MSM.
//
// Adding two affine points costs 1 inversion + 2M + 1S (λ = (y2 − y1)/(x2 − x1),
// x3 = λ² − x1 − x2, y3 = λ(x1 − x3) − y1). With Montgomery's trick one inversion serves a
// whole batch for 3M per element, so an addition costs ≈ 5M + 1S, against 8M + 2S for the
// XYZZ mixed addition (madd-2008-s). This is how the fastest CPU MSMs accumulate buckets
// (gnark-crypto: Botrel, El Housni, TCHES 2023, §4.1; snarkVM's batch_add).
//
// Batches need independent additions. Instead of queueing bucket conflicts, every bucket's
// points are summed as a pairwise tree: a round adds the pairs (0,1), (2,3), … of every
// bucket at once, and a bucket with k points is done after ⌈log2 k⌉ rounds. A skewed
// bucket (circom's small scalars all land in the same few) costs as many additions as
// k − 1 mixed additions would, still batched, never serialised.
//
// Points are PointXY: x and y only, the point at infinity encoded as (0, 0), which is on
// neither curve (b ≠ 0). That is the zkey layout, so bases can be read in place.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "core/ff/montgomery.hpp"
#include "core/msm/scalars.hpp"

// x86-64 host builds (not nvcc): BN254 G1 and G2 batches go eight additions at a time
// through the AVX-512 IFMA products where the CPU has them (flush_by_eight below).
// montgomery.hpp, included first, is what defines ZKPIPE_MONT_ADX_DISPATCH: without it this
// #if would depend on the includer's order, and BucketSummer could differ between
// translation units (the ec headers include no field header).
#if defined(ZKPIPE_MONT_ADX_DISPATCH)
#include <type_traits>

#include "core/ff/bn254.hpp"
#include "core/ff/mont_ifma.hpp"
#endif

namespace zkp::msm {

template <class F>
struct PointXY {
  F x{}, y{};
  constexpr bool is_infinity() const { return x.is_zero() && y.is_zero(); }
  constexpr PointXY negated() const { return {x, -y}; }
};

namespace detail {
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

#if defined(ZKPIPE_MONT_ADX_DISPATCH)
// Eight products over F per call, out[l] = a[l]·b[l] and out[l] = a[l]² (out may alias a or
// b), for flush_by_eight: Fq's product, or the Fq2 kernels, which also run the additions of
// the Fq2 formulas on the eight lanes (done one lane at a time, those cost about as much as the
// products).
inline void mul8(bn254::Fq* out, const bn254::Fq* a, const bn254::Fq* b) { mont::ifma::mul8_bn254_fq_ifma(out, a, b); }
inline void mul8(bn254::Fq2* out, const bn254::Fq2* a, const bn254::Fq2* b) {
  mont::ifma::mul8_bn254_fq2_ifma(out, a, b);
}
inline void square8(bn254::Fq* out, const bn254::Fq* a) { mont::ifma::mul8_bn254_fq_ifma(out, a, a); }
inline void square8(bn254::Fq2* out, const bn254::Fq2* a) { mont::ifma::square8_bn254_fq2_ifma(out, a); }
#endif
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
  // Buckets are summed in groups of consecutive buckets holding about kGroupEntries entries,
  // each group to the end before the next: the survivors of a round (next_, cur_) then take
  // a bounded ≈ 2 MiB whatever the window's size, where summing all buckets at once held half
  // of a window's entries as points twice over (G2, one window of 2^20 scalars: 128 MiB per
  // worker). The sums are exact, so grouping does not change them.
  void sum(std::span<const PointXY<F>> bases, std::span<const SignedIndex> entries,
           std::span<const std::uint32_t> offsets, std::span<PointXY<F>> out) {
    // Room for the largest group's survivors up front: a bucket of k >= 3 entries keeps
    // ceil(k/2) <= 2k/3 of them, and a group holds at most kGroupEntries entries. Grown by
    // resize() from group to group instead, next_ and cur_ could each reach twice that.
    const std::size_t most = std::min(kGroupEntries, entries.size()) * 2 / 3 + 1;
    next_.reserve(most);
    cur_.reserve(most);
    std::size_t b0 = 0;
    while (b0 < out.size()) {
      // The largest b1 > b0 with offsets[b1] − offsets[b0] ≤ kGroupEntries (at least one bucket).
      const auto limit = static_cast<std::uint32_t>(std::min<std::size_t>(
          std::size_t{offsets[b0]} + kGroupEntries, std::numeric_limits<std::uint32_t>::max()));
      const auto it = std::upper_bound(offsets.begin() + static_cast<std::ptrdiff_t>(b0) + 2, offsets.end(), limit);
      const std::size_t b1 = static_cast<std::size_t>(it - offsets.begin()) - 1;
      if (offsets[b1] - offsets[b0] > kGroupEntries) {
        sum_large(bases, entries, offsets[b0], offsets[b1], out[b0]);  // b1 = b0 + 1
      } else {
        sum_group(bases, entries, offsets, out, b0, b1);
      }
      b0 = b1;
    }
  }

 private:
  // One bucket of more than kGroupEntries entries (a sparse window's few buckets, the unit
  // scalars): its pieces of kGroupEntries entries are summed as buckets of their own, then the
  // pieces' sums by the same pairwise rounds.
  void sum_large(std::span<const PointXY<F>> bases, std::span<const SignedIndex> entries, std::uint32_t begin,
                 std::uint32_t end, PointXY<F>& out) {
    pieces_.clear();
    for (std::uint32_t lo = begin; lo < end;) {
      const auto hi = static_cast<std::uint32_t>(std::min<std::size_t>(end, std::size_t{lo} + kGroupEntries));
      const std::uint32_t piece[2] = {lo, hi};
      PointXY<F> part;
      sum_group(bases, entries, piece, std::span(&part, 1), 0, 1);
      pieces_.push_back(part);
      lo = hi;
    }
    while (pieces_.size() > 1) {
      const std::size_t m = pieces_.size();
      cur_.resize((m + 1) / 2);
      for (std::size_t j = 0; j + 1 < m; j += 2) push(pieces_[j], pieces_[j + 1], &cur_[j / 2]);
      if (m % 2 != 0) cur_[m / 2] = pieces_[m - 1];
      flush();
      pieces_.assign(cur_.begin(), cur_.end());
    }
    out = pieces_.front();
  }

  // sum() for buckets [b0, b1).
  void sum_group(std::span<const PointXY<F>> bases, std::span<const SignedIndex> entries,
                 std::span<const std::uint32_t> offsets, std::span<PointXY<F>> out, std::size_t b0, std::size_t b1) {
    active_.clear();
    std::size_t next_size = 0;
    for (std::size_t b = b0; b < b1; ++b) {
      const std::size_t k = offsets[b + 1] - offsets[b];
      if (k > 2) next_size += (k + 1) / 2;
    }
    next_.resize(next_size);
    std::size_t pos = 0;
    for (std::size_t b = b0; b < b1; ++b) {
      const std::uint32_t begin = offsets[b], k = offsets[b + 1] - begin;
      const auto base = [&](std::uint32_t j) {
        // The gather of bases in bucket order is random access (bases do not fit in L2):
        // fetch ahead while the batch computes.
        if (begin + j + kPrefetch < entries.size()) __builtin_prefetch(&bases[entries[begin + j + kPrefetch] & ~kNegBit]);
        const SignedIndex e = entries[begin + j];
        const PointXY<F>& p = bases[e & ~kNegBit];
        return (e & kNegBit) != 0 ? p.negated() : p;
      };
      if (k == 0) {
        out[b] = {};
      } else if (k == 1) {
        out[b] = base(0);
      } else {
        PointXY<F>* dst = k == 2 ? &out[b] : next_.data() + pos;
        for (std::uint32_t j = 0; j + 1 < k; j += 2) push(base(j), base(j + 1), dst++);
        if (k % 2 != 0) *dst = base(k - 1);
        if (k > 2) {
          active_.push_back({static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(pos), (k + 1) / 2});
          pos += (k + 1) / 2;
        }
      }
    }
    flush();
    // Later rounds: the survivors of every still-active bucket sit contiguously in next_.
    while (!active_.empty()) {
      cur_.swap(next_);
      cur_active_.swap(active_);
      active_.clear();
      next_size = 0;
      for (const Run& r : cur_active_)
        if (r.count > 2) next_size += (r.count + 1) / 2;
      next_.resize(next_size);
      pos = 0;
      for (const Run& r : cur_active_) {
        const PointXY<F>* src = cur_.data() + r.start;
        PointXY<F>* dst = r.count == 2 ? &out[r.bucket] : next_.data() + pos;
        for (std::uint32_t j = 0; j + 1 < r.count; j += 2) push(src[j], src[j + 1], dst++);
        if (r.count % 2 != 0) *dst = src[r.count - 1];
        if (r.count > 2) {
          active_.push_back({r.bucket, static_cast<std::uint32_t>(pos), (r.count + 1) / 2});
          pos += (r.count + 1) / 2;
        }
      }
      flush();
    }
  }

  // Jobs per batch: one inversion is shared by this many additions. Sized so a batch (≈ 7
  // field elements per job: p, q, the denominator, its inverted part and prefix product)
  // stays within half of a 1 MiB L2 cache.
  static constexpr std::size_t kBatch = std::max<std::size_t>(256, (std::size_t{1} << 19) / (7 * sizeof(F)));

  // Entries per group of buckets in sum(): the round survivors of a group, about half of its
  // entries as points, take ≈ 1 MiB in next_ (and as much in cur_). A group's round 1 still
  // fills several batches (G1 7, G2 7), so the extra partial batches at the ends of its
  // rounds are few against its additions.
  static constexpr std::size_t kGroupEntries = std::max<std::size_t>(4 * kBatch, (std::size_t{1} << 21) / sizeof(PointXY<F>));

  // Entries ahead of the current one whose base is prefetched.
  static constexpr std::size_t kPrefetch = 16;

  enum class Kind : std::uint8_t { add, dbl, copy_first, copy_second, infinity };
  struct Job {
    PointXY<F> p, q;
    PointXY<F>* dst;
    Kind kind;
  };
  struct Run {
    std::uint32_t bucket, start, count;  // count ≥ 2 points at next_[start ..]
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

  void push(const PointXY<F>& p, const PointXY<F>& q, PointXY<F>* dst) {
    jobs_.push_back({p, q, dst, Kind::add});
    if (jobs_.size() == kBatch) flush();
  }

  // dst = p + q for every queued job, with one inversion. Flattened: GCC does not inline
  // the ff layer's add/sub/mul here on its own, and the calls cost ≈ 20% (perf, BN254 G1).
  [[gnu::flatten]] void flush() {
    if (jobs_.empty()) return;
#if defined(ZKPIPE_MONT_ADX_DISPATCH)
    if constexpr (std::is_same_v<F, bn254::Fq> || std::is_same_v<F, bn254::Fq2>) {
      if (by_eight_ && mont::use_ifma_kernels()) {
        flush_by_eight();
        return;
      }
    }
#endif
    prefix_.resize(jobs_.size());
    den_.resize(jobs_.size());
    part_.resize(jobs_.size());
    D acc = D::one();
    for (std::size_t t = 0; t < jobs_.size(); ++t) {
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
    for (std::size_t t = jobs_.size(); t-- > 0;) {
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
    jobs_.clear();
  }

#if defined(ZKPIPE_MONT_ADX_DISPATCH)
  // flush() for BN254 G1 and G2 with the Fq products eight at a time (mont_ifma.hpp), the
  // same sums: the k-th addition of the batch goes to lane k % 8, so the one prefix-product
  // chain of flush() becomes eight independent chains, one per lane, and every product of the
  // batch is an IFMA call per eight additions: the prefix, the two of the backward pass, λ, λ²,
  // λ·(x1 − x3) and a row's doubling numerators 3·x1²; for G2 also the norms d0² + d1² and
  // conj(d)·N⁻¹, and an Fq2 product (square) is one call of three (two) Fq products. The
  // eight lane products are inverted together (Montgomery's trick again), so it is still one
  // field inversion per batch. Inverses are exact, so the points are the ones flush()
  // computes, bit for bit.
  void flush_by_eight() {
    active_jobs_.clear();
    den_.clear();
    for (Job& j : jobs_) {
      if (j.p.is_infinity()) {
        *j.dst = j.q;
        continue;
      }
      if (j.q.is_infinity()) {
        *j.dst = j.p;
        continue;
      }
      F den = j.q.x - j.p.x;
      if (den.is_zero()) {
        if (j.p.y != j.q.y) {  // opposite points (see flush())
          *j.dst = {};
          continue;
        }
        j.kind = Kind::dbl;
        den = j.p.y.dbl();
      } else {
        j.kind = Kind::add;
      }
      active_jobs_.push_back(&j);
      den_.push_back(den);
    }
    const std::size_t n = active_jobs_.size();
    if (n == 0) {
      jobs_.clear();
      return;
    }
    using detail::mul8;
    using detail::square8;
    const std::size_t rows = (n + 7) / 8;
    den_.resize(8 * rows, F::one());  // padding lanes multiply by one
    prefix_.resize(8 * rows);
    if constexpr (kViaNorm) part_.resize(8 * rows);
    alignas(64) D acc[8], inv[8];
    std::fill(acc, acc + 8, D::one());
    for (std::size_t r = 0; r < rows; ++r) {
      std::copy(acc, acc + 8, &prefix_[8 * r]);
      if constexpr (kViaNorm) {  // the norms d0² + d1²
        alignas(64) D s0[8], s1[8];
        for (std::size_t l = 0; l < 8; ++l) {
          s0[l] = den_[8 * r + l].c0;
          s1[l] = den_[8 * r + l].c1;
        }
        square8(s0, s0);
        square8(s1, s1);
        for (std::size_t l = 0; l < 8; ++l) part_[8 * r + l] = s0[l] + s1[l];
      }
      mul8(acc, acc, part_row(r));
    }
    // inv[l] = 1/acc[l] for the eight lanes, one inversion.
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
    alignas(64) F den_inv[8], num[8], lambda[8], lambda2[8], dx[8], y3[8];
    for (std::size_t r = rows; r-- > 0;) {
      if constexpr (kViaNorm) {  // 1/d = conj(d)/N(d)
        alignas(64) D part_inv[8], c0[8], c1[8];
        mul8(part_inv, inv, &prefix_[8 * r]);  // 1/N(d) of row r
        for (std::size_t l = 0; l < 8; ++l) {
          c0[l] = den_[8 * r + l].c0;
          c1[l] = den_[8 * r + l].c1;
        }
        mul8(c0, c0, part_inv);
        mul8(c1, c1, part_inv);
        for (std::size_t l = 0; l < 8; ++l) den_inv[l] = {c0[l], -c1[l]};
      } else {
        mul8(den_inv, inv, &prefix_[8 * r]);  // 1/den of row r
      }
      mul8(inv, inv, part_row(r));  // 1/(product of rows < r)
      const std::size_t lanes = std::min<std::size_t>(8, n - 8 * r);
      bool any_dbl = false;
      for (std::size_t l = 0; l < lanes; ++l) {
        const Job& j = *active_jobs_[8 * r + l];
        if (j.kind == Kind::add) {
          num[l] = j.q.y - j.p.y;
        } else {
          num[l] = j.p.x;  // squared below
          any_dbl = true;
        }
      }
      for (std::size_t l = lanes; l < 8; ++l) num[l] = F::zero();
      if (any_dbl) {  // 3·x1² for the row's doublings (rare: equal points in one bucket)
        square8(lambda, num);
        for (std::size_t l = 0; l < lanes; ++l)
          if (active_jobs_[8 * r + l]->kind == Kind::dbl) num[l] = lambda[l].template mul_small<3>();
      }
      mul8(lambda, num, den_inv);
      square8(lambda2, lambda);
      for (std::size_t l = 0; l < lanes; ++l) {
        const Job& j = *active_jobs_[8 * r + l];
        lambda2[l] = lambda2[l] - j.p.x - j.q.x;  // x3
        dx[l] = j.p.x - lambda2[l];
      }
      for (std::size_t l = lanes; l < 8; ++l) dx[l] = F::zero();
      mul8(y3, lambda, dx);
      for (std::size_t l = 0; l < lanes; ++l) {
        const Job& j = *active_jobs_[8 * r + l];
        *j.dst = {lambda2[l], y3[l] - j.p.y};
      }
    }
    jobs_.clear();
  }
  // Row r's eight inverted parts (inverted_part): for G1 the denominators themselves, for G2
  // the norms flush_by_eight keeps in part_.
  const D* part_row(std::size_t r) const {
    if constexpr (kViaNorm) return &part_[8 * r];
    else return &den_[8 * r];
  }
  std::vector<Job*> active_jobs_;  // flush_by_eight: the jobs that add or double, in order
#endif

  bool by_eight_ = true;

  std::vector<Job> jobs_;
  std::vector<D> prefix_, part_;  // per job: the product of earlier parts, its inverted part
  std::vector<F> den_;            // per job: its denominator
  std::vector<PointXY<F>> cur_, next_;
  std::vector<PointXY<F>> pieces_;  // sum_large: the sums of a bucket's pieces
  std::vector<Run> active_, cur_active_;
};

}  // namespace zkp::msm
