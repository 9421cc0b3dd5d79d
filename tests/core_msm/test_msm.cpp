// MSM against references that do not share its code:
//  - naive Σ [s_i]P_i with ec's scalar_mul (small n);
//  - discrete logs: bases are P_i = [k_i]G with known k_i, so Σ s_i·P_i = [Σ s_i·k_i mod r]G,
//    one scalar multiplication whatever n is.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <span>
#include <thread>
#include <vector>

#include "core/ec/batch_normalize.hpp"
#include "core/ec/encoding.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/msm/bucket_sum.hpp"
#include "core/msm/msm.hpp"
#include "core/msm/pippenger.hpp"
#include "core/msm/scalars.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::msm {
namespace {

template <CurveParams C>
struct Instance {
  using Fr = typename C::Scalar;
  std::vector<Affine<C>> bases;
  std::vector<Fr> dlogs;  // bases[i] = [dlogs[i]]G
  std::vector<std::uint8_t> scalars;

  std::size_t size() const { return bases.size(); }
  void set_scalar(std::size_t i, const ScalarInt& s) {
    std::span<std::uint8_t, kScalarBytes> out(scalars.data() + i * kScalarBytes, kScalarBytes);
    s.to_le_bytes(out);
  }
  ScalarInt scalar(std::size_t i) const {
    return ScalarInt::from_le_bytes(std::span<const std::uint8_t, kScalarBytes>(scalars.data() + i * kScalarBytes, kScalarBytes));
  }
  // [Σ s_i·k_i]G.
  Affine<C> expected() const {
    Fr e = Fr::zero();
    for (std::size_t i = 0; i < size(); ++i) e += Fr::from_bigint_reduce(scalar(i)) * dlogs[i];
    return scalar_mul(Jacobian<C>::generator(), e.to_bigint()).to_affine();
  }
  Affine<C> naive() const {
    Jacobian<C> acc = Jacobian<C>::identity();
    for (std::size_t i = 0; i < size(); ++i) acc += scalar_mul(Jacobian<C>::from_affine(bases[i]), scalar(i));
    return acc.to_affine();
  }
  Affine<C> run(std::size_t threads = 1, unsigned window_bits = 0) const {
    return msm<C>(std::span<const Affine<C>>(bases), scalars, Options{threads, window_bits});
  }
};

// n bases with pseudo-random discrete logs: a walk P_i = P_{i−1} + T_j over 16 random steps
// T_j = [t_j]G, one addition per base instead of a scalar multiplication.
template <CurveParams C>
Instance<C> make_instance(std::size_t n, std::mt19937_64& rng) {
  using Fr = typename C::Scalar;
  constexpr std::size_t kSteps = 16;
  std::array<Fr, kSteps> t;
  std::array<Jacobian<C>, kSteps> step;
  for (std::size_t j = 0; j < kSteps; ++j) {
    t[j] = Fr::random(rng);
    step[j] = scalar_mul(Jacobian<C>::generator(), t[j].to_bigint());
  }
  Instance<C> inst;
  inst.dlogs.resize(n);
  inst.scalars.assign(n * kScalarBytes, 0);
  std::vector<Jacobian<C>> points(n);
  Fr k = Fr::zero();
  Jacobian<C> p = Jacobian<C>::identity();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = rng() % kSteps;
    k += t[j];
    p += step[j];
    inst.dlogs[i] = k;
    points[i] = p;
  }
  inst.bases.resize(n);
  batch_to_affine<C>(points, inst.bases);
  return inst;
}

template <class Fr>
ScalarInt random_scalar(std::mt19937_64& rng) {
  return Fr::random(rng).to_bigint();
}

template <class C>
class MsmTest : public ::testing::Test {};
using Groups = ::testing::Types<bn254::G1, bn254::G2, bls12_381::G1, bls12_381::G2>;
struct GroupNames {
  template <class C>
  static std::string GetName(int) {
    std::string s = C::kName;
    for (char& ch : s)
      if (ch == '.') ch = '_';
    return s;
  }
};
TYPED_TEST_SUITE(MsmTest, Groups, GroupNames);

