// The device MSM pipeline run on the CPU: the same per-thread functions the kernels wrap
// (digits, level-0 accumulation, piece levels, bucket chunks, pairwise tree, precomputed
// copies), with the carry flag emulated (cuda/ff/ptx.cuh), the same plan and reduction
// shape (cuda/msm/plan.hpp), a stable sort where the GPU runs CUB's (stable) radix sort, and
// the same final combination, compared with the CPU MSM. Small "resident thread" counts
// force several piece levels. What this cannot check (PTX, launch shapes, CUB, the warp
// count) is checked by cuda_device_test on a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>
#include <random>
#include <span>
#include <vector>

#include "cuda/ec/curves.cuh"
#include "cuda/msm/accumulate.cuh"
#include "cuda/msm/bucket_sum.cuh"
#include "cuda/msm/combine.hpp"
#include "cuda/msm/digits.cuh"
#include "cuda/msm/plan.hpp"
#include "cuda/msm/precompute.cuh"
#include "cuda/msm/trivial.cuh"
#include "core/ec/batch_normalize.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/msm/msm.hpp"
#include "core/msm/scalars.hpp"

namespace zkp::cuda::msm {
namespace {

using zkp::msm::kScalarBytes;
template <CurveParams C>
using Base = zkp::msm::Base<C>;

inline constexpr std::uint32_t kPoisonKey = 0xdeadbeef;  // piece slots must all be written

// The device pipeline of msm_impl.cuh, one thread after another.
template <CurveParams C>
zkp::Affine<C> emulated_msm(std::span<const Base<C>> bases, std::span<const std::uint8_t> scalars, const Config& config,
                            std::size_t resident) {
  using DX = Xyzz<C>;
  using DP = PointXY<C>;
  using Fr = DeviceField<typename C::Scalar>;
  const std::size_t N = bases.size(), n = scalars.size() / kScalarBytes;
  const Plan plan = make_plan(N, static_cast<unsigned>(C::Scalar::kBits), config);
  const ReductionShape shape = make_reduction_shape(plan, resident);

  std::vector<DP> table(N * plan.copies);
  std::memcpy(static_cast<void*>(table.data()), bases.data(), bases.size_bytes());
  if (plan.copies > 1)
    for (std::uint32_t i = 0; i < N; ++i) precompute_base<C>(i, table.data(), static_cast<std::uint32_t>(N), plan.c, plan.copies);

  const auto load = [&scalars](std::uint32_t i, ScalarLimbs& raw) {
    std::memcpy(raw, scalars.data() + std::size_t{i} * kScalarBytes, kScalarBytes);
  };
  // The compacted path (msm/trivial.cuh): the general scalars' indices, and the ±1 sum over
  // `resident` strided threads and a pairwise tree.
  const bool compact = n >= config.compact_from;
  std::vector<std::uint32_t> selected;
  DX unit_sum = DX::identity();
  if (compact) {
    for (std::uint32_t i = 0; i < n; ++i) {
      ScalarLimbs raw;
      load(i, raw);
      if (classify_scalar<Fr>(raw) == ScalarClass::general) selected.push_back(i);
    }
    const auto threads = static_cast<std::uint32_t>(resident);
    std::vector<DX> partials(threads);
    for (std::uint32_t t = 0; t < threads; ++t)
      partials[t] = unit_sum_stride<C, Fr>(t, threads, static_cast<std::uint32_t>(n), load, table.data());
    for (std::uint32_t width = threads; width > 1; width = (width + 1) / 2) {
      std::vector<DX> next((width + 1) / 2);
      for (std::uint32_t id = 0; id < next.size(); ++id) next[id] = pairwise_sum<C>(id, partials.data(), width);
      partials.swap(next);
    }
    unit_sum = partials[0];
  } else {
    selected.resize(n);
    std::iota(selected.begin(), selected.end(), 0u);
  }
  const std::size_t items = selected.size() * plan.windows;
  std::vector<std::uint32_t> keys(items), refs(items);
  std::uint32_t m = 0;
  const DigitShape digits = digit_shape(plan, selected.size());
  for (std::uint32_t j = 0; j < selected.size(); ++j) {
    ScalarLimbs raw;
    load(selected[j], raw);
    m += signed_digits<Fr>(j, selected[j], raw, digits, keys.data(), refs.data());
  }
  std::vector<std::uint32_t> order(items);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  std::vector<std::uint32_t> sorted_keys(items), sorted_refs(items);
  for (std::size_t k = 0; k < items; ++k) {
    sorted_keys[k] = keys[order[k]];
    sorted_refs[k] = refs[order[k]];
  }

  std::vector<DX> buckets(plan.buckets(), DX::identity());
  const auto sink = [&](std::vector<std::uint32_t>& pk, std::vector<DX>& pp, bool final) {
    return RunSink<C>{buckets.data(), static_cast<std::uint32_t>(plan.buckets()), pk.data(), pp.data(), final};
  };
  std::vector<std::uint32_t> piece_keys(2 * shape.segments0, kPoisonKey);
  std::vector<DX> pieces(2 * shape.segments0);
  for (std::uint32_t seg = 0; seg < shape.segments0; ++seg)
    accumulate_segment<C>(seg, shape.segments0, m, sorted_keys.data(), sorted_refs.data(), table.data(),
                          sink(piece_keys, pieces, shape.levels.empty()));
  for (const PieceLevel& lv : shape.levels) {
    std::vector<std::uint32_t> next_keys(lv.final ? 0 : 2 * lv.segments, kPoisonKey);
    std::vector<DX> next(lv.final ? 0 : 2 * lv.segments);
    for (std::uint32_t seg = 0; seg < lv.segments; ++seg)
      reduce_pieces_segment<C>(seg, piece_keys.data(), pieces.data(), lv.count, lv.len, sink(next_keys, next, lv.final));
    piece_keys.swap(next_keys);
    pieces.swap(next);
  }
  if (compact) buckets[0] = buckets[0] + unit_sum;

  std::vector<DX> tree(std::size_t{plan.groups} * shape.chunks);
  for (std::uint32_t id = 0; id < tree.size(); ++id)
    tree[id] = bucket_chunk_sum<C>(id, buckets.data(), plan.half, shape.chunk_buckets, shape.chunks);
  for (std::uint32_t width = shape.chunks; width > 1; width = (width + 1) / 2) {
    std::vector<DX> next(std::size_t{plan.groups} * ((width + 1) / 2));
    for (std::uint32_t id = 0; id < next.size(); ++id) next[id] = pairwise_sum<C>(id, tree.data(), width);
    tree.swap(next);
  }
  std::vector<zkp::Xyzz<C>> sums(plan.groups);
  for (std::size_t g = 0; g < sums.size(); ++g) sums[g] = to_host<C>(tree[g]);
  return combine_groups<C>(sums, plan.c * plan.copies);
}

template <CurveParams C>
std::vector<Base<C>> random_bases(std::size_t n, std::mt19937_64& rng) {
  std::vector<zkp::Jacobian<C>> walk(n);
  const auto step = scalar_mul(zkp::Jacobian<C>::generator(), C::Scalar::random(rng).to_bigint());
  zkp::Jacobian<C> p = scalar_mul(zkp::Jacobian<C>::generator(), C::Scalar::random(rng).to_bigint());
  for (auto& w : walk) w = p += (rng() & 1) ? step : p;  // mixes additions and doublings
  std::vector<zkp::Affine<C>> affine(n);
  batch_to_affine<C>(walk, affine);
  std::vector<Base<C>> bases(n);
  for (std::size_t i = 0; i < n; ++i) bases[i] = {affine[i].x, affine[i].y};
  return bases;
}

std::vector<std::uint8_t> random_scalars(std::size_t n, std::mt19937_64& rng, bool zero_one) {
  std::vector<std::uint8_t> s(n * kScalarBytes, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (zero_one) s[i * kScalarBytes] = static_cast<std::uint8_t>(rng() & 1);
    else
      for (std::size_t b = 0; b < kScalarBytes; ++b) s[i * kScalarBytes + b] = static_cast<std::uint8_t>(rng());
  }
  return s;
}

template <CurveParams C>
zkp::Affine<C> cpu_msm(std::span<const Base<C>> bases, std::span<const std::uint8_t> scalars) {
  return zkp::msm::msm<C>(bases.first(scalars.size() / kScalarBytes), scalars);
}

template <CurveParams C>
class EmulatedMsm : public ::testing::Test {};
using G1Curves = ::testing::Types<zkp::bn254::G1, zkp::bls12_381::G1>;
TYPED_TEST_SUITE(EmulatedMsm, G1Curves);

TYPED_TEST(EmulatedMsm, RandomAndZeroOneScalarsMatchCpu) {
  using C = TypeParam;
  std::mt19937_64 rng(0xe1);
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{100}, std::size_t{1000}}) {
    const auto bases = random_bases<C>(n, rng);
    for (bool zero_one : {false, true}) {
      const auto scalars = random_scalars(n, rng, zero_one);
      const auto expected = cpu_msm<C>(bases, scalars);
      for (std::size_t resident : {std::size_t{1}, std::size_t{5}, std::size_t{64}, std::size_t{1000}})
        EXPECT_EQ(emulated_msm<C>(bases, scalars, Config{}, resident), expected)
            << "n = " << n << (zero_one ? ", 0/1" : ", random") << ", resident " << resident;
    }
  }
}

