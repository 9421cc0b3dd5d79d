// The device H step run on the CPU: the tile passes of cuda/ntt/tile.cuh, in the launch
// order of h_step_impl.cuh (DIF passes over the high bits top down, the fused coset pass,
// DIT passes bottom up, then the pointwise H), one "thread" per tile with the carry flag
// emulated, compared bit for bit with the CPU's odd_coset and h_evaluations. What this
// cannot check (PTX, barriers between real threads, launch shapes) cuda_device_test checks
// on a GPU (DeviceHStep).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <set>
#include <span>
#include <vector>

#include "cuda/ff/fields.cuh"
#include "cuda/ntt/ntt_plan.hpp"
#include "cuda/ntt/tile.cuh"
#include "core/bellperson/domain.hpp"
#include "core/bellperson/h_polynomial.hpp"
#include "core/groth16/h_polynomial.hpp"
#include "core/ntt/domain.hpp"
#include "core/ntt/ntt.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::cuda::ntt {
namespace {

template <class HFr>
std::vector<DeviceField<HFr>> to_device(std::span<const HFr> h) {
  std::vector<DeviceField<HFr>> d(h.size());
  std::memcpy(static_cast<void*>(d.data()), h.data(), h.size_bytes());
  return d;
}
template <class HFr>
std::vector<HFr> to_host(std::span<const DeviceField<HFr>> d) {
  std::vector<HFr> h(d.size());
  std::memcpy(static_cast<void*>(h.data()), d.data(), d.size_bytes());
  return h;
}

// The device odd-coset transform, one tile after another.
template <class HFr>
void emulated_odd_coset(std::vector<DeviceField<HFr>>& data, const NttDomain<HFr>& d) {
  using F = DeviceField<HFr>;
  const std::size_t n = d.size();
  const auto tw = to_device<HFr>(std::span<const HFr>(d.stage_twiddles(1) - 1, n));
  const auto low = to_device<HFr>(std::span<const HFr>(&d.coset_low(0), std::size_t{1} << d.coset_low_bits()));
  const auto high = to_device<HFr>(std::span<const HFr>(&d.coset_high(0), n >> d.coset_low_bits()));
  const CosetTables<F> coset{low.data(), high.data(), static_cast<std::uint32_t>(d.coset_low_bits())};
  const CosetPlan plan = make_coset_plan(static_cast<std::uint32_t>(d.log_n()));
  std::vector<F> tile(std::size_t{1} << kTileLog);
  for (std::size_t k = plan.high.size(); k-- > 0;)
    for (std::uint64_t t = 0; t < plan.high[k].tiles(); ++t) dif_pass(tile.data(), data.data(), plan.high[k], t, tw.data(), 0, 1);
  for (std::uint64_t t = 0; t < plan.fused.tiles(); ++t)
    fused_coset_pass(tile.data(), data.data(), plan.fused, t, tw.data(), coset, 0, 1);
  for (const TilePass& p : plan.high)
    for (std::uint64_t t = 0; t < p.tiles(); ++t) dit_pass(tile.data(), data.data(), p, t, tw.data(), 0, 1);
}

// The device's bellperson H (HStep::run_coset_quotient's launches): the odd-coset transform on
// the coset 7·ω^i, the quotient, then the DIF passes and the fused inverse-coset pass, which leave
// the coefficients in bit-reversed order.
template <class HFr>
void emulated_coset_quotient(std::vector<DeviceField<HFr>>& a, std::vector<DeviceField<HFr>>& b,
                             std::vector<DeviceField<HFr>>& c, const NttDomain<HFr>& d) {
  using F = DeviceField<HFr>;
  const std::size_t n = d.size();
  emulated_odd_coset<HFr>(a, d);
  emulated_odd_coset<HFr>(b, d);
  emulated_odd_coset<HFr>(c, d);
  const HFr g = d.coset_generator();
  const auto z_inv = to_device<HFr>(std::vector<HFr>{(g.pow(static_cast<std::uint64_t>(n)) - HFr::one()).inverse()});
  for (std::size_t i = 0; i < n; ++i) a[i] = quotient_value(a[i], b[i], c[i], z_inv[0]);
  const CosetFactors<HFr> inv = CosetFactors<HFr>::make(d.log_n(), g.inverse(), d.n_inv());
  const auto tw = to_device<HFr>(std::span<const HFr>(d.stage_twiddles(1) - 1, n));
  const auto low = to_device<HFr>(std::span<const HFr>(inv.low));
  const auto high = to_device<HFr>(std::span<const HFr>(inv.high));
  const CosetTables<F> coset{low.data(), high.data(), static_cast<std::uint32_t>(inv.low_bits)};
  const CosetPlan plan = make_coset_plan(static_cast<std::uint32_t>(d.log_n()));
  std::vector<F> tile(std::size_t{1} << kTileLog);
  for (std::size_t k = plan.high.size(); k-- > 0;)
    for (std::uint64_t t = 0; t < plan.high[k].tiles(); ++t) dif_pass(tile.data(), a.data(), plan.high[k], t, tw.data(), 0, 1);
  for (std::uint64_t t = 0; t < plan.fused.tiles(); ++t)
    fused_icoset_pass(tile.data(), a.data(), plan.fused, t, tw.data(), coset, 0, 1);
}

template <class HFr>
std::vector<HFr> random_vector(std::size_t n, std::mt19937_64& rng) {
  std::vector<HFr> v(n);
  for (auto& x : v) x = HFr::random(rng);
  return v;
}

template <class HFr>
class EmulatedNtt : public ::testing::Test {};
using Fields = ::testing::Types<zkp::bn254::Fr, zkp::bls12_381::Fr>;
TYPED_TEST_SUITE(EmulatedNtt, Fields);

// Sizes 2^0 … 2^19: the fused pass alone (≤ 2^10), one high pass, two high passes (2^19).
TYPED_TEST(EmulatedNtt, OddCosetMatchesCpuBitForBit) {
  using HFr = TypeParam;
  std::mt19937_64 rng(0xc05e7);
  ThreadPool pool(2);
  for (std::size_t log_n : {0, 1, 2, 3, 5, 8, 10, 11, 12, 14, 17, 18, 19}) {
    const NttDomain<HFr> d(log_n);
    std::vector<HFr> expected = random_vector<HFr>(d.size(), rng);
    auto data = to_device<HFr>(expected);
    odd_coset<HFr>(expected, d, pool);
    emulated_odd_coset<HFr>(data, d);
    EXPECT_TRUE(to_host<HFr>(data) == expected) << "log n = " << log_n;
  }
}

// The whole H step: zero padding, c = a∘b or a given c, the H combination, standard form.
TEST(EmulatedNttBellperson, CosetQuotientIsBellpersonsHInBitReversedOrder) {
  using HFr = zkp::bls12_381::Fr;
  std::mt19937_64 rng(0x4b);
  ThreadPool pool(2);
  for (std::size_t log_n : {2, 5, 11, 13}) {  // 13: past the fused pass, two high passes
    const NttDomain<HFr> d = bellperson::make_domain(log_n);
    const std::size_t n = d.size(), count = n - n / 8;
    auto a = random_vector<HFr>(count, rng), b = random_vector<HFr>(count, rng);
    std::vector<HFr> c(count);
    for (std::size_t i = 0; i < count; ++i) c[i] = a[i] * b[i];
    std::vector<HFr> ea = a, eb = b, ec = c;
    bellperson::h_coefficients_in_place<HFr>(ea, eb, ec, d, pool);  // m − 1 coefficients, natural order
    a.resize(n);
    b.resize(n);
    c.resize(n);
    auto da = to_device<HFr>(a), db = to_device<HFr>(b), dc = to_device<HFr>(c);
    emulated_coset_quotient<HFr>(da, db, dc, d);
    const auto got = to_host<HFr>(da);
    for (std::size_t pos = 0; pos < n; ++pos) {
      const std::size_t i = bit_reverse(pos, log_n);
      if (i == n - 1) {
        EXPECT_EQ(pos, n - 1);  // the dropped coefficient sits last, where the MSM stops
        continue;
      }
      ASSERT_EQ(got[pos], ea[i]) << "log n = " << log_n << ", position " << pos;
    }
  }
}

TYPED_TEST(EmulatedNtt, HStepMatchesHEvaluations) {
  using HFr = TypeParam;
  using F = DeviceField<HFr>;
  std::mt19937_64 rng(0x4a);
  ThreadPool pool(2);
  for (std::size_t log_n : {1, 4, 11, 13}) {
    const NttDomain<HFr> d(log_n);
    const std::size_t n = d.size(), count = n - n / 4;
    for (bool given_c : {false, true}) {
      const auto a = random_vector<HFr>(count, rng), b = random_vector<HFr>(count, rng);
      const auto c = given_c ? random_vector<HFr>(count, rng) : std::vector<HFr>{};
      const auto expected = groth16::h_evaluations<HFr>(a, b, c, d, pool);

      std::vector<HFr> pa(a), pb(b), pc(c);
      pa.resize(n);
      pb.resize(n);
      if (!given_c) {
        pc.resize(n);
        for (std::size_t i = 0; i < n; ++i) pc[i] = pa[i] * pb[i];
      }
      pc.resize(n);
      auto da = to_device<HFr>(pa), db = to_device<HFr>(pb), dc = to_device<HFr>(pc);
      emulated_odd_coset<HFr>(da, d);
      emulated_odd_coset<HFr>(db, d);
      emulated_odd_coset<HFr>(dc, d);
      std::vector<F> mont(n), standard(n);
      for (std::size_t i = 0; i < n; ++i) {
        mont[i] = h_value(da[i], db[i], dc[i], false);
        standard[i] = h_value(da[i], db[i], dc[i], true);
      }
      EXPECT_TRUE(to_host<HFr>(mont) == expected) << "log n = " << log_n << ", c " << (given_c ? "given" : "= a∘b");
      const auto std_host = to_host<HFr>(standard);
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_EQ(std_host[i].mont(), expected[i].to_bigint()) << "standard form, i = " << i;
      }
    }
  }
}