TYPED_TEST(MsmTest, RandomScalarsMatchDiscreteLogs) {
  using C = TypeParam;
  std::mt19937_64 rng(1);
  for (const std::size_t n : {0, 1, 2, 3, 17, 100, 1000}) {
    auto inst = make_instance<C>(n, rng);
    for (std::size_t i = 0; i < n; ++i) inst.set_scalar(i, random_scalar<typename C::Scalar>(rng));
    EXPECT_EQ(inst.run(), inst.expected()) << "n = " << n;
  }
}

TYPED_TEST(MsmTest, SmallSizesMatchNaiveScalarMul) {
  using C = TypeParam;
  std::mt19937_64 rng(2);
  for (const std::size_t n : {0, 1, 2, 3, 17}) {
    auto inst = make_instance<C>(n, rng);
    for (std::size_t i = 0; i < n; ++i) inst.set_scalar(i, random_scalar<typename C::Scalar>(rng));
    const Affine<C> naive = inst.naive();
    EXPECT_EQ(inst.run(), naive) << "n = " << n;
    EXPECT_EQ(inst.expected(), naive) << "the discrete-log reference itself, n = " << n;
  }
}

// Circom's witness: mostly 0, 1 and −1 = r − 1, a few small and some full-width values.
TYPED_TEST(MsmTest, ZeroOneMinusOneScalars) {
  using C = TypeParam;
  using Fr = typename C::Scalar;
  std::mt19937_64 rng(3);
  ScalarInt minus_one = Fr::kModulus;
  minus_one.sub_in_place(ScalarInt::from_u64(1));
  for (const std::size_t n : {1, 2, 3, 17, 100, 1000}) {
    auto inst = make_instance<C>(n, rng);
    for (std::size_t i = 0; i < n; ++i) {
      switch (rng() % 5) {
        case 0: break;  // 0
        case 1: inst.set_scalar(i, ScalarInt::from_u64(1)); break;
        case 2: inst.set_scalar(i, minus_one); break;
        case 3: inst.set_scalar(i, ScalarInt::from_u64(rng() % 1000)); break;
        default: inst.set_scalar(i, random_scalar<Fr>(rng)); break;
      }
    }
    EXPECT_EQ(inst.run(), inst.expected()) << "n = " << n;
  }
  // All ones, all minus ones: the unit path alone (two chunks at this size).
  auto inst = make_instance<C>(20000, rng);
  for (const ScalarInt& s : {ScalarInt::from_u64(1), minus_one}) {
    for (std::size_t i = 0; i < inst.size(); ++i) inst.set_scalar(i, s);
    EXPECT_EQ(inst.run(2), inst.expected());
  }
}

// Values near r (whose negatives are small), at or above r (reduced), and up to 2^256 − 1.
TYPED_TEST(MsmTest, ScalarsWithTopBitsSet) {
  using C = TypeParam;
  using Fr = typename C::Scalar;
  std::mt19937_64 rng(4);
  auto inst = make_instance<C>(200, rng);
  for (std::size_t i = 0; i < inst.size(); ++i) {
    ScalarInt s;
    switch (i % 5) {
      case 0:  // r − k, k small
        s = Fr::kModulus;
        s.sub_in_place(ScalarInt::from_u64(1 + rng() % 100000));
        break;
      case 1:  // r + k: reduced to k
        s = Fr::kModulus;
        s.add_in_place(ScalarInt::from_u64(rng() % 1000));
        break;
      case 2:  // 2^256 − 1 − k
        for (auto& l : s.limbs) l = ~std::uint64_t{0};
        s.limbs[0] -= rng() % 1000;
        break;
      case 3:  // r exactly, and (r − 1)/2 and (r + 1)/2 around the sign-folding point
        s = Fr::kModulus;
        if (i % 3 != 0) {
          s.shr1();
          if (i % 3 == 2) s.add_in_place(ScalarInt::from_u64(1));
        }
        break;
      default:  // random 256-bit
        for (auto& l : s.limbs) l = rng();
        break;
    }
    inst.set_scalar(i, s);
  }
  EXPECT_EQ(inst.run(), inst.expected());
}

