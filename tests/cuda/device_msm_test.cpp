// The device MSM against the CPU MSM (provers/core/msm, itself checked against naive sums
// and discrete logs in tests/core_msm), for random scalars and for the 0/1 scalars that
// dominate circom witnesses, at several sizes and plans; and against naive sums for tiny n.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "cuda/msm/msm.hpp"
#include "cuda/msm/scratch_layout.hpp"
#include "cuda/msm/workspace.hpp"
#include "cuda/util/buffers.hpp"
#include "cuda/util/stream.hpp"
#include "device_test_support.hpp"
#include "core/ec/batch_normalize.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/msm/msm.hpp"
#include "core/msm/scalars.hpp"

namespace zkp::cuda::test {
namespace {

using zkp::msm::kScalarBytes;
using zkp::msm::ScalarInt;

template <CurveParams C>
using Base = zkp::msm::Base<C>;

// n bases on a random walk P_i = P_{i−1} + T_j over 16 random steps: one addition per
// base instead of a scalar multiplication (the same construction as tests/core_msm).
template <CurveParams C>
std::vector<Base<C>> random_bases(std::size_t n, std::mt19937_64& rng) {
  constexpr std::size_t kSteps = 16;
  std::array<zkp::Jacobian<C>, kSteps> step;
  for (auto& s : step) s = scalar_mul(zkp::Jacobian<C>::generator(), C::Scalar::random(rng).to_bigint());
  std::vector<zkp::Jacobian<C>> walk(n);
  zkp::Jacobian<C> p = step[0];
  for (auto& w : walk) w = p += step[rng() % kSteps];
  std::vector<zkp::Affine<C>> affine(n);
  batch_to_affine<C>(walk, affine);
  std::vector<Base<C>> bases(n);
  for (std::size_t i = 0; i < n; ++i) bases[i] = {affine[i].x, affine[i].y};
  return bases;
}

std::vector<std::uint8_t> random_scalars(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::uint8_t> s(n * kScalarBytes);
  for (auto& b : s) b = static_cast<std::uint8_t>(rng());
  return s;
}

std::vector<std::uint8_t> zero_one_scalars(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::uint8_t> s(n * kScalarBytes, 0);
  for (std::size_t i = 0; i < n; ++i) s[i * kScalarBytes] = static_cast<std::uint8_t>(rng() & 1);
  return s;
}

void set_scalar(std::vector<std::uint8_t>& s, std::size_t i, const ScalarInt& v) {
  v.to_le_bytes(std::span<std::uint8_t, kScalarBytes>(s.data() + i * kScalarBytes, kScalarBytes));
}

template <CurveParams C>
zkp::Affine<C> cpu_msm(std::span<const Base<C>> bases, std::span<const std::uint8_t> scalars) {
  const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
  return zkp::msm::msm<C>(bases.first(scalars.size() / kScalarBytes), scalars, zkp::msm::Options{threads, 0});
}

template <CurveParams C>
class DeviceMsm : public DeviceTest {};
using G1Curves = ::testing::Types<zkp::bn254::G1, zkp::bls12_381::G1>;
TYPED_TEST_SUITE(DeviceMsm, G1Curves);

TYPED_TEST(DeviceMsm, RandomAndZeroOneScalarsMatchCpuAtEverySize) {
  using C = TypeParam;
  std::mt19937_64 rng(0x5eed);
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{100}, std::size_t{1} << 12, std::size_t{1} << 16}) {
    const auto bases = random_bases<C>(n, rng);
    Msm<C> engine(kTestGpu, bases);
    for (int kind = 0; kind < 2; ++kind) {
      const auto scalars = kind == 0 ? random_scalars(n, rng) : zero_one_scalars(n, rng);
      EXPECT_EQ(engine.run(scalars), cpu_msm<C>(bases, scalars))
          << "n = " << n << (kind == 0 ? ", random" : ", 0/1") << " scalars, c = " << engine.plan().c;
    }
  }
}

