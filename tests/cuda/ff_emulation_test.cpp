// The device field and curve code, run on the CPU through the emulated carry flag
// (cuda/ff/ptx.cuh), against the host types it twins: every algorithm of cuda/ff and
// cuda/ec is checked here on any machine. The PTX instructions themselves are checked by
// the same comparisons on a GPU (device_ff_test, device_ec_test).
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "cuda/ec/curves.cuh"
#include "cuda/ff/fields.cuh"
#include "cuda/ff/fp_f64.cuh"
#include "cuda/ff/inverse.cuh"
#include "core/ec/scalar_mul.hpp"

namespace zkp::cuda {
namespace {

template <class D>
class EmulatedField : public ::testing::Test {};
using Fields = ::testing::Types<bn254::Fq, bn254::Fr, bn254::Fq2, bls12_381::Fq, bls12_381::Fr, bls12_381::Fq2>;
TYPED_TEST_SUITE(EmulatedField, Fields);

// Values where carries and final subtractions are most likely to go wrong.
template <class H>
std::vector<H> edge_values() {
  return {H::zero(), H::one(), -H::one(), H::one() + H::one(), -(H::one() + H::one())};
}

TYPED_TEST(EmulatedField, MatchesHostOnRandomAndEdgeInputs) {
  using D = TypeParam;
  using H = typename D::Host;
  std::mt19937_64 rng(0xf1e1d);
  std::vector<H> values = edge_values<H>();
  for (int i = 0; i < 400; ++i) values.push_back(H::random(rng));
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j : {i, (i * 7 + 3) % values.size(), (i + 1) % values.size()}) {
      const H a = values[i], b = values[j];
      const D da = D::from_host(a), db = D::from_host(b);
      ASSERT_EQ((da * db).to_host(), a * b) << "mul " << i << "," << j;
      ASSERT_EQ((da + db).to_host(), a + b) << "add " << i << "," << j;
      ASSERT_EQ((da - db).to_host(), a - b) << "sub " << i << "," << j;
      ASSERT_EQ(da.square().to_host(), a.square()) << "sqr " << i;
      ASSERT_EQ((-da).to_host(), -a) << "neg " << i;
      ASSERT_EQ(da.dbl().to_host(), a.dbl()) << "dbl " << i;
      ASSERT_EQ(da.is_zero(), a.is_zero());
      ASSERT_EQ(da == db, a == b);
    }
  }
}

TYPED_TEST(EmulatedField, InverseMatchesHost) {
  using D = TypeParam;
  using H = typename D::Host;
  std::mt19937_64 rng(0x1a1);
  std::vector<H> values = edge_values<H>();
  for (int i = 0; i < 20; ++i) values.push_back(H::random(rng));
  for (const H& a : values) ASSERT_EQ(D::from_host(a).inverse().to_host(), a.inverse());
}

// Stored (Montgomery) limb patterns for the safegcd inverse, which works on the stored
// integer a·R: tiny and huge values, every power of two and 2^k − 1 below p, p − 2^k,
// long runs of zero and one bits, alternating bits, R, R², R³ mod p, small standard values.
template <class H>
std::vector<H> inverse_edge_values() {
  using Int = typename H::Int;
  constexpr std::size_t bits = H::kBits;
  std::vector<H> out = edge_values<H>();
  const auto add_stored = [&](const Int& v) {
    if (v < H::kModulus) out.push_back(H::from_mont_unchecked(v));
  };
  const auto pow2 = [](std::size_t k) {
    Int v{};
    v.limbs[k / 64] = std::uint64_t{1} << (k % 64);
    return v;
  };
  const auto ones = [](std::size_t lo, std::size_t hi) {  // bits [lo, hi) set
    Int v{};
    for (std::size_t k = lo; k < hi; ++k) v.limbs[k / 64] |= std::uint64_t{1} << (k % 64);
    return v;
  };
  for (std::uint64_t s : {0ull, 1ull, 2ull, 3ull, 5ull, 7ull, 0x3fffffffull, 0x40000000ull, 0xffffffffull}) {
    add_stored(Int::from_u64(s));
  }
  for (std::size_t k = 0; k < bits; ++k) {
    add_stored(pow2(k));
    add_stored(ones(0, k));
    Int v = H::kModulus;
    v.sub_in_place(pow2(k));
    add_stored(v);  // p − 2^k: p's low bits with a hole
  }
  for (std::size_t k : {std::size_t{1}, std::size_t{2}, std::size_t{30}, std::size_t{31}, std::size_t{32},
                        std::size_t{60}, std::size_t{64}, bits / 2}) {
    add_stored(ones(k, bits - 1));   // a long run of ones above k zeros
    add_stored(ones(bits - 1 - k, bits - 1));  // ones in the top bits only
    Int v = H::kModulus;
    v.sub_in_place(Int::from_u64(k));
    add_stored(v);  // p − k
  }
  for (std::uint64_t pattern : {0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull, 0x3fffffffc0000000ull}) {
    Int v{};
    for (auto& l : v.limbs) l = pattern;
    v.limbs[H::kLimbs - 1] &= (std::uint64_t{1} << ((bits - 1) % 64)) - 1;
    add_stored(v);
  }
  add_stored(H::kR1);
  add_stored(H::kR2);
  add_stored(H::kR3);
  Int half = H::kModulus;  // (p − 1)/2 and (p + 1)/2
  half.shr1();
  add_stored(half);
  half.add_in_place(Int::from_u64(1));
  add_stored(half);
  for (std::uint64_t s = 1; s <= 64; ++s) {
    out.push_back(H::from_u64(s));
    out.push_back(-H::from_u64(s));
  }
  return out;
}