// The compacted path: 0, 1 and r − 1 (−1 after the sign fold) out of the sort, the rest
// through it; a base at infinity with scalar 1; every scalar trivial; none trivial.
TYPED_TEST(EmulatedMsm, CompactedPathMatchesCpu) {
  using C = TypeParam;
  using zkp::msm::ScalarInt;
  std::mt19937_64 rng(0xe4);
  const std::size_t n = 96;
  auto bases = random_bases<C>(n, rng);
  bases[5] = Base<C>{};
  ScalarInt r_minus_1 = C::Scalar::kModulus, r_plus_1 = C::Scalar::kModulus;
  r_minus_1.limbs[0] -= 1;
  r_plus_1.limbs[0] += 1;  // ≡ 1 after the reduction mod r
  const auto put = [](std::vector<std::uint8_t>& s, std::size_t i, const ScalarInt& v) {
    v.to_le_bytes(std::span<std::uint8_t, kScalarBytes>(s.data() + i * kScalarBytes, kScalarBytes));
  };
  auto mixed = random_scalars(n, rng, false);
  for (std::size_t i = 0; i < n; ++i) {
    const auto pick = rng() % 10;
    if (pick < 3) put(mixed, i, ScalarInt::from_u64(0));
    else if (pick < 6) put(mixed, i, ScalarInt::from_u64(1));
    else if (pick < 8) put(mixed, i, rng() & 1 ? r_minus_1 : r_plus_1);
  }
  put(mixed, 5, ScalarInt::from_u64(1));
  std::vector<std::uint8_t> all_trivial(n * kScalarBytes, 0);
  for (std::size_t i = 0; i < n; ++i) put(all_trivial, i, i % 3 == 0 ? r_minus_1 : ScalarInt::from_u64(i % 3 == 1));
  const auto general = random_scalars(n, rng, false);
  const std::vector<std::uint8_t>* inputs[] = {&mixed, &all_trivial, &general};
  for (const std::vector<std::uint8_t>* scalars : inputs) {
    const auto expected = cpu_msm<C>(bases, *scalars);
    for (Config config : {Config{}, Config{8, 0}}) {
      config.compact_from = 1;
      for (std::size_t resident : {std::size_t{1}, std::size_t{7}})
        EXPECT_EQ(emulated_msm<C>(bases, *scalars, config, resident), expected)
            << "c = " << config.window_bits << ", F = " << config.precompute << ", resident " << resident;
    }
  }
}