// Equal and opposite bases meet in the same bucket: the doubling and cancellation paths of
// the batch-affine sum, in the first round and in later ones.
TYPED_TEST(MsmTest, DuplicatedAndOppositePoints) {
  using C = TypeParam;
  using Fr = typename C::Scalar;
  std::mt19937_64 rng(5);
  for (const std::size_t n : {2, 3, 17, 100, 1000}) {
    auto src = make_instance<C>(4, rng);
    Instance<C> inst;
    inst.scalars.assign(n * kScalarBytes, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t j = rng() % 4;
      const bool neg = rng() % 2 != 0;
      inst.bases.push_back(neg ? -src.bases[j] : src.bases[j]);
      inst.dlogs.push_back(neg ? -src.dlogs[j] : src.dlogs[j]);
      // Few distinct scalars, so equal bases share buckets: 1, 2, 3, r − 2, one random.
      const std::uint64_t pick = rng() % 5;
      ScalarInt s = pick < 3 ? ScalarInt::from_u64(pick + 1) : Fr::kModulus;
      if (pick == 3) s.sub_in_place(ScalarInt::from_u64(2));
      if (pick == 4) s = (Fr::from_u64(7) * src.dlogs[0]).to_bigint();
      inst.set_scalar(i, s);
    }
    EXPECT_EQ(inst.run(), inst.expected()) << "n = " << n;
  }
  // P and −P with equal scalars: everything cancels.
  auto inst = make_instance<C>(50, rng);
  const std::size_t half = inst.size();
  for (std::size_t i = 0; i < half; ++i) {
    inst.bases.push_back(-inst.bases[i]);
    inst.dlogs.push_back(-inst.dlogs[i]);
  }
  inst.scalars.resize(2 * half * kScalarBytes);
  for (std::size_t i = 0; i < half; ++i) {
    const ScalarInt s = random_scalar<Fr>(rng);
    inst.set_scalar(i, s);
    inst.set_scalar(half + i, s);
  }
  EXPECT_TRUE(inst.run().is_identity());
}

TYPED_TEST(MsmTest, PointsAtInfinity) {
  using C = TypeParam;
  std::mt19937_64 rng(6);
  auto inst = make_instance<C>(300, rng);
  for (std::size_t i = 0; i < inst.size(); ++i) {
    inst.set_scalar(i, i % 7 == 0 ? ScalarInt::from_u64(1) : random_scalar<typename C::Scalar>(rng));
    if (i % 3 == 0) {
      inst.bases[i] = Affine<C>::identity();
      inst.dlogs[i] = C::Scalar::zero();
    }
  }
  EXPECT_EQ(inst.run(), inst.expected());
  // All at infinity.
  for (auto& b : inst.bases) b = Affine<C>::identity();
  EXPECT_TRUE(inst.run().is_identity());
}

// Small scalars put every base into a handful of buckets: deep per-bucket trees.
TYPED_TEST(MsmTest, SkewedSmallScalars) {
  using C = TypeParam;
  std::mt19937_64 rng(7);
  auto inst = make_instance<C>(2000, rng);
  for (std::size_t i = 0; i < inst.size(); ++i) inst.set_scalar(i, ScalarInt::from_u64(2 + rng() % 3));
  EXPECT_EQ(inst.run(), inst.expected());
}

TYPED_TEST(MsmTest, IndependentOfThreadsAndWindowSize) {
  using C = TypeParam;
  std::mt19937_64 rng(8);
  auto inst = make_instance<C>(300, rng);
  for (std::size_t i = 0; i < inst.size(); ++i)
    inst.set_scalar(i, i % 4 == 0 ? ScalarInt::from_u64(1) : random_scalar<typename C::Scalar>(rng));
  const Affine<C> expected = inst.expected();
  for (const std::size_t threads : {1, 2, 3, 8, 16, 64}) EXPECT_EQ(inst.run(threads), expected) << "threads " << threads;
  for (const unsigned c : {2u, 9u, 16u}) EXPECT_EQ(inst.run(3, c), expected) << "c " << c;
}

