// On the GPU: the H step (cuda/ntt/h_step.hpp) against the CPU's h_evaluations bit for
// bit, the G2 MSM against the CPU's G2 MSM, and the non-blocking MSM entry (enqueue_device
// behind a producer stream, finish) including the H → MSM hand-off the prover makes.
// Every test skips, with the runtime's reason, when no CUDA device is usable.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "cuda/msm/msm.hpp"
#include "cuda/ntt/h_step.hpp"
#include "cuda/util/buffers.hpp"
#include "cuda/util/device_guard.hpp"
#include "cuda/util/stream.hpp"
#include "device_test_support.hpp"
#include "core/groth16/h_polynomial.hpp"
#include "msm_inputs.hpp"
#include "core/ntt/domain.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::cuda::test {
namespace {

template <class T>
DeviceBuffer<T> to_gpu(std::span<const T> host, cudaStream_t s) {
  DeviceBuffer<T> d(host.size());
  if (!host.empty()) d.upload(host, s);
  return d;
}
template <class T>
std::vector<T> to_cpu(const DeviceBuffer<T>& d, cudaStream_t s) {
  std::vector<T> h(d.size());
  if (!h.empty()) d.download(h, s);
  ZKP_CUDA_CHECK(cudaStreamSynchronize(s));
  return h;
}

template <class Fr>
std::vector<Fr> random_elements(std::size_t n, std::mt19937_64& rng) {
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::random(rng);
  return v;
}

// ---------------------------------------------------------------------------------------
// H step

template <class Fr>
class DeviceHStep : public DeviceTest {};
using ScalarFields = ::testing::Types<zkp::bn254::Fr, zkp::bls12_381::Fr>;
TYPED_TEST_SUITE(DeviceHStep, ScalarFields);

// Every size 2^0 … 2^16, c formed on the device and c given, inputs shorter than the domain
// (the buffers' tails hold garbage that the step must zero; b shorter than a), both output
// forms.
TYPED_TEST(DeviceHStep, MatchesHEvaluationsAtEverySize) {
  using Fr = TypeParam;
  std::mt19937_64 rng(0x4e77);
  ThreadPool pool(0);
  DeviceGuard guard(kTestGpu);
  Stream stream;
  const cudaStream_t s = stream.get();
  for (std::size_t log_n = 0; log_n <= 16; ++log_n) {
    HStep<Fr> h(kTestGpu, log_n);
    ASSERT_EQ(h.size(), std::size_t{1} << log_n);
    const NttDomain<Fr> d(log_n);
    const std::size_t n = d.size();
    for (int variant = 0; variant < 2; ++variant) {
      const bool given_c = variant == 1;
      const std::size_t count = given_c ? n : n - n / 3;
      const std::size_t b_count = given_c ? n - n / 5 : count;  // its own padding (the per-array overload)
      const auto a = random_elements<Fr>(count, rng), b = random_elements<Fr>(b_count, rng);
      const auto c = given_c ? random_elements<Fr>(count, rng) : std::vector<Fr>{};
      const auto expected = groth16::h_evaluations<Fr>(a, b, c, d, pool);

      // Device buffers of n with garbage past `count`.
      auto pad = [&](const std::vector<Fr>& v) {
        std::vector<Fr> p = random_elements<Fr>(n, rng);
        std::copy(v.begin(), v.end(), p.begin());
        return p;
      };
      const auto pa = pad(a), pb = pad(b), pc = given_c ? pad(c) : std::vector<Fr>{};
      for (HForm form : {HForm::montgomery, HForm::standard}) {
        auto da = to_gpu<Fr>(pa, s), db = to_gpu<Fr>(pb, s);
        DeviceBuffer<Fr> dc = given_c ? to_gpu<Fr>(pc, s) : DeviceBuffer<Fr>{};
        if (given_c) h.run(da.data(), count, db.data(), b_count, dc.data(), count, s, form);
        else h.run(da.data(), db.data(), nullptr, count, s, form);
        const auto got = to_cpu(da, s);
        if (form == HForm::montgomery) {
          EXPECT_TRUE(got == expected) << "log n = " << log_n << (given_c ? ", c given" : ", c = a∘b");
        } else {
          bool same = true;
          for (std::size_t i = 0; i < n; ++i) same = same && got[i].mont() == expected[i].to_bigint();
          EXPECT_TRUE(same) << "standard form, log n = " << log_n << (given_c ? ", c given" : ", c = a∘b");
        }
      }
    }
  }
}

TYPED_TEST(DeviceHStep, OddCosetAloneAndToStandard) {
  using Fr = TypeParam;
  std::mt19937_64 rng(0x0dd);
  ThreadPool pool(0);
  DeviceGuard guard(kTestGpu);
  Stream stream;
  const cudaStream_t s = stream.get();
  for (std::size_t log_n : {3u, 12u}) {
    HStep<Fr> h(kTestGpu, log_n);
    const NttDomain<Fr> d(log_n);
    std::array<std::vector<Fr>, 2> host{random_elements<Fr>(d.size(), rng), random_elements<Fr>(d.size(), rng)};
    std::array<DeviceBuffer<Fr>, 2> dev{to_gpu<Fr>(host[0], s), to_gpu<Fr>(host[1], s)};
    Fr* ptrs[2] = {dev[0].data(), dev[1].data()};
    h.odd_coset(ptrs, 2, s);
    for (int k = 0; k < 2; ++k) {
      odd_coset<Fr>(host[k], d, pool);
      EXPECT_TRUE(to_cpu(dev[k], s) == host[k]) << "array " << k << ", log n = " << log_n;
    }
    h.to_standard(dev[0].data(), d.size(), s);
    const auto std_form = to_cpu(dev[0], s);
    for (std::size_t i = 0; i < d.size(); ++i) ASSERT_EQ(std_form[i].mont(), host[0][i].to_bigint()) << i;
  }
}

TYPED_TEST(DeviceHStep, RejectsBadArguments) {
  using Fr = TypeParam;
  DeviceGuard guard(kTestGpu);
  Stream stream;
  HStep<Fr> h(kTestGpu, 4);
  DeviceBuffer<Fr> a(16), b(16);
  EXPECT_THROW(h.run(a.data(), b.data(), nullptr, 17, stream.get()), std::invalid_argument);
  EXPECT_THROW(h.run(a.data(), 16, b.data(), 17, nullptr, 0, stream.get()), std::invalid_argument);
  EXPECT_THROW(h.run(reinterpret_cast<Fr*>(reinterpret_cast<std::uint8_t*>(a.data()) + 8), b.data(), nullptr, 16, stream.get()),
               std::invalid_argument);
  Fr* four[4] = {a.data(), b.data(), a.data(), b.data()};
  EXPECT_THROW(h.odd_coset(four, 4, stream.get()), std::invalid_argument);
  EXPECT_THROW(HStep<Fr>(kTestGpu, Fr::two_adicity() + 1), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------
// G2 MSM

template <CurveParams C>
class DeviceMsmG2 : public DeviceTest {};
using G2Curves = ::testing::Types<zkp::bn254::G2, zkp::bls12_381::G2>;
TYPED_TEST_SUITE(DeviceMsmG2, G2Curves);

TYPED_TEST(DeviceMsmG2, RandomAndZeroOneScalarsMatchCpu) {
  using C = TypeParam;
  std::mt19937_64 rng(0x62);
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{100}, std::size_t{1} << 12}) {
    const auto bases = walk_bases<C>(n, rng);
    Msm<C> engine(kTestGpu, bases);
    for (int kind = 0; kind < 2; ++kind) {
      const auto scalars = kind == 0 ? full_width_scalars(n, rng) : bit_scalars(n, rng);
      EXPECT_EQ(engine.run(scalars), reference_msm<C>(bases, scalars))
          << "n = " << n << (kind == 0 ? ", random" : ", 0/1") << " scalars, c = " << engine.plan().c;
    }
  }
}

// Zero scalars, r − 1 everywhere (the sum of the negated bases), repeated and opposite
// bases, a base at infinity; the precomputed plan (F = W) and small windows.
TYPED_TEST(DeviceMsmG2, EdgeCasesMatchCpu) {
  using C = TypeParam;
  std::mt19937_64 rng(0xe2);
  const std::size_t n = 300;
  auto bases = walk_bases<C>(n, rng);
  bases[5] = bases[2];
  bases[6] = {bases[2].x, -bases[2].y};
  bases[7] = zkp::msm::Base<C>{};
  const ScalarInt r_minus_1 = minus_one(C::Scalar::kModulus);
  std::vector<std::uint8_t> max(n * kScalarBytes);
  for (std::size_t i = 0; i < n; ++i) put_scalar(max, i, r_minus_1);
  auto mixed = full_width_scalars(n, rng);
  put_scalar(mixed, 2, ScalarInt::from_u64(7));
  put_scalar(mixed, 5, ScalarInt::from_u64(7));  // P + P in every bucket
  put_scalar(mixed, 6, ScalarInt::from_u64(7));  // and −P
  const std::vector<std::uint8_t> zeros(n * kScalarBytes, 0);
  for (const msm::Config& config : {msm::Config{}, msm::Config{0, 0}, msm::Config{3, 1}}) {
    Msm<C> engine(kTestGpu, bases, config);
    const std::string what = "c = " + std::to_string(engine.plan().c) + ", copies = " + std::to_string(engine.plan().copies);
    EXPECT_TRUE(engine.run(zeros).is_identity()) << what;
    EXPECT_EQ(engine.run(max), reference_msm<C>(bases, max)) << "r − 1, " << what;
    EXPECT_EQ(engine.run(mixed), reference_msm<C>(bases, mixed)) << "repeated bases, " << what;
  }
  // r − 1 is −1: the result is −Σ P_i.
  zkp::Jacobian<C> sum = zkp::Jacobian<C>::identity();
  for (const auto& b : bases)
    if (!(b.x.is_zero() && b.y.is_zero())) sum += zkp::Jacobian<C>::from_affine(zkp::Affine<C>::from_xy(b.x, b.y));
  Msm<C> engine(kTestGpu, bases);
  EXPECT_EQ(engine.run(max), (-sum).to_affine());
}

// ---------------------------------------------------------------------------------------
// Non-blocking entry

template <CurveParams C>
class DeviceMsmAsync : public DeviceTest {};
using AsyncCurves = ::testing::Types<zkp::bn254::G1, zkp::bls12_381::G1, zkp::bn254::G2>;
TYPED_TEST_SUITE(DeviceMsmAsync, AsyncCurves);

// The producer writes the scalars, the MSM is enqueued behind it, and the producer then
// overwrites them: the MSM must see the first values (the producer waited for the digit
// kernel), and two engines in flight at once must both be right.
TYPED_TEST(DeviceMsmAsync, EnqueueBehindProducerAndOverlap) {
  using C = TypeParam;
  std::mt19937_64 rng(0xa5);
  const std::size_t n = 3000;
  const auto bases = walk_bases<C>(n, rng);
  const auto s1 = full_width_scalars(n, rng), s2 = bit_scalars(n, rng);
  DeviceGuard guard(kTestGpu);
  Stream producer;
  PinnedBuffer<std::uint8_t> pinned1(s1.size()), pinned2(s2.size());
  std::memcpy(pinned1.data(), s1.data(), s1.size());
  std::memcpy(pinned2.data(), s2.data(), s2.size());
  DeviceBuffer<std::uint8_t> d1(s1.size()), d2(s2.size());
  Msm<C> e1(kTestGpu, bases), e2(kTestGpu, bases, msm::Config{0, 0});
  for (int round = 0; round < 2; ++round) {
    EXPECT_FALSE(e1.pending());
    ZKP_CUDA_CHECK(cudaMemcpyAsync(d1.data(), pinned1.data(), s1.size(), cudaMemcpyHostToDevice, producer.get()));
    e1.enqueue_device(d1.data(), n, producer.get());
    ZKP_CUDA_CHECK(cudaMemsetAsync(d1.data(), 0xff, s1.size(), producer.get()));  // after the digits only
    ZKP_CUDA_CHECK(cudaMemcpyAsync(d2.data(), pinned2.data(), s2.size(), cudaMemcpyHostToDevice, producer.get()));
    e2.enqueue_device(d2.data(), n, producer.get());
    EXPECT_TRUE(e1.pending());
    EXPECT_THROW(e1.enqueue_device(d1.data(), n, producer.get()), std::logic_error);
    EXPECT_EQ(e2.finish(), reference_msm<C>(bases, s2)) << "round " << round;
    EXPECT_EQ(e1.finish(), reference_msm<C>(bases, s1)) << "round " << round;
  }
  EXPECT_THROW(e1.finish(), std::logic_error);
  e1.enqueue_device(nullptr, 0, producer.get());
  EXPECT_TRUE(e1.finish().is_identity());
  EXPECT_EQ(e1.run(s2), reference_msm<C>(bases, s2));  // the blocking entry still works after
}

// The prover's hand-off: H on the device in standard form, straight into the MSM on the
// H step's stream, against the CPU's h_evaluations and its MSM over Fr scalars.
TEST_F(DeviceTest, HStepFeedsMsmWithoutHostRoundTrip) {
  using C = zkp::bn254::G1;
  using Fr = C::Scalar;
  std::mt19937_64 rng(0x7e);
  constexpr std::size_t kLog = 11;
  const std::size_t n = std::size_t{1} << kLog;
  ThreadPool pool(0);
  const NttDomain<Fr> d(kLog);
  const auto a = random_elements<Fr>(n, rng), b = random_elements<Fr>(n, rng);
  const auto h_cpu = groth16::h_evaluations<Fr>(a, b, std::span<const Fr>{}, d, pool);
  const auto bases = walk_bases<C>(n, rng);
  const auto expected = zkp::msm::msm<C>(std::span<const zkp::msm::Base<C>>(bases), std::span<const Fr>(h_cpu));

  DeviceGuard guard(kTestGpu);
  Stream stream;
  HStep<Fr> h(kTestGpu, kLog);
  Msm<C> engine(kTestGpu, bases);
  auto da = to_gpu<Fr>(a, stream.get()), db = to_gpu<Fr>(b, stream.get());
  h.run(da.data(), db.data(), nullptr, n, stream.get(), HForm::standard);
  engine.enqueue_device(reinterpret_cast<const std::uint8_t*>(da.data()), n, stream.get());
  EXPECT_EQ(engine.finish(), expected);
}

}  // namespace
}  // namespace zkp::cuda::test