TYPED_TEST(DeviceMsm, TinyInputsMatchNaiveSums) {
  using C = TypeParam;
  std::mt19937_64 rng(0x7);
  const auto bases = random_bases<C>(2, rng);
  Msm<C> engine(kTestGpu, bases);
  const auto scalars = random_scalars(2, rng);
  zkp::Jacobian<C> expected = zkp::Jacobian<C>::identity();
  for (std::size_t i = 0; i < 2; ++i) {
    const auto s = ScalarInt::from_le_bytes(std::span<const std::uint8_t, kScalarBytes>(scalars.data() + i * kScalarBytes, kScalarBytes));
    expected += scalar_mul(zkp::Jacobian<C>::from_affine(zkp::Affine<C>::from_xy(bases[i].x, bases[i].y)), s);
  }
  EXPECT_EQ(engine.run(scalars), expected.to_affine());
  EXPECT_EQ(engine.run(std::span<const std::uint8_t>(scalars).first(kScalarBytes)),
            scalar_mul(zkp::Jacobian<C>::from_affine(zkp::Affine<C>::from_xy(bases[0].x, bases[0].y)),
                       ScalarInt::from_le_bytes(std::span<const std::uint8_t, kScalarBytes>(scalars.data(), kScalarBytes)))
                .to_affine());
}

// Other plans take other paths: one bucket group for all windows (F = W), several groups
// with precomputed copies, tiny windows (many windows, 2-bucket chunks), wide windows.
TYPED_TEST(DeviceMsm, EveryPlanShapeMatchesCpu) {
  using C = TypeParam;
  std::mt19937_64 rng(0x9a);
  const std::size_t n = std::size_t{1} << 12;
  const auto bases = random_bases<C>(n, rng);
  const auto scalars = random_scalars(n, rng);
  const auto expected = cpu_msm<C>(bases, scalars);
  const std::array<msm::Config, 6> configs{{{0, 0}, {10, 3}, {13, 0}, {3, 1}, {2, 0}, {16, 1}}};
  for (const msm::Config& config : configs) {
    Msm<C> engine(kTestGpu, bases, config);
    EXPECT_EQ(engine.run(scalars), expected) << "c = " << engine.plan().c << ", copies = " << engine.plan().copies
                                          << ", groups = " << engine.plan().groups;
  }
}

// Scalars at and around r (reduced on the device), the sign-folding threshold, all-ones
// bytes; a repeated base (the bucket meets P + P) and its negation (P − P); a base at
// infinity; all scalars equal (one bucket holds everything).
TYPED_TEST(DeviceMsm, EdgeScalarsAndBasesMatchCpu) {
  using C = TypeParam;
  std::mt19937_64 rng(0xed6e);
  const std::size_t n = 600;
  auto bases = random_bases<C>(n, rng);
  bases[7] = bases[3];
  bases[8] = {bases[3].x, -bases[3].y};
  bases[9] = Base<C>{};  // infinity
  const ScalarInt r = C::Scalar::kModulus;
  ScalarInt half = r;
  half.shr1();
  std::vector<std::uint8_t> scalars = random_scalars(n, rng);
  const auto plus = [](ScalarInt v, std::uint64_t k) {
    std::uint64_t carry = k;
    for (auto& l : v.limbs) l = zkp::add_carry(l, 0, carry);
    return v;
  };
  const auto minus_one = [&](ScalarInt v) {
    std::uint64_t borrow = 1;
    for (auto& l : v.limbs) l = zkp::sub_borrow(l, 0, borrow);
    return v;
  };
  ScalarInt all_ones;
  for (auto& l : all_ones.limbs) l = ~std::uint64_t{0};
  const std::array<ScalarInt, 8> edge{minus_one(r), r, plus(r, 1), all_ones, half, plus(half, 1), ScalarInt::from_u64(1), minus_one(r)};
  for (std::size_t i = 0; i < edge.size(); ++i) set_scalar(scalars, i, edge[i]);
  set_scalar(scalars, 3, ScalarInt::from_u64(5));
  set_scalar(scalars, 7, ScalarInt::from_u64(5));  // same base, same digits: P + P in every bucket
  set_scalar(scalars, 8, ScalarInt::from_u64(5));  // and −P: cancels
  for (const msm::Config& config : {msm::Config{}, msm::Config{0, 0}}) {
    Msm<C> engine(kTestGpu, bases, config);
    EXPECT_EQ(engine.run(scalars), cpu_msm<C>(bases, scalars)) << "edge scalars, copies = " << engine.plan().copies;
    std::vector<std::uint8_t> same(n * kScalarBytes);
    for (std::size_t i = 0; i < n; ++i) set_scalar(same, i, ScalarInt::from_u64(0x1234567));
    EXPECT_EQ(engine.run(same), cpu_msm<C>(bases, same)) << "equal scalars, copies = " << engine.plan().copies;
    std::vector<std::uint8_t> zeros(n * kScalarBytes, 0);
    EXPECT_TRUE(engine.run(zeros).is_identity());
  }
}