template <class D>
class EmulatedInverse : public ::testing::Test {};
TYPED_TEST_SUITE(EmulatedInverse, Fields);

template <class H>
std::vector<H> inverse_test_values(std::mt19937_64& rng, int random_count) {
  std::vector<H> values;
  if constexpr (requires { H::kModulus; }) {
    values = inverse_edge_values<H>();
  } else {  // Fp2: edge values of the base field in either coordinate, and mixed
    using B = typename H::Base;
    const std::vector<B> base = inverse_edge_values<B>();
    for (std::size_t i = 0; i < base.size(); ++i) {
      values.push_back(H{base[i], B::zero()});
      values.push_back(H{B::zero(), base[i]});
      values.push_back(H{base[i], base[(i * 7 + 3) % base.size()]});
    }
  }
  for (int i = 0; i < random_count; ++i) values.push_back(H::random(rng));
  return values;
}

// inverse_safegcd (cuda/ff/inverse.cuh) agrees with Fermat's inverse() bit for bit, on
// thousands of random values and on the edge values above; zero maps to zero.
TYPED_TEST(EmulatedInverse, SafegcdMatchesFermat) {
  using D = TypeParam;
  using H = typename D::Host;
  std::mt19937_64 rng(0x5afe6cd);
  const std::vector<H> values = inverse_test_values<H>(rng, 2000);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const D a = D::from_host(values[i]);
    ASSERT_EQ(inverse_safegcd(a), a.inverse()) << "value " << i;
  }
  EXPECT_TRUE(inverse_safegcd(D::zero()).is_zero());
  EXPECT_EQ(inverse_safegcd(D::one()), D::one());
}

// a·a^{−1} = 1 for nonzero a, and the result matches the host's binary-GCD inverse.
TYPED_TEST(EmulatedInverse, SafegcdIsAnInverse) {
  using D = TypeParam;
  using H = typename D::Host;
  std::mt19937_64 rng(0x1a2b);
  const std::vector<H> values = inverse_test_values<H>(rng, 3000);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i].is_zero()) continue;
    const D a = D::from_host(values[i]);
    const D inv = inverse_safegcd(a);
    ASSERT_EQ(a * inv, D::one()) << "value " << i;
    ASSERT_EQ(inv.to_host(), values[i].inverse()) << "value " << i;
  }
}

TEST(EmulatedField, CondNegNegatesOnlyWhenAsked) {
  std::mt19937_64 rng(5);
  const auto a = zkp::bls12_381::Fq::random(rng);
  const auto d = bls12_381::Fq::from_host(a);
  EXPECT_EQ(d.cond_neg(true).to_host(), -a);
  EXPECT_EQ(d.cond_neg(false).to_host(), a);
  EXPECT_TRUE(bls12_381::Fq::zero().cond_neg(true).is_zero());
}