TYPED_TEST(EmulatedNtt, ToStandardMatchesHost) {
  using HFr = TypeParam;
  std::mt19937_64 rng(0x5);
  auto v = random_vector<HFr>(100, rng);
  v[0] = HFr::zero();
  v[1] = HFr::one();
  v[2] = -HFr::one();
  for (const HFr& x : v) {
    const auto s = to_standard(DeviceField<HFr>::from_host(x)).to_host();
    EXPECT_EQ(s.mont(), x.to_bigint());
  }
}

// Every plan covers each stage bit exactly once, full tiles above 2^10, columns below the
// stage bits, and a tile count that divides the array.
TEST(NttPlan, PassesCoverEveryBitOnce) {
  for (std::uint32_t log_n = 0; log_n <= 32; ++log_n) {
    const CosetPlan p = make_coset_plan(log_n);
    std::multiset<std::uint32_t> bits;
    EXPECT_EQ(p.fused.lo, 0u);
    EXPECT_EQ(p.fused.cols, 0u);
    EXPECT_EQ(p.fused.rows, std::min<std::uint32_t>(log_n, kTileLog));
    for (std::uint32_t b = 0; b < p.fused.rows; ++b) bits.insert(b);
    std::uint32_t lo = p.fused.rows;
    for (const TilePass& h : p.high) {
      EXPECT_EQ(h.lo, lo) << "passes ascend contiguously";
      EXPECT_GE(h.rows, 1u);
      EXPECT_LE(h.rows, kMaxRowLog);
      EXPECT_EQ(h.tile_log(), kTileLog);
      EXPECT_LE(h.cols, h.lo);
      EXPECT_EQ(h.tiles() << kTileLog, std::size_t{1} << log_n);
      for (std::uint32_t b = h.lo; b < h.lo + h.rows; ++b) bits.insert(b);
      lo += h.rows;
    }
    EXPECT_EQ(lo, log_n);
    EXPECT_EQ(bits.size(), log_n);
    EXPECT_EQ(std::set<std::uint32_t>(bits.begin(), bits.end()).size(), log_n);
    EXPECT_LE(tile_threads(p.fused), kTileThreads);
  }
  EXPECT_EQ(make_coset_plan(24).high.size(), 2u);
  EXPECT_EQ(make_coset_plan(18).high.size(), 1u);
}

// tile_index is a bijection onto [0, n) for every pass of a mid-size plan.
TEST(NttPlan, TileIndexIsABijection) {
  for (std::uint32_t log_n : {3u, 12u, 19u}) {
    const CosetPlan p = make_coset_plan(log_n);
    std::vector<TilePass> passes(p.high);
    passes.push_back(p.fused);
    for (const TilePass& pass : passes) {
      std::vector<bool> seen(std::size_t{1} << log_n, false);
      for (std::uint64_t t = 0; t < pass.tiles(); ++t)
        for (std::uint32_t e = 0; e < (1u << pass.tile_log()); ++e) {
          const std::uint64_t i = tile_index(pass, t, e);
          ASSERT_LT(i, seen.size());
          ASSERT_FALSE(seen[i]) << "index " << i << " twice, log n = " << log_n << ", lo = " << pass.lo;
          seen[i] = true;
        }
    }
  }
}

}  // namespace
}  // namespace zkp::cuda::ntt