// The compacted path (msm/trivial.cuh; forced here with compact_from = 1, taken from 2^22
// scalars by default): mixes of 0, 1, r − 1 and r + 1 with general scalars, every scalar
// trivial, none trivial, a base at infinity with scalar 1; a prefix call below compact_from
// on the same object takes the plain path.
TYPED_TEST(DeviceMsm, CompactedPathKeepsZerosAndOnesOutOfTheBuckets) {
  using C = TypeParam;
  std::mt19937_64 rng(0xc0a1);
  const std::size_t n = std::size_t{1} << 14;
  auto bases = random_bases<C>(n, rng);
  bases[5] = Base<C>{};
  const ScalarInt r = C::Scalar::kModulus;
  ScalarInt r_minus_1 = r, r_plus_1 = r;
  r_minus_1.limbs[0] -= 1;  // r is odd: no borrow
  r_plus_1.limbs[0] += 1;   // r's low limb is not all ones: no carry
  const auto mix = [&](unsigned trivial_percent) {
    std::vector<std::uint8_t> s = random_scalars(n, rng);
    for (std::size_t i = 0; i < n; ++i) {
      if (rng() % 100 >= trivial_percent) continue;
      const auto pick = rng() % 4;
      set_scalar(s, i, pick == 0 ? ScalarInt::from_u64(0) : pick == 1 ? ScalarInt::from_u64(1) : pick == 2 ? r_minus_1 : r_plus_1);
    }
    set_scalar(s, 5, ScalarInt::from_u64(1));
    return s;
  };
  for (msm::Config config : {msm::Config{}, msm::Config{0, 0}, msm::Config{9, 2}}) {
    config.compact_from = 1;
    Msm<C> engine(kTestGpu, bases, config);
    for (unsigned percent : {0u, 50u, 90u, 100u}) {
      const auto scalars = mix(percent);
      EXPECT_EQ(engine.run(scalars), cpu_msm<C>(bases, scalars)) << percent << "% trivial, copies = " << engine.plan().copies;
    }
    EXPECT_TRUE(engine.run(std::vector<std::uint8_t>(n * kScalarBytes, 0)).is_identity());
  }
  msm::Config above;
  above.compact_from = n / 2;
  Msm<C> engine(kTestGpu, bases, above);
  const auto scalars = mix(90);
  const std::span<const std::uint8_t> prefix(scalars.data(), (n / 4) * kScalarBytes);
  EXPECT_EQ(engine.run(prefix), cpu_msm<C>(bases, prefix)) << "prefix below compact_from";
  EXPECT_EQ(engine.run(scalars), cpu_msm<C>(bases, scalars)) << "whole, compacted";
}