template <class C>
class EmulatedCurve : public ::testing::Test {};
using Curves = ::testing::Types<zkp::bn254::G1, zkp::bn254::G2, zkp::bls12_381::G1, zkp::bls12_381::G2>;
TYPED_TEST_SUITE(EmulatedCurve, Curves);

template <class C>
zkp::Affine<C> random_point(std::mt19937_64& rng) {
  return scalar_mul(zkp::Jacobian<C>::generator(), C::Scalar::random(rng).to_bigint()).to_affine();
}

// Bit-exact agreement (same formulas, same reduced representation), including the
// special cases P = Q, P = −Q and the identity on either side.
TYPED_TEST(EmulatedCurve, XyzzOpsMatchHostBitForBit) {
  using C = TypeParam;
  using HX = zkp::Xyzz<C>;
  std::mt19937_64 rng(0xec);
  for (int i = 0; i < 24; ++i) {
    const zkp::Affine<C> a = random_point<C>(rng);
    zkp::Affine<C> b = random_point<C>(rng);
    if (i % 4 == 1) b = a;
    if (i % 4 == 2) b = -a;
    if (i % 8 == 3) b = zkp::Affine<C>::identity();
    HX p = HX::from_affine(a).dbl();  // a point with ZZ ≠ 1
    if (i % 8 == 7) p = HX::identity();
    const HX q = HX::from_affine(b);
    const auto dp = to_device<C>(p), dq = to_device<C>(q);
    const auto same = [](const auto& d, const HX& h) { return std::memcmp(&d, &h, sizeof(h)) == 0 || (d.is_identity() && h.is_identity()); };
    EXPECT_TRUE(same(dp.dbl(), p.dbl())) << "dbl " << i;
    EXPECT_TRUE(same(dp + dq, p + q)) << "add " << i;
    EXPECT_TRUE(same(dq + dq, q + q)) << "add P+P " << i;
    EXPECT_TRUE(same(dp.add_mixed(to_device<C>(b)), p.add_mixed(b))) << "madd " << i;
    const HX pa = HX::from_affine(a);
    EXPECT_TRUE(same(to_device<C>(pa).add_mixed(to_device<C>(a)), pa.add_mixed(a))) << "madd P+P " << i;
    EXPECT_TRUE(same(to_device<C>(pa).add_mixed(to_device<C>(-a)), pa.add_mixed(-a))) << "madd P-P " << i;
    EXPECT_TRUE(to_device<C>(pa).add_mixed(to_device<C>(-a)).is_identity());
  }
}

// The FP64-pipe product (cuda/ff/fp_f64.cuh): exact double arithmetic, so the host runs
// the device's algorithm bit for bit. Products of reduced values, and long chains of
// products of its own lazy (signed-limb, |value| < p) outputs, against the host field.
TEST(EmulatedFieldF64, ProductsMatchTheHostField) {
  using H = zkp::bls12_381::Fq;
  using D = FpF64<zkp::bls12_381::FqParams>;
  std::mt19937_64 rng(0xd0f64);
  std::vector<H> values = edge_values<H>();
  for (int i = 0; i < 2000; ++i) values.push_back(H::random(rng));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const H a = values[i], b = values[(i * 13 + 5) % values.size()];
    ASSERT_EQ(D::from_host(a).to_host(), a) << i;
    ASSERT_EQ((D::from_host(a) * D::from_host(b)).to_host(), a * b) << i;
    ASSERT_EQ((D::from_host(a) * D::from_host(a)).to_host(), a * a) << i;
  }
}

TEST(EmulatedFieldF64, LazyChainsStayExact) {
  using H = zkp::bls12_381::Fq;
  using D = FpF64<zkp::bls12_381::FqParams>;
  std::mt19937_64 rng(0xc4a1);
  for (int chain = 0; chain < 20; ++chain) {
    H h = H::random(rng), m = chain == 0 ? -H::one() : H::random(rng);
    D d = D::from_host(h);
    const D dm = D::from_host(m);
    for (int i = 0; i < 500; ++i) {
      h = h * m;
      d = d * dm;
      if (i % 3 == 0) d = d * d, h = h * h;
      for (double limb : d.l) ASSERT_LE(std::fabs(limb), 281474976710656.0) << "limb out of range at " << i;
    }
    ASSERT_EQ(d.to_host(), h) << "chain " << chain;
  }
}

}  // namespace
}  // namespace zkp::cuda