// Any chunk count a split may give, also ones whose ⌈n/chunks⌉-long chunks run out before the
// last chunk (600 scalars in 128 chunks of 5: the last five chunks are empty).
TYPED_TEST(MsmTest, ChunksThatDoNotDivideTheScalars) {
  using C = TypeParam;
  std::mt19937_64 rng(13);
  auto inst = make_instance<C>(600, rng);
  for (std::size_t i = 0; i < inst.size(); ++i)
    inst.set_scalar(i, i % 5 == 0 ? ScalarInt::from_u64(1) : random_scalar<typename C::Scalar>(rng));
  const Affine<C> expected = inst.expected();
  std::vector<Base<C>> bases;
  for (const Affine<C>& p : inst.bases) bases.push_back(p.infinity ? Base<C>{} : Base<C>{p.x, p.y});
  const ScalarPlan plan = plan_scalars(inst.scalars, C::Scalar::kModulus, [](std::size_t) { return false; });
  for (const std::size_t chunks : {1u, 7u, 97u, 128u}) {
    const auto sum = detail::Pippenger<C>(bases, plan, WorkSplit{5, chunks}, 3).run().to_affine();
    EXPECT_EQ(sum, expected) << chunks << " chunks";
  }
}

// Windows of 2^10 buckets and more, most of them non-empty, take the chained bucket reduction
// (pippenger.hpp: 64 to 256 chains stepped together in batches); the top window, with one or a
// few bits, is sparse and keeps the plain running sum. Both must give the discrete-log sum.
TYPED_TEST(MsmTest, ChainedBucketReductionMatchesDiscreteLogs) {
  using C = TypeParam;
  std::mt19937_64 rng(12);
  auto inst = make_instance<C>(4096, rng);
  for (std::size_t i = 0; i < inst.size(); ++i) inst.set_scalar(i, random_scalar<typename C::Scalar>(rng));
  const Affine<C> expected = inst.expected();
  for (const unsigned c : {11u, 12u, 13u})  // 64, 128 and 256 chains of 16
    for (const std::size_t threads : {1, 3}) EXPECT_EQ(inst.run(threads, c), expected) << "c " << c << " threads " << threads;
}

// On a caller's pool (Options::pool) the sum is the same, whatever the pool's size, also for
// two MSMs on one pool at once (they take turns) and for one started from inside a task of the
// pool (it runs inline).
TYPED_TEST(MsmTest, OnAGivenPoolFromAnyThread) {
  using C = TypeParam;
  std::mt19937_64 rng(9);
  const auto inst = make_instance<C>(300, rng);
  const Affine<C> expected = inst.expected();
  const auto on = [&](zkp::ThreadPool& pool) {
    Options o;
    o.pool = &pool;
    return msm<C>(std::span<const Affine<C>>(inst.bases), inst.scalars, o);
  };
  for (const unsigned threads : {1u, 3u}) {
    zkp::ThreadPool pool(threads);
    EXPECT_EQ(on(pool), expected) << "pool of " << threads;
    Affine<C> a, b;
    std::thread other([&] { a = on(pool); });
    b = on(pool);
    other.join();
    EXPECT_EQ(a, expected);
    EXPECT_EQ(b, expected);
    std::vector<Affine<C>> nested(2);
    pool.run(nested.size(), [&](std::size_t i) { nested[i] = on(pool); });
    for (const auto& r : nested) EXPECT_EQ(r, expected);
  }
}

// Options::scalars_read comes once, after the scalars are read and before the buckets are
// summed: a caller may free them there. Here they are overwritten then; the sum must not change.
TYPED_TEST(MsmTest, ScalarsReadComesOnceAndTheScalarsAreNotReadAfterIt) {
  using C = TypeParam;
  std::mt19937_64 rng(10);
  auto inst = make_instance<C>(300, rng);
  for (std::size_t i = 0; i < inst.size(); ++i) inst.set_scalar(i, random_scalar<typename C::Scalar>(rng));
  const Affine<C> expected = inst.expected();
  std::vector<std::uint8_t> scalars = inst.scalars;
  int calls = 0;
  Options o;
  o.threads = 2;
  o.scalars_read = [&] {
    ++calls;
    std::fill(scalars.begin(), scalars.end(), std::uint8_t{0xA5});
  };
  EXPECT_EQ(msm<C>(std::span<const Affine<C>>(inst.bases), scalars, o), expected);
  EXPECT_EQ(calls, 1);
}