TYPED_TEST(DeviceMsm, PrefixRepeatedCallsAndBadArguments) {
  using C = TypeParam;
  std::mt19937_64 rng(0x11);
  const auto bases = random_bases<C>(5000, rng);
  Msm<C> engine(kTestGpu, bases);
  for (std::size_t n : {std::size_t{1000}, std::size_t{5000}, std::size_t{1000}}) {
    const auto scalars = random_scalars(n, rng);
    EXPECT_EQ(engine.run(scalars), cpu_msm<C>(bases, scalars)) << "prefix n = " << n;
  }
  EXPECT_TRUE(engine.run({}).is_identity());
  EXPECT_THROW(engine.run(std::vector<std::uint8_t>(5001 * kScalarBytes)), std::invalid_argument);
  EXPECT_THROW(engine.run(std::vector<std::uint8_t>(31)), std::invalid_argument);
}

// Sections of a proof at Filecoin's size share one workspace (msm_scratch=shared): MSMs of
// different sizes and plans, called from several threads at once and also queued together
// before any is collected (the prover's pattern), each still give the CPU's sum; the
// workspace holds the largest one's scratch, not the sum.
TYPED_TEST(DeviceMsm, SharedWorkspaceServesManyMsmsFromManyThreads) {
  using C = TypeParam;
  std::mt19937_64 rng(0x5a);
  auto workspace = std::make_shared<MsmWorkspace>(kTestGpu);
  const std::array<std::size_t, 3> sizes = {3000, 9000, 1000};
  const std::array<msm::Config, 3> configs = {msm::Config{0, 1}, msm::Config{0, 2}, msm::Config{7, 0}};
  std::vector<std::vector<Base<C>>> bases;
  std::vector<std::unique_ptr<Msm<C>>> engines;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    bases.push_back(random_bases<C>(sizes[k], rng));
    engines.push_back(std::make_unique<Msm<C>>(kTestGpu, bases.back(), configs[k], workspace));
    EXPECT_EQ(engines.back()->stream(), workspace->stream());
  }
  std::size_t largest = 0;
  for (const auto& e : engines) largest = std::max(largest, msm::scratch_layout(e->plan(), 4 * sizeof(typename C::Field)).bytes);
  EXPECT_EQ(workspace->capacity(), largest);

  // Queued together, collected in order.
  std::vector<std::vector<std::uint8_t>> scalars;
  std::vector<DeviceBuffer<std::uint8_t>> device_scalars;
  Stream producer;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    scalars.push_back(k == 1 ? zero_one_scalars(sizes[k], rng) : random_scalars(sizes[k], rng));
    device_scalars.emplace_back(scalars.back().size());
    device_scalars.back().upload(scalars.back(), producer.get());
  }
  for (std::size_t k = 0; k < sizes.size(); ++k) engines[k]->enqueue_device(device_scalars[k].data(), sizes[k], producer.get());
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    EXPECT_EQ(engines[k]->finish(), cpu_msm<C>(bases[k], scalars[k])) << "queued together, section " << k;
  }

  // One thread per engine, each calling again and again.
  std::vector<std::vector<std::uint8_t>> inputs;
  std::vector<zkp::Affine<C>> expected;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    inputs.push_back(random_scalars(sizes[k], rng));
    expected.push_back(cpu_msm<C>(bases[k], inputs[k]));
  }
  std::array<int, 3> mismatches{};
  std::vector<std::thread> threads;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    threads.emplace_back([&, k] {
      for (int rep = 0; rep < 6; ++rep) mismatches[k] += engines[k]->run(inputs[k]) == expected[k] ? 0 : 1;
    });
  }
  for (auto& t : threads) t.join();
  for (std::size_t k = 0; k < sizes.size(); ++k) EXPECT_EQ(mismatches[k], 0) << "threads, section " << k;

  const auto other = std::make_shared<MsmWorkspace>(kTestGpu);
  EXPECT_EQ(Msm<C>(kTestGpu, bases[2], {}, other).run(inputs[2]), expected[2]) << "a workspace of its own";
}

}  // namespace
}  // namespace zkp::cuda::test
