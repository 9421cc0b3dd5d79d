// The Montgomery kernels of provers/core/ff/montgomery.hpp against references that share
// no code with them: schoolbook products and bit-serial long division on plain integers
// (written here), and the pre-rewrite CIOS kernels (mont_baseline.hpp). Random operands
// plus the edge values where carry and final-subtraction bugs live: 0, 1, 2, p − 1, p − 2,
// (p ± 1)/2, R mod p, R² mod p, values with every bit below p's top bit set, limbs of all
// ones, and near-p values that make the result land next to p.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "core/ff/montgomery.hpp"
#include "mont_baseline.hpp"

namespace zkp {
namespace {

// --- plain-integer reference ------------------------------------------------------------

// x mod p by shift-and-subtract over the bits of x, most significant first.
template <std::size_t M, std::size_t N>
BigInt<N> mod_ref(const BigInt<M>& x, const BigInt<N>& p) {
  BigInt<N + 1> rem, pw = p.template resize<N + 1>();
  for (std::size_t i = 64 * M; i-- > 0;) {
    rem.add_in_place(rem);  // rem < p < 2^(64N), so doubling fits in N + 1 limbs
    if (x.bit(i)) rem.limbs[0] |= 1;
    if (rem >= pw) rem.sub_in_place(pw);
  }
  return rem.template resize<N>();
}

// Schoolbook a·b, 2N limbs.
template <std::size_t N>
BigInt<2 * N> mul_wide(const BigInt<N>& a, const BigInt<N>& b) {
  BigInt<2 * N> r;
  for (std::size_t i = 0; i < N; ++i) {
    std::uint64_t c = 0;
    for (std::size_t j = 0; j < N; ++j) {
      const uint128_t v = uint128_t{a.limbs[i]} * b.limbs[j] + r.limbs[i + j] + c;
      r.limbs[i + j] = static_cast<std::uint64_t>(v);
      c = static_cast<std::uint64_t>(v >> 64);
    }
    r.limbs[i + N] = c;
  }
  return r;
}

// The Montgomery product r = a·b·R^{−1} mod p is the unique r < p with r·R ≡ a·b (mod p):
// compare (r·2^(64N)) mod p with (a·b) mod p, both by long division.
template <std::size_t N>
bool is_mont_product(const BigInt<N>& r, const BigInt<N>& a, const BigInt<N>& b, const BigInt<N>& p) {
  if (r >= p) return false;
  BigInt<2 * N> shifted;
  for (std::size_t i = 0; i < N; ++i) shifted.limbs[N + i] = r.limbs[i];
  return mod_ref(shifted, p) == mod_ref(mul_wide(a, b), p);
}

template <std::size_t N>
BigInt<N> add_ref(const BigInt<N>& a, const BigInt<N>& b, const BigInt<N>& p) {
  BigInt<N + 1> s = a.template resize<N + 1>();
  s.add_in_place(b.template resize<N + 1>());
  return mod_ref(s, p);
}

template <std::size_t N>
BigInt<N> sub_ref(const BigInt<N>& a, const BigInt<N>& b, const BigInt<N>& p) {
  BigInt<N + 1> s = a.template resize<N + 1>();  // a + p − b, non-negative
  s.add_in_place(p.template resize<N + 1>());
  s.sub_in_place(b.template resize<N + 1>());
  return mod_ref(s, p);
}

// --- operands ---------------------------------------------------------------------------

template <class F>
std::vector<typename F::Int> edge_values() {
  using Int = typename F::Int;
  constexpr std::size_t N = F::kLimbs;
  const Int p = F::kModulus;
  const Int one = Int::from_u64(1), two = Int::from_u64(2);
  Int pm1 = p, pm2 = p;
  pm1.sub_in_place(one);
  pm2.sub_in_place(two);
  Int half = pm1, half_up = p;  // (p − 1)/2 and (p + 1)/2
  half.shr1();
  half_up.add_in_place(one);
  half_up.shr1();
  // Every bit below p's top bit set: the largest all-ones value under p.
  Int ones_below;
  for (std::size_t i = 0; i + 1 < F::kBits; ++i) ones_below.limbs[i / 64] |= std::uint64_t{1} << (i % 64);
  // p's top limb with all-ones lower limbs, minus what it takes to stay below p.
  Int top_heavy = p;
  for (std::size_t i = 0; i + 1 < N; ++i) top_heavy.limbs[i] = ~std::uint64_t{0};
  top_heavy.limbs[N - 1] -= 1;
  // Low limbs all ones, top limb zero.
  Int low_ones;
  for (std::size_t i = 0; i + 1 < N; ++i) low_ones.limbs[i] = ~std::uint64_t{0};
  // Only the top bit below p's top bit.
  Int top_bit;
  top_bit.limbs[(F::kBits - 2) / 64] = std::uint64_t{1} << ((F::kBits - 2) % 64);
  return {Int{}, one, two, pm1, pm2, half, half_up, F::kR1, F::kR2, F::kR3, ones_below, top_heavy, low_ones, top_bit};
}

// Uniform below p, or (one draw in four) biased towards values just under p.
template <class F>
typename F::Int random_value(std::mt19937_64& rng) {
  auto v = F::random(rng).mont();
  if (rng() % 4 == 0) {
    auto near = F::kModulus;
    near.sub_in_place(F::Int::from_u64(1 + rng() % 1000));
    v = near;
  }
  return v;
}

template <class F>
class MontTest : public ::testing::Test {};
using MontFields = ::testing::Types<bn254::Fq, bn254::Fr, bls12_381::Fq, bls12_381::Fr>;
struct MontNames {
  template <class F>
  static std::string GetName(int) {
    return F::Params::kName;
  }
};
TYPED_TEST_SUITE(MontTest, MontFields, MontNames);

template <class F>
void check_all_ops(const typename F::Int& a, const typename F::Int& b) {
  constexpr std::size_t N = F::kLimbs;
  constexpr auto P = F::kModulus;
  constexpr auto Inv = F::kInv;
  SCOPED_TRACE(a.to_hex() + " , " + b.to_hex());
  const auto prod = mont::mul<N, P, Inv>(a, b);
  EXPECT_TRUE(is_mont_product(prod, a, b, P));
  EXPECT_EQ(prod, (test::mont_baseline::mul<N, P, Inv>(a, b)));
  // Both kernels mul() dispatches between, by name, whichever this CPU and ZKPIPE_FF_KERNEL select.
  EXPECT_EQ(prod, (mont::mul_portable<N, P, Inv>(a, b)));
#if defined(ZKPIPE_MONT_ADX_DISPATCH)
  if (mont::detect_cpu_kernels().adx) {
    EXPECT_EQ(prod, (mont::mul_adx<N, P, Inv>(a, b)));
  }
#endif
  const auto sq = mont::sqr<N, P, Inv>(a);
  EXPECT_TRUE(is_mont_product(sq, a, a, P));
  EXPECT_EQ(sq, (test::mont_baseline::sqr<N, P, Inv>(a)));
  EXPECT_EQ((mont::add<N, P>(a, b)), add_ref(a, b, P));
  EXPECT_EQ((mont::sub<N, P>(a, b)), sub_ref(a, b, P));
  EXPECT_EQ((mont::sub<N, P>(b, a)), sub_ref(b, a, P));
}

TYPED_TEST(MontTest, EdgeValuePairsMatchReference) {
  const auto edges = edge_values<TypeParam>();
  for (const auto& v : edges) ASSERT_LT(v, TypeParam::kModulus);
  for (const auto& a : edges)
    for (const auto& b : edges) check_all_ops<TypeParam>(a, b);
}

TYPED_TEST(MontTest, RandomOperandsMatchReference) {
  std::mt19937_64 rng(20240611);
  const auto edges = edge_values<TypeParam>();
  for (int i = 0; i < 3000; ++i) {
    const auto a = random_value<TypeParam>(rng);
    const auto b = i % 3 == 0 ? edges[rng() % edges.size()] : random_value<TypeParam>(rng);
    check_all_ops<TypeParam>(a, b);
  }
}

// A long dependent chain, as in the NTT and the bucket sums: one wrong carry anywhere
// propagates, so the end values disagree.
TYPED_TEST(MontTest, LongChainsMatchBaseline) {
  constexpr std::size_t N = TypeParam::kLimbs;
  constexpr auto P = TypeParam::kModulus;
  constexpr auto Inv = TypeParam::kInv;
  std::mt19937_64 rng(7);
  auto x = random_value<TypeParam>(rng), y = x;
  const auto k = random_value<TypeParam>(rng);
  for (int i = 0; i < 20000; ++i) {
    x = mont::add<N, P>(mont::sqr<N, P, Inv>(mont::sub<N, P>(mont::mul<N, P, Inv>(x, k), k)), x);
    y = test::mont_baseline::add<N, P>(
        test::mont_baseline::sqr<N, P, Inv>(test::mont_baseline::sub<N, P>(test::mont_baseline::mul<N, P, Inv>(y, k), k)),
        y);
  }
  EXPECT_EQ(x, y);
}

// Constant evaluation takes the portable carry code, run time the add-with-carry builtins:
// both must give the same limbs.
template <class F>
constexpr typename F::Int const_product() {
  return mont::mul<F::kLimbs, F::kModulus, F::kInv>(F::kR2, F::kR3);
}
template <class F>
constexpr typename F::Int const_difference() {
  return mont::sub<F::kLimbs, F::kModulus>(F::kR1, F::kR3);
}

TYPED_TEST(MontTest, CompileTimeAndRunTimeAgree) {
  constexpr auto P = TypeParam::kModulus;
  constexpr auto ct_prod = const_product<TypeParam>();
  constexpr auto ct_diff = const_difference<TypeParam>();
  volatile std::uint64_t sink = 0;  // keeps the run-time operands opaque to the optimiser
  auto r2 = TypeParam::kR2, r3 = TypeParam::kR3, r1 = TypeParam::kR1;
  for (auto* v : {&r1, &r2, &r3})
    for (auto& l : v->limbs) l += sink;
  EXPECT_EQ((mont::mul<TypeParam::kLimbs, P, TypeParam::kInv>(r2, r3)), ct_prod);
  EXPECT_EQ((mont::sub<TypeParam::kLimbs, P>(r1, r3)), ct_diff);
  EXPECT_TRUE(is_mont_product(ct_prod, TypeParam::kR2, TypeParam::kR3, P));
}

TEST(CarryHelpersTest, AddAndSubtractWithCarryAtTheWordBoundary) {
  constexpr std::uint64_t kMax = ~std::uint64_t{0};
  std::uint64_t c = 1;
  EXPECT_EQ(add_carry(kMax, 0, c), 0u);
  EXPECT_EQ(c, 1u);
  c = 1;
  EXPECT_EQ(add_carry(kMax, kMax, c), kMax);
  EXPECT_EQ(c, 1u);
  c = 0;
  EXPECT_EQ(add_carry(1, 2, c), 3u);
  EXPECT_EQ(c, 0u);
  std::uint64_t b = 1;
  EXPECT_EQ(sub_borrow(0, 0, b), kMax);
  EXPECT_EQ(b, 1u);
  b = 1;
  EXPECT_EQ(sub_borrow(5, 4, b), 0u);
  EXPECT_EQ(b, 0u);
  b = 0;
  EXPECT_EQ(sub_borrow(0, kMax, b), 1u);
  EXPECT_EQ(b, 1u);
}

}  // namespace
}  // namespace zkp
