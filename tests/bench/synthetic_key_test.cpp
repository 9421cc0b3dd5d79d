// `zkpipe bench --synthetic`'s generator, checked on its own: the fixed-base table gives the
// same products as wNAF scalar multiplication (both curves, G1 and G2, edge scalars and random
// ones); the key is a zkey that read_zkey accepts with every point checked on the curve and in
// the subgroup, with the documented shape; the assignment satisfies the chain. That its proofs
// verify is checked end to end by bench.synthetic (our verifier) and bench.synthetic_snarkjs.
#include "bench/fixed_base_table.hpp"
#include "bench/synthetic_key.hpp"
#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/curves_bn254.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/formats/zkey.hpp"
#include "core/groth16/point_check.hpp"
#include "core/util/thread_pool.hpp"

#include <gtest/gtest.h>

#include <random>

namespace zkp::cli::bench {
namespace {

constexpr int kRandomScalars = 16;

template <CurveParams C>
void expect_table_matches_wnaf() {
  using Fr = typename C::Scalar;
  const FixedBaseTable<C> table(Affine<C>::generator());
  std::mt19937_64 rng(7);
  std::vector<Fr> scalars{Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(255), Fr::from_u64(256)};
  for (int i = 0; i < kRandomScalars; ++i) scalars.push_back(Fr::random(rng));
  for (const Fr& k : scalars) EXPECT_TRUE(table.mul(k) == Jacobian<C>::generator() * k);
}

TEST(BenchSyntheticKey, FixedBaseTableEqualsWnaf) {
  expect_table_matches_wnaf<bn254::G1>();
  expect_table_matches_wnaf<bn254::G2>();
  expect_table_matches_wnaf<bls12_381::G1>();
  expect_table_matches_wnaf<bls12_381::G2>();
}

template <class Fr>
void expect_chain(const SyntheticKey& key) {
  auto value = [&](uint32_t wire) {
    return Fr::from_bytes_reduce(std::span<const uint8_t, Fr::kBytes>(
        reinterpret_cast<const uint8_t*>(key.assignment.data()) + wire * Fr::kBytes, Fr::kBytes));
  };
  ASSERT_EQ(key.assignment.size(), std::size_t{key.n_vars} * Fr::kBytes);
  EXPECT_TRUE(value(0).is_one());
  EXPECT_TRUE(value(1) == Fr::from_u64(kSyntheticChainStart));
  for (uint32_t w = 2; w < key.n_vars; ++w) ASSERT_TRUE(value(w) == value(w - 1).square()) << w;
}

void expect_key(const SyntheticSpec& spec, Curve curve) {
  const SyntheticKey key = make_synthetic_key(spec, 2);
  const uint32_t n = uint32_t{1} << spec.log2;
  EXPECT_EQ(key.domain_size, n);
  EXPECT_EQ(key.constraints, n - 2);
  EXPECT_EQ(key.n_vars, n);
  EXPECT_EQ(key.threads, 2u);
  EXPECT_GT(key.seconds, 0);
  ThreadPool pool(2);
  ZkeyReadOptions options;
  options.validate_points = groth16::make_point_validator(PointCheck::subgroup, pool);
  const Zkey zkey = read_zkey(ByteSource::borrow(key.zkey, "synthetic"), options);
  EXPECT_EQ(zkey.header().curve, curve);
  EXPECT_EQ(zkey.header().n_vars, key.n_vars);
  EXPECT_EQ(zkey.header().n_public, 1u);
  EXPECT_EQ(zkey.header().domain_size, n);
  EXPECT_EQ(zkey.coefficients().size(), 2 * key.constraints + 2);
  if (curve == Curve::bn254) expect_chain<bn254::Fr>(key);
  else expect_chain<bls12_381::Fr>(key);
}

TEST(BenchSyntheticKey, IsAZkeyOfTheDocumentedShapeWithValidPoints) {
  expect_key({SyntheticCurve::bn254, 6}, Curve::bn254);
  expect_key({SyntheticCurve::bls12_381, 6}, Curve::bls12_381);
}

TEST(BenchSyntheticKey, SameSpecSameKey) {
  const SyntheticSpec spec{SyntheticCurve::bn254, kMinSyntheticLog2};
  EXPECT_EQ(make_synthetic_key(spec, 1).zkey, make_synthetic_key(spec, 2).zkey);
}

}  // namespace
}  // namespace zkp::cli::bench