TYPED_TEST(EmulatedMsm, PlanShapesMatchCpu) {
  using C = TypeParam;
  std::mt19937_64 rng(0xe2);
  const std::size_t n = 64;
  const auto bases = random_bases<C>(n, rng);
  const auto scalars = random_scalars(n, rng, false);
  const auto expected = cpu_msm<C>(bases, scalars);
  for (const Config& config : {Config{13, 0}, Config{10, 3}, Config{3, 1}, Config{2, 1}, Config{16, 1}})
    EXPECT_EQ(emulated_msm<C>(bases, scalars, config, 9), expected) << "c = " << config.window_bits << ", F = " << config.precompute;
}

// Repeated and cancelling bases, a base at infinity, scalars at and around r and the
// folding threshold, all scalars equal (one bucket per window holds every base).
TYPED_TEST(EmulatedMsm, EdgeInputsMatchCpu) {
  using C = TypeParam;
  using zkp::msm::ScalarInt;
  std::mt19937_64 rng(0xe3);
  const std::size_t n = 40;
  auto bases = random_bases<C>(n, rng);
  bases[7] = bases[3];
  bases[8] = {bases[3].x, -bases[3].y};
  bases[9] = Base<C>{};
  auto scalars = random_scalars(n, rng, false);
  const ScalarInt r = C::Scalar::kModulus;
  ScalarInt half = r, r_minus_1 = r, r_plus_1 = r, half_plus_1 = r;
  half.shr1();
  half_plus_1 = half;
  half_plus_1.limbs[0] += 1;  // half is odd: no carry
  r_minus_1.limbs[0] -= 1;     // r is odd: no borrow
  r_plus_1.limbs[0] += 1;      // low limb of r is not all ones: no carry
  ScalarInt all_ones;
  for (auto& l : all_ones.limbs) l = ~std::uint64_t{0};
  const std::array<ScalarInt, 10> edge{r_minus_1, r, r_plus_1, ScalarInt::from_u64(5), all_ones, half, half_plus_1,
                                       ScalarInt::from_u64(5), ScalarInt::from_u64(5), ScalarInt::from_u64(1)};
  for (std::size_t i = 0; i < edge.size(); ++i)
    edge[i].to_le_bytes(std::span<std::uint8_t, kScalarBytes>(scalars.data() + i * kScalarBytes, kScalarBytes));
  std::vector<std::uint8_t> same(n * kScalarBytes);
  for (std::size_t i = 0; i < n; ++i)
    ScalarInt::from_u64(0x1234567).to_le_bytes(std::span<std::uint8_t, kScalarBytes>(same.data() + i * kScalarBytes, kScalarBytes));
  for (const Config& config : {Config{}, Config{8, 0}}) {
    EXPECT_EQ(emulated_msm<C>(bases, scalars, config, 4), cpu_msm<C>(bases, scalars)) << "edge, F = " << config.precompute;
    EXPECT_EQ(emulated_msm<C>(bases, same, config, 4), cpu_msm<C>(bases, same)) << "equal, F = " << config.precompute;
    EXPECT_TRUE(emulated_msm<C>(bases, std::vector<std::uint8_t>(n * kScalarBytes, 0), config, 4).is_identity());
  }
}