// The zkey layout read in place gives the same sum as the Affine overload.
TYPED_TEST(MsmTest, BasesFromMontBytes) {
  using C = TypeParam;
  std::mt19937_64 rng(9);
  auto inst = make_instance<C>(64, rng);
  inst.bases[5] = Affine<C>::identity();
  inst.dlogs[5] = C::Scalar::zero();
  for (std::size_t i = 0; i < inst.size(); ++i) inst.set_scalar(i, random_scalar<typename C::Scalar>(rng));
  std::vector<std::uint64_t> storage(inst.size() * kAffineBytes<C> / 8);  // 8-byte aligned
  const std::span<std::uint8_t> bytes(reinterpret_cast<std::uint8_t*>(storage.data()), storage.size() * 8);
  for (std::size_t i = 0; i < inst.size(); ++i)
    encode_affine_mont<C>(inst.bases[i], bytes.subspan(i * kAffineBytes<C>).template first<kAffineBytes<C>>());
  const auto view = bases_from_mont_bytes<C>(bytes);
  ASSERT_EQ(view.size(), inst.size());
  EXPECT_EQ(msm<C>(view, inst.scalars, Options{2, 0}), inst.expected());
  EXPECT_THROW(bases_from_mont_bytes<C>(bytes.subspan(1)), std::invalid_argument);
  EXPECT_THROW(bases_from_mont_bytes<C>(bytes.first(bytes.size() - 8)), std::invalid_argument);
}

// Scalars given as Montgomery-form field elements (the NTT's output) give the same sum.
TYPED_TEST(MsmTest, FieldElementScalars) {
  using C = TypeParam;
  using Fr = typename C::Scalar;
  std::mt19937_64 rng(12);
  auto inst = make_instance<C>(100, rng);
  std::vector<Fr> fr(inst.size());
  for (std::size_t i = 0; i < inst.size(); ++i) {
    fr[i] = i % 3 == 0 ? Fr::from_u64(i % 2) : Fr::random(rng);
    inst.set_scalar(i, fr[i].to_bigint());
  }
  std::vector<Base<C>> xy;
  for (const auto& p : inst.bases) xy.push_back({p.x, p.y});
  EXPECT_EQ(msm<C>(std::span<const Base<C>>(xy), std::span<const Fr>(fr), Options{2, 0}), inst.expected());
  EXPECT_THROW(msm<C>(std::span<const Base<C>>(xy), std::span<const Fr>(fr).first(99), Options{}), std::invalid_argument);
}

TYPED_TEST(MsmTest, RejectsBadArguments) {
  using C = TypeParam;
  std::mt19937_64 rng(10);
  auto inst = make_instance<C>(3, rng);
  const std::span<const Affine<C>> bases(inst.bases);
  EXPECT_THROW(msm<C>(bases, std::span(inst.scalars).first(64), Options{}), std::invalid_argument);
  EXPECT_THROW(msm<C>(bases, inst.scalars, Options{1, 1}), std::invalid_argument);
  EXPECT_THROW(msm<C>(bases, inst.scalars, Options{1, 17}), std::invalid_argument);
}

// BucketSummer's two flushes (bucket_sum.hpp): where the CPU has IFMA, G1 and G2 batches of
// both curves run flush_by_eight, which must give the points of the scalar flush() bit for bit. Buckets of
// ±bases drawn from six, so that batches hold additions, doublings (equal points; in later
// rounds equal partial sums), cancellations (P and −P; later rounds then add the infinity to
// a point or to another infinity) and active counts that are not multiples of 8, from one job
// up to several batches. Both summers are also checked against Jacobian sums, which is what is
// left to check under ctest's ff_portable. and ff_adx. runs (no IFMA: both run flush()).
template <class C>
class BucketSumTest : public ::testing::Test {};

// Whether `got` is bucket b's sum of ±bases (entries[offsets[b] .. offsets[b + 1])), added up in
// Jacobian coordinates as the reference; `is_infinity` (if not null) says whether that sum is.
template <class C>
bool is_bucket_sum(const PointXY<typename C::Field>& got, std::span<const Affine<C>> bases,
                   std::span<const SignedIndex> entries, std::span<const std::uint32_t> offsets, std::size_t b,
                   bool* is_infinity = nullptr) {
  Jacobian<C> acc = Jacobian<C>::identity();
  for (std::uint32_t e = offsets[b]; e < offsets[b + 1]; ++e) {
    const Affine<C>& p = bases[entries[e] & ~kNegBit];
    acc += Jacobian<C>::from_affine((entries[e] & kNegBit) != 0 ? -p : p);
  }
  const Affine<C> expected = acc.to_affine();
  if (is_infinity != nullptr) *is_infinity = expected.is_identity();
  return expected.is_identity() ? got.is_infinity() : got.x == expected.x && got.y == expected.y;
}
TYPED_TEST_SUITE(BucketSumTest, Groups, GroupNames);

