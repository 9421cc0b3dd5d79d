// Scalar preparation for the MSM: decoding, sign folding, classification and the
// signed-digit windows that Pippenger's buckets are indexed by.
//
// Input scalars are the raw witness: 32-byte little-endian integers in standard form.
// A circom witness is dominated by 0 and 1 (bit decompositions, selectors, flags) and has
// many small negative values r − k. Each scalar s (reduced mod r) becomes one of
//   zero        → skipped;
//   ±1          → its base is added to (or subtracted from) one running sum, no bucket work;
//   otherwise   → (base, ±s') with s' = min(s, r − s) ≤ (r − 1)/2, so r − k costs like k.
// Folding the sign into the base costs one negated y-coordinate, and it bounds every
// scalar by 2^(b−1) for a b-bit r, which is what the window count below is sized for.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/ff/bigint.hpp"
#include "core/msm/parallel.hpp"
#include "core/util/uninitialized_allocator.hpp"

namespace zkp::msm {

using ScalarInt = BigInt<4>;
inline constexpr std::size_t kScalarBytes = ScalarInt::kBytes;  // 32, for both curves' r

// A reference to base i with a sign: bit 31 set means −P_i. Limits an MSM to 2^31 bases.
using SignedIndex = std::uint32_t;
inline constexpr SignedIndex kNegBit = SignedIndex{1} << 31;
inline constexpr std::size_t kMaxBases = kNegBit;

// The vectors leave new elements unwritten: plan_scalars allocates them at their sizes and
// writes every element in its parallel pass, so their pages are first touched there, on all
// threads, not zero-filled by one thread before (36 bytes a scalar: 13 ms of one thread per
// MSM at 2^20, a serial stretch in every MSM of a proof).
struct ScalarPlan {
  UninitializedVector<SignedIndex> units;    // scalars ±1
  UninitializedVector<SignedIndex> index;    // the other non-zero scalars: their base, sign folded in
  UninitializedVector<ScalarInt> magnitude;  // ... and min(s, r − s), parallel to `index`
  std::size_t max_bits = 0;     // bit length of the largest magnitude
};

// One scalar's class (what plan_scalars files it under).
struct ScalarClass {
  enum Kind { zero, unit, other } kind = zero;
  SignedIndex ref = 0;  // the base and the sign (unit, other)
  ScalarInt magnitude;  // min(s, r − s) (other)
};

// The bounds a scalar is classified against, for one r.
struct ScalarBounds {
  ScalarInt r, half, one, minus_one;  // half = (r − 1)/2: magnitudes above it are folded to r − s
  explicit ScalarBounds(const ScalarInt& modulus) : r(modulus), half(modulus), one(ScalarInt::from_u64(1)), minus_one(modulus) {
    half.shr1();
    minus_one.sub_in_place(one);
  }
};

inline ScalarClass classify_scalar(const std::uint8_t* bytes, std::size_t i, const ScalarBounds& b, bool skip) {
  ScalarClass out;
  ScalarInt s;
  std::memcpy(s.limbs.data(), bytes, kScalarBytes);
  if (s.is_zero()) return out;
  while (s >= b.r) s.sub_in_place(b.r);  // at most ⌊2^256/r⌋ = 5 rounds (BN254)
  if (s.is_zero() || skip) return out;
  const auto idx = static_cast<SignedIndex>(i);
  if (s == b.one || s == b.minus_one) {
    out.kind = ScalarClass::unit;
    out.ref = s == b.one ? idx : idx | kNegBit;
    return out;
  }
  out.kind = ScalarClass::other;
  out.ref = idx;
  if (s > b.half) {
    ScalarInt t = b.r;
    t.sub_in_place(s);
    s = t;
    out.ref |= kNegBit;
  }
  out.magnitude = s;
  return out;
}

// Scalars per classification task: large enough that a task's bookkeeping is noise.
inline constexpr std::size_t kPlanChunk = std::size_t{1} << 14;

// Classifies n = scalars.size() / 32 scalars; base i is skipped when skip_base(i) (a point
// at infinity; called from several threads at once). Scalars ≥ r are reduced mod r (any
// 256-bit value is accepted). On `pool` (or `threads` threads started here) in chunks of
// kPlanChunk: a pass that counts each chunk's classes, then one that writes them at their
// places, so the plan is in scalar order whatever the thread count, and its vectors are
// allocated once at their exact sizes.
template <class SkipBase>
ScalarPlan plan_scalars(std::span<const std::uint8_t> scalars, const ScalarInt& r, SkipBase&& skip_base,
                        ThreadPool* pool = nullptr, std::size_t threads = 1) {
  static_assert(std::endian::native == std::endian::little, "scalars are read as little-endian limbs");
  if (scalars.size() % kScalarBytes != 0) throw std::invalid_argument("msm: scalar bytes not a multiple of 32");
  const std::size_t n = scalars.size() / kScalarBytes;
  if (n > kMaxBases) throw std::invalid_argument("msm: more than 2^31 bases");
  const ScalarBounds bounds(r);
  const std::size_t chunks = (n + kPlanChunk - 1) / kPlanChunk;
  struct Counts {
    std::size_t units = 0, others = 0, max_bits = 0;
  };
  std::vector<Counts> counts(chunks);
  const auto classify = [&](std::size_t i) {
    return classify_scalar(scalars.data() + i * kScalarBytes, i, bounds, skip_base(i));
  };
  parallel_for(pool, threads, chunks, [&](std::size_t k, std::size_t) {
    Counts& c = counts[k];
    for (std::size_t i = k * kPlanChunk, end = std::min(n, i + kPlanChunk); i < end; ++i) {
      const ScalarClass sc = classify(i);
      if (sc.kind == ScalarClass::unit) ++c.units;
      if (sc.kind == ScalarClass::other) {
        ++c.others;
        c.max_bits = std::max(c.max_bits, sc.magnitude.num_bits());
      }
    }
  });
  ScalarPlan plan;
  std::vector<std::size_t> unit_at(chunks), other_at(chunks);
  std::size_t units = 0, others = 0;
  for (std::size_t k = 0; k < chunks; ++k) {
    unit_at[k] = units;
    other_at[k] = others;
    units += counts[k].units;
    others += counts[k].others;
    plan.max_bits = std::max(plan.max_bits, counts[k].max_bits);
  }
  plan.units.resize(units);
  plan.index.resize(others);
  plan.magnitude.resize(others);
  parallel_for(pool, threads, chunks, [&](std::size_t k, std::size_t) {
    std::size_t u = unit_at[k], o = other_at[k];
    for (std::size_t i = k * kPlanChunk, end = std::min(n, i + kPlanChunk); i < end; ++i) {
      const ScalarClass sc = classify(i);
      if (sc.kind == ScalarClass::unit) plan.units[u++] = sc.ref;
      if (sc.kind == ScalarClass::other) {
        plan.index[o] = sc.ref;
        plan.magnitude[o++] = sc.magnitude;
      }
    }
  });
  return plan;
}

// Number of c-bit windows for magnitudes of at most `bits` bits: the signed digits below
// can carry one unit out of the top window, hence bits + 1.
constexpr std::size_t window_count(std::size_t bits, unsigned c) { return bits == 0 ? 0 : (bits + c) / c; }

// Digit w of the balanced base-2^c expansion s = Σ d_w·2^(wc), d_w ∈ (−2^(c−1), 2^(c−1)]:
// a window whose value (plus the carry from below) exceeds 2^(c−1) becomes negative and
// carries one into the next. So |d_w| ≤ 2^(c−1) and a window needs 2^(c−1) buckets.
//
// Computed for one window without walking up from window 0: the carry into window w is 1
// exactly when s mod 2^(wc) exceeds the number whose windows all equal 2^(c−1), and that
// comparison is decided by the highest lower window that differs from 2^(c−1) (almost
// always window w − 1).
inline std::int32_t signed_digit(const ScalarInt& s, std::size_t w, unsigned c) {
  const std::uint64_t half = std::uint64_t{1} << (c - 1);
  std::uint64_t carry = 0;
  for (std::size_t j = w; j-- > 0;) {
    const std::uint64_t v = s.bits(j * c, c);
    if (v != half) {
      carry = v > half ? 1 : 0;
      break;
    }
  }
  const auto d = static_cast<std::int64_t>(s.bits(w * c, c) + carry);
  return static_cast<std::int32_t>(d > static_cast<std::int64_t>(half) ? d - (std::int64_t{1} << c) : d);
}

}  // namespace zkp::msm