// The table itself: copy f of base i is 2^(c·f)·P_i, over batches of kPrecomputeBatch copies
// sharing one inversion (37 copies: two full batches and a partial one), with a base at infinity.
template <CurveParams C>
class Precompute : public ::testing::Test {};
using AllCurves = ::testing::Types<zkp::bn254::G1, zkp::bn254::G2, zkp::bls12_381::G1, zkp::bls12_381::G2>;
TYPED_TEST_SUITE(Precompute, AllCurves);

TYPED_TEST(Precompute, CopiesAreTheBasesDoubled) {
  using C = TypeParam;
  std::mt19937_64 rng(0xe4);
  const std::uint32_t n = 6, c = 5, copies = 2 * kPrecomputeBatch + 5;
  auto bases = random_bases<C>(n, rng);
  bases[4] = Base<C>{};
  std::vector<PointXY<C>> table(std::size_t{n} * copies);
  std::memcpy(static_cast<void*>(table.data()), bases.data(), n * sizeof(Base<C>));
  for (std::uint32_t i = 0; i < n; ++i) precompute_base<C>(i, table.data(), n, c, copies);
  for (std::uint32_t i = 0; i < n; ++i) {
    zkp::Jacobian<C> p = bases[i].x.is_zero() && bases[i].y.is_zero()
                             ? zkp::Jacobian<C>::identity()
                             : zkp::Jacobian<C>::from_affine(zkp::Affine<C>{bases[i].x, bases[i].y, false});
    for (std::uint32_t f = 1; f < copies; ++f) {
      for (std::uint32_t k = 0; k < c; ++k) p = p.dbl();
      Base<C> got;  // the device layout is the host's (the table started as a memcpy of the bases)
      std::memcpy(static_cast<void*>(&got), &table[std::size_t{f} * n + i], sizeof got);
      const zkp::Affine<C> want = p.to_affine();
      const Base<C> want_xy = want.infinity ? Base<C>{} : Base<C>{want.x, want.y};
      EXPECT_TRUE(got.x == want_xy.x && got.y == want_xy.y) << "base " << i << " copy " << f;
    }
  }
}

TEST(ReductionShape, LevelsShrinkToOneFinalSegment) {
  const Plan plan = make_plan(std::size_t{1} << 20, 254, Config{16, 1});
  const ReductionShape s = make_reduction_shape(plan, 33792);
  EXPECT_EQ(s.segments0, 33792u);
  ASSERT_FALSE(s.levels.empty());
  EXPECT_EQ(s.levels.front().count, 2 * 33792u);
  for (std::size_t k = 1; k < s.levels.size(); ++k) EXPECT_EQ(s.levels[k].count, 2 * s.levels[k - 1].segments);
  EXPECT_TRUE(s.levels.back().final);
  EXPECT_EQ(s.levels.back().segments, 1u);
  EXPECT_LE(s.levels.back().count, kPieceLen);
  EXPECT_EQ(s.chunk_buckets * s.chunks, plan.half);
  EXPECT_TRUE(make_reduction_shape(plan, 1).levels.empty());  // one resident thread: level 0 is final
  // Few entries: segments of at least kMinSegmentLen.
  const Plan tiny = make_plan(3, 254, Config{16, 1});
  EXPECT_EQ(make_reduction_shape(tiny, 1000).segments0, (tiny.entries + kMinSegmentLen - 1) / kMinSegmentLen);
}

}  // namespace
}  // namespace zkp::cuda::msm