TYPED_TEST(BucketSumTest, EightLanesMatchTheScalarFlush) {
  using C = TypeParam;
  using F = typename C::Field;
  std::mt19937_64 rng(13);
  const auto src = make_instance<C>(6, rng);
  std::vector<PointXY<F>> bases;
  for (const auto& b : src.bases) bases.push_back({b.x, b.y});
  const SignedIndex P = 0, Q = 1, R = 2;
  // Fixed first buckets: a lone doubling, a lone cancellation, a doubling in round 2, an
  // infinity added to a point from either side, two infinities, three equal points.
  const std::vector<std::vector<SignedIndex>> fixed = {
      {P, P}, {P, P | kNegBit}, {P, Q, P, Q}, {P, P | kNegBit, Q, R}, {Q, R, P, P | kNegBit},
      {P, P | kNegBit, Q, Q | kNegBit}, {R, R, R}};
  for (const std::size_t buckets : {1, 2, 5, 7, 9, 17, 60, 700}) {
    std::vector<SignedIndex> entries;
    std::vector<std::uint32_t> offsets{0};
    for (std::size_t b = 0; b < buckets; ++b) {
      if (b < fixed.size() && buckets < 60) {
        entries.insert(entries.end(), fixed[b].begin(), fixed[b].end());
      } else {
        for (std::size_t k = rng() % 41; k > 0; --k)
          entries.push_back(static_cast<SignedIndex>(rng() % bases.size()) | (rng() % 2 != 0 ? kNegBit : 0));
      }
      offsets.push_back(static_cast<std::uint32_t>(entries.size()));
    }
    std::vector<PointXY<F>> by_eight(buckets), scalar(buckets);
    BucketSummer<F>().sum(bases, entries, offsets, by_eight);
    BucketSummer<F>(false).sum(bases, entries, offsets, scalar);
    for (std::size_t b = 0; b < buckets; ++b) {
      EXPECT_TRUE(by_eight[b].x == scalar[b].x && by_eight[b].y == scalar[b].y) << buckets << " buckets, bucket " << b;
      EXPECT_TRUE(is_bucket_sum<C>(scalar[b], src.bases, entries, offsets, b)) << buckets << " buckets, bucket " << b;
    }
  }
}

