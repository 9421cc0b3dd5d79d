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

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <vector>

#include "core/ff/bigint.hpp"

namespace zkp::msm {

using ScalarInt = BigInt<4>;
inline constexpr std::size_t kScalarBytes = ScalarInt::kBytes;  // 32, for both curves' r

// A reference to base i with a sign: bit 31 set means −P_i. Limits an MSM to 2^31 bases.
using SignedIndex = std::uint32_t;
inline constexpr SignedIndex kNegBit = SignedIndex{1} << 31;
inline constexpr std::size_t kMaxBases = kNegBit;

struct ScalarPlan {
  std::vector<SignedIndex> units;       // scalars ±1
  std::vector<SignedIndex> index;       // the other non-zero scalars: their base, sign folded in
  std::vector<ScalarInt> magnitude;     // ... and min(s, r − s), parallel to `index`
  std::size_t max_bits = 0;             // bit length of the largest magnitude
};

// Classifies n = scalars.size() / 32 scalars; base i is skipped when skip_base(i) (a point
// at infinity). Scalars ≥ r are reduced mod r (any 256-bit value is accepted).
template <class SkipBase>
ScalarPlan plan_scalars(std::span<const std::uint8_t> scalars, const ScalarInt& r, SkipBase&& skip_base) {
  static_assert(std::endian::native == std::endian::little, "scalars are read as little-endian limbs");
  if (scalars.size() % kScalarBytes != 0) throw std::invalid_argument("msm: scalar bytes not a multiple of 32");
  const std::size_t n = scalars.size() / kScalarBytes;
  if (n > kMaxBases) throw std::invalid_argument("msm: more than 2^31 bases");
  ScalarInt half = r;  // (r − 1)/2: magnitudes above it are folded to r − s
  half.shr1();
  ScalarInt one = ScalarInt::from_u64(1);
  ScalarInt minus_one = r;
  minus_one.sub_in_place(one);

  ScalarPlan plan;
  std::size_t max_bits = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ScalarInt s;
    std::memcpy(s.limbs.data(), scalars.data() + i * kScalarBytes, kScalarBytes);
    if (s.is_zero()) continue;
    while (s >= r) s.sub_in_place(r);  // at most ⌊2^256/r⌋ = 5 rounds (BN254)
    if (s.is_zero() || skip_base(i)) continue;
    const auto idx = static_cast<SignedIndex>(i);
    if (s == one || s == minus_one) {
      plan.units.push_back(s == one ? idx : idx | kNegBit);
      continue;
    }
    SignedIndex ref = idx;
    if (s > half) {
      ScalarInt t = r;
      t.sub_in_place(s);
      s = t;
      ref |= kNegBit;
    }
    max_bits = std::max(max_bits, s.num_bits());
    plan.index.push_back(ref);
    plan.magnitude.push_back(s);
  }
  plan.max_bits = max_bits;
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
