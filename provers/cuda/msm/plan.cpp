#include "cuda/msm/plan.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>
#include <string>

namespace zkp::cuda::msm {

namespace {

constexpr std::size_t kMaxRefs = std::size_t{1} << 31;  // base references carry the sign in bit 31
constexpr unsigned kMinWindowBits = 2;
// Modelled costs in field products (see choose_window_bits).
constexpr double kMaddProducts = 10;
constexpr double kBucketProducts = 3.4 * 14;

unsigned copies_for(unsigned windows, unsigned precompute) { return precompute == 0 || precompute > windows ? windows : precompute; }

}  // namespace

unsigned Plan::key_bits() const { return static_cast<unsigned>(std::bit_width(sentinel_key())); }

unsigned choose_window_bits(std::size_t bases, unsigned scalar_field_bits, unsigned copies) {
  const unsigned bits = scalar_field_bits - 1;
  unsigned best = kMinWindowBits;
  double best_cost = std::numeric_limits<double>::infinity();
  for (unsigned c = kMinWindowBits; c <= kMaxWindowBits; ++c) {
    const unsigned w = window_count(bits, c);
    const unsigned f = copies_for(w, copies);
    if (static_cast<double>(bases) * f >= static_cast<double>(kMaxRefs)) continue;
    const unsigned g = (w + f - 1) / f;
    const double cost = static_cast<double>(bases) * w * kMaddProducts + double(g) * double(1u << (c - 1)) * kBucketProducts;
    if (cost < best_cost) {
      best_cost = cost;
      best = c;
    }
  }
  return best;
}

Plan make_plan(std::size_t bases, unsigned scalar_field_bits, const Config& config) {
  const unsigned c = config.window_bits != 0 ? config.window_bits
                                             : choose_window_bits(bases, scalar_field_bits, config.precompute);
  if (c < kMinWindowBits || c > kMaxWindowBits)
    throw std::invalid_argument("cuda msm: window_bits " + std::to_string(c) + " outside 2.." +
                                std::to_string(kMaxWindowBits));
  Plan p;
  p.bases = bases;
  p.scalar_bits = scalar_field_bits - 1;
  p.c = c;
  p.windows = window_count(p.scalar_bits, c);
  p.copies = copies_for(p.windows, config.precompute);
  p.groups = (p.windows + p.copies - 1) / p.copies;
  p.half = std::uint32_t{1} << (c - 1);
  p.entries = bases * p.windows;
  if (bases * p.copies >= kMaxRefs || p.entries >= kMaxRefs)
    throw std::invalid_argument("cuda msm: " + std::to_string(bases) + " bases × " + std::to_string(p.windows) +
                                " windows exceed 2^31 references");
  return p;
}

ReductionShape make_reduction_shape(const Plan& plan, std::size_t resident_threads) {
  ReductionShape r;
  const std::size_t useful = (plan.entries + kMinSegmentLen - 1) / kMinSegmentLen;
  r.segments0 = static_cast<std::uint32_t>(std::max<std::size_t>(1, std::min(resident_threads, useful)));
  if (r.segments0 > 1) {
    std::uint32_t count = 2 * r.segments0;
    for (;;) {
      PieceLevel lv;
      lv.count = count;
      lv.final = count <= kPieceLen;
      lv.len = lv.final ? count : kPieceLen;
      lv.segments = lv.final ? 1 : (count + lv.len - 1) / lv.len;
      r.levels.push_back(lv);
      if (lv.final) break;
      count = 2 * lv.segments;
    }
  }
  r.chunk_buckets = std::min(kChunkBuckets, plan.half);
  r.chunks = plan.half / r.chunk_buckets;
  return r;
}

}  // namespace zkp::cuda::msm