// Inputs past BucketSummer's piece size (one batch of jobs: 2340 entries for BN254 G1, fewer
// for larger points): buckets are pipelined over many batches, and a bucket larger than a
// piece is cut into pieces whose sums are then added. Every bucket must still be its Jacobian
// sum, with eight lanes and with the scalar flush.
TYPED_TEST(BucketSumTest, GroupsAndPiecesMatchJacobianSums) {
  using C = TypeParam;
  using F = typename C::Field;
  std::mt19937_64 rng(17);
  const auto src = make_instance<C>(64, rng);
  std::vector<PointXY<F>> bases;
  for (const auto& b : src.bases) bases.push_back({b.x, b.y});
  constexpr std::size_t kLarge = 40000;  // many pieces for every curve and group
  const auto random_entry = [&] {
    return static_cast<SignedIndex>(rng() % bases.size()) | (rng() % 2 != 0 ? kNegBit : 0);
  };
  std::vector<SignedIndex> entries;
  std::vector<std::uint32_t> offsets{0};
  const auto close_bucket = [&] { offsets.push_back(static_cast<std::uint32_t>(entries.size())); };
  // A large bucket first, many small ones (many pipeline steps), ones around the piece size,
  // an empty one, a large bucket that cancels to infinity (P − P pairs across the pieces),
  // small ones, a large one at the end.
  for (std::size_t k = 0; k < 2 * kLarge + 7; ++k) entries.push_back(random_entry());
  close_bucket();
  for (std::size_t b = 0; b < 600; ++b) {
    for (std::size_t k = rng() % 200; k > 0; --k) entries.push_back(random_entry());
    close_bucket();
  }
  // Around the piece size (one batch of jobs: BN254 G1 2340, G2 1170; BLS12-381 1560, 780),
  // each side of it, and the smallest buckets with rounds, in the pipeline with the others.
  for (const std::size_t k : {779, 780, 781, 1169, 1170, 1171, 1559, 1560, 1561, 2339, 2340, 2341, 4681, 2, 3}) {
    for (std::size_t i = 0; i < k; ++i) entries.push_back(random_entry());
    close_bucket();
  }
  close_bucket();
  for (std::size_t k = 0; k < kLarge; ++k) entries.push_back(static_cast<SignedIndex>(k % 5));
  for (std::size_t k = 0; k < kLarge; ++k) entries.push_back(static_cast<SignedIndex>(k % 5) | kNegBit);
  close_bucket();
  for (std::size_t b = 0; b < 3; ++b) {
    entries.push_back(random_entry());
    close_bucket();
  }
  for (std::size_t k = 0; k < kLarge + 1; ++k) entries.push_back(random_entry());
  close_bucket();
  const std::size_t buckets = offsets.size() - 1;
  std::vector<PointXY<F>> by_eight(buckets), scalar(buckets);
  BucketSummer<F> summer;
  summer.sum(bases, entries, offsets, by_eight);
  summer.sum(bases, entries, offsets, by_eight);  // the scratch reused: the same sums
  BucketSummer<F>(false).sum(bases, entries, offsets, scalar);
  std::size_t infinities = 0;
  for (std::size_t b = 0; b < buckets; ++b) {
    bool infinity = false;
    EXPECT_TRUE(is_bucket_sum<C>(by_eight[b], src.bases, entries, offsets, b, &infinity)) << "bucket " << b;
    EXPECT_TRUE(is_bucket_sum<C>(scalar[b], src.bases, entries, offsets, b)) << "bucket " << b;
    if (infinity) ++infinities;
  }
  EXPECT_GE(infinities, 2u);  // the empty bucket and the cancelling large one
}

// Σ d_w·2^(wc) = s with |d_w| ≤ 2^(c−1), d_w > −2^(c−1), for every window size.
TEST(SignedDigits, ReconstructTheScalar) {
  std::mt19937_64 rng(11);
  ScalarInt r = bn254::Fr::kModulus;
  for (unsigned c = 2; c <= 16; ++c) {
    for (int trial = 0; trial < 200; ++trial) {
      ScalarInt s;
      if (trial == 0) {
        s = r;  // 254 bits: r itself is not a folded magnitude, but the bits are what matter
        s.shr1();
      } else if (trial == 1) {
        for (std::size_t w = 0; w * c < 253; ++w)  // every window exactly 2^(c−1): the carry ties
          if (w * c + c - 1 < 253) s.limbs[(w * c + c - 1) / 64] |= std::uint64_t{1} << ((w * c + c - 1) % 64);
      } else {
        for (auto& l : s.limbs) l = rng();
        s.limbs[3] >>= 3 + rng() % 200 % 60;  // below 2^253, various lengths
      }
      const std::size_t windows = window_count(s.num_bits(), c);
      BigInt<5> pos, neg;  // Σ of positive and of negative digit terms
      for (std::size_t w = 0; w < windows; ++w) {
        const std::int32_t d = signed_digit(s, w, c);
        ASSERT_LE(d, std::int32_t{1} << (c - 1));
        ASSERT_GT(d, -(std::int32_t{1} << (c - 1)));
        BigInt<5> term = BigInt<5>::from_u64(static_cast<std::uint64_t>(d < 0 ? -d : d));
        for (std::size_t k = 0; k < w * c; ++k) term.add_in_place(BigInt<5>(term));
        (d < 0 ? neg : pos).add_in_place(term);
      }
      EXPECT_EQ(signed_digit(s, windows, c), 0) << "a carry out of the top window";
      pos.sub_in_place(neg);
      EXPECT_EQ(pos, s.resize<5>()) << "c = " << c << ", trial " << trial;
    }
  }
}

TEST(ScalarPlan, ClassifiesAndFoldsSigns) {
  const ScalarInt r = bn254::Fr::kModulus;
  std::vector<ScalarInt> in(7);
  in[0] = ScalarInt::from_u64(0);
  in[1] = ScalarInt::from_u64(1);
  in[2] = r;
  in[2].sub_in_place(ScalarInt::from_u64(1));  // r − 1 ≡ −1
  in[3] = r;
  in[3].sub_in_place(ScalarInt::from_u64(5));  // −5
  in[4] = ScalarInt::from_u64(5);
  in[5] = r;  // r ≡ 0
  in[6] = ScalarInt::from_u64(9);  // skipped base
  std::vector<std::uint8_t> bytes(in.size() * kScalarBytes);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i].to_le_bytes(std::span<std::uint8_t, kScalarBytes>(bytes.data() + i * kScalarBytes, kScalarBytes));
  const ScalarPlan plan = plan_scalars(bytes, r, [](std::size_t i) { return i == 6; });
  EXPECT_EQ(plan.units, (UninitializedVector<SignedIndex>{1, 2 | kNegBit}));
  EXPECT_EQ(plan.index, (UninitializedVector<SignedIndex>{3 | kNegBit, 4}));
  ASSERT_EQ(plan.magnitude.size(), 2u);
  EXPECT_EQ(plan.magnitude[0], ScalarInt::from_u64(5));
  EXPECT_EQ(plan.magnitude[1], ScalarInt::from_u64(5));
  EXPECT_EQ(plan.max_bits, 3u);
}

// The plan made in chunks, on one thread or several, is the plan of one pass over the scalars
// in order (built here from classify_scalar, which ClassifiesAndFoldsSigns checks), entry for
// entry: order across chunk boundaries, every class in every chunk, a chunk without units,
// skipped bases, and the largest magnitude in the last, partial chunk.
TEST(ScalarPlan, ChunkedOnThreadsIsTheSerialPlan) {
  const ScalarInt r = bn254::Fr::kModulus;
  const std::size_t n = 3 * kPlanChunk + 77;
  std::mt19937_64 rng(0x91a);
  std::vector<std::uint8_t> bytes(n * kScalarBytes);
  for (std::size_t i = 0; i < n; ++i) {
    ScalarInt s = ScalarInt::from_u64(0);
    switch (rng() % 6) {
      case 0: break;                                        // zero
      case 1: s = ScalarInt::from_u64(i < kPlanChunk || i >= 2 * kPlanChunk); break;  // 1, but none in chunk 1
      case 2: s = r; s.sub_in_place(ScalarInt::from_u64(1)); break;  // −1
      case 3: s = r; s.sub_in_place(ScalarInt::from_u64(rng() % 1000 + 2)); break;  // −k
      default: s = ScalarInt::from_u64(rng() >> (i < n - 10 ? 30 : 0)); break;  // small; 64-bit at the end
    }
    s.to_le_bytes(std::span<std::uint8_t, kScalarBytes>(bytes.data() + i * kScalarBytes, kScalarBytes));
  }
  const auto skip = [](std::size_t i) { return i % 101 == 0; };
  ScalarPlan serial;
  const ScalarBounds bounds(r);
  for (std::size_t i = 0; i < n; ++i) {
    const ScalarClass sc = classify_scalar(bytes.data() + i * kScalarBytes, i, bounds, skip(i));
    if (sc.kind == ScalarClass::unit) serial.units.push_back(sc.ref);
    if (sc.kind == ScalarClass::other) {
      serial.index.push_back(sc.ref);
      serial.magnitude.push_back(sc.magnitude);
      serial.max_bits = std::max(serial.max_bits, sc.magnitude.num_bits());
    }
  }
  ThreadPool pool(3);
  for (const ScalarPlan& plan :
       {plan_scalars(bytes, r, skip), plan_scalars(bytes, r, skip, nullptr, 4), plan_scalars(bytes, r, skip, &pool)}) {
    EXPECT_EQ(plan.units, serial.units);
    EXPECT_EQ(plan.index, serial.index);
    ASSERT_EQ(plan.magnitude.size(), serial.magnitude.size());
    for (std::size_t k = 0; k < plan.magnitude.size(); ++k) ASSERT_EQ(plan.magnitude[k], serial.magnitude[k]) << k;
    EXPECT_EQ(plan.max_bits, serial.max_bits);
  }
  EXPECT_GT(serial.max_bits, 60u);
  EXPECT_GT(serial.units.size(), n / 8);
}

}  // namespace
}  // namespace zkp::msm
