// The pieces under the parameter file: blstrs's root of unity and domain, the Lagrange basis at
// tau, the fixed-base table, the blst point bytes and the seeded toxic waste.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "blst_point_encoding.hpp"
#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/scalar_mul.hpp"
#include "fixed_base_table.hpp"
#include "qap_at_tau.hpp"
#include "toxic_waste.hpp"

namespace {

using namespace zkp;
using namespace zkp::bellperson_setup;
using bls12_381::G1Affine;
using bls12_381::G1Jacobian;
using bls12_381::G2Affine;
using bls12_381::G2Jacobian;

std::string hex(std::span<const std::uint8_t> b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (const std::uint8_t x : b) {
    s += kDigits[x >> 4];
    s += kDigits[x & 15];
  }
  return s;
}

// The bls12_381 crate's ROOT_OF_UNITY (standard form); blstrs stores the same value in Montgomery
// form (src/scalar.rs, ROOT_OF_UNITY limbs 0xb9b58d8c5f0e466a…).
TEST(BlstrsDomain, RootOfUnityIsSevenToTheOddPartOfRMinusOne) {
  const Fr root = blstrs_two_adic_root();
  EXPECT_EQ(root, Fr::from_hex_or_throw("0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b"));
  Fr x = root;
  for (std::size_t i = 0; i + 1 < kTwoAdicity; ++i) x = x.square();
  EXPECT_EQ(x, -Fr::one());  // primitive: root^(2^31) = −1, so its order is exactly 2^32
}

TEST(BlstrsDomain, SizeIsTheNextPowerOfTwoAndOmegaHasThatOrder) {
  const std::array<std::pair<std::size_t, std::size_t>, 6> cases{
      {{1, 1}, {2, 2}, {3, 4}, {2003, 2048}, {2048, 2048}, {65537, 131072}}};
  for (const auto& [rows, m] : cases) {
    const EvaluationDomain d = evaluation_domain(rows);
    EXPECT_EQ(d.m, m) << rows;
    EXPECT_EQ(std::size_t{1} << d.log_m, m);
    EXPECT_EQ(d.omega.pow(static_cast<std::uint64_t>(m)), Fr::one()) << rows;
    if (m > 1) {
      EXPECT_EQ(d.omega.pow(static_cast<std::uint64_t>(m / 2)), -Fr::one()) << rows;
    }
  }
  EXPECT_EQ(evaluation_domain((std::size_t{1} << 31)).log_m, 31u);
  EXPECT_THROW(evaluation_domain((std::size_t{1} << 31) + 1), std::invalid_argument);  // bellperson: exp >= S
}

class Lagrange : public ::testing::TestWithParam<std::size_t> {
 protected:
  EvaluationDomain d = evaluation_domain(GetParam());
  ThreadPool pool{2};
  std::mt19937_64 rng{GetParam()};
};

TEST_P(Lagrange, SumsToOne) {
  const std::vector<Fr> l = lagrange_at(d, Fr::random(rng), pool);
  ASSERT_EQ(l.size(), d.m);
  Fr sum;
  for (const Fr& x : l) sum += x;
  EXPECT_EQ(sum, Fr::one());
}

TEST_P(Lagrange, IsKroneckerOnTheDomain) {
  for (std::size_t k = 0; k < d.m; ++k) {
    const std::vector<Fr> l = lagrange_at(d, d.omega.pow(static_cast<std::uint64_t>(k)), pool);
    for (std::size_t j = 0; j < d.m; ++j) EXPECT_EQ(l[j], j == k ? Fr::one() : Fr::zero()) << j << " " << k;
  }
}

// The textbook product Π_{k≠j} (tau − ω^k)/(ω^j − ω^k), independent of the closed form.
TEST_P(Lagrange, MatchesTheProductDefinition) {
  const Fr tau = Fr::random(rng);
  const std::vector<Fr> l = lagrange_at(d, tau, pool);
  for (std::size_t j = 0; j < d.m; ++j) {
    const Fr wj = d.omega.pow(static_cast<std::uint64_t>(j));
    Fr num = Fr::one(), den = Fr::one();
    for (std::size_t k = 0; k < d.m; ++k) {
      if (k == j) continue;
      const Fr wk = d.omega.pow(static_cast<std::uint64_t>(k));
      num *= tau - wk;
      den *= wj - wk;
    }
    EXPECT_EQ(l[j], num * den.inverse()) << j;
  }
}

// bellperson's own route: the inverse DFT of (1, tau, …, tau^(m−1)), L_j = (1/m)·Σ_i tau^i·ω^(−ij).
TEST_P(Lagrange, MatchesTheInverseDftOfPowersOfTau) {
  const Fr tau = Fr::random(rng);
  const std::vector<Fr> l = lagrange_at(d, tau, pool);
  const Fr m_inv = Fr::from_u64(d.m).inverse(), omega_inv = d.omega.inverse();
  for (std::size_t j = 0; j < d.m; ++j) {
    Fr sum, tau_i = Fr::one();
    const Fr step = omega_inv.pow(static_cast<std::uint64_t>(j));
    Fr w = Fr::one();
    for (std::size_t i = 0; i < d.m; ++i) {
      sum += tau_i * w;
      tau_i *= tau;
      w *= step;
    }
    EXPECT_EQ(l[j], sum * m_inv) << j;
  }
}

INSTANTIATE_TEST_SUITE_P(SmallDomains, Lagrange, ::testing::Values(1, 2, 4, 8, 16, 64),
                         [](const auto& info) { return "rows" + std::to_string(info.param); });

// m = 8192 spans several of lagrange_at's parallel chunks (1024 points each, one batch inversion
// and one ω^begin per chunk): the sum, and the product definition at the chunk edges.
TEST(LagrangeLargeDomain, ChunkEdgesMatchTheProductDefinition) {
  const EvaluationDomain d = evaluation_domain(5000);
  ASSERT_EQ(d.m, 8192u);
  ThreadPool pool(2);
  std::mt19937_64 rng(5000);
  const Fr tau = Fr::random(rng);
  const std::vector<Fr> l = lagrange_at(d, tau, pool);
  Fr sum;
  for (const Fr& x : l) sum += x;
  EXPECT_EQ(sum, Fr::one());
  std::vector<Fr> w(d.m);
  w[0] = Fr::one();
  for (std::size_t k = 1; k < d.m; ++k) w[k] = w[k - 1] * d.omega;
  for (const std::size_t j : {0u, 1u, 1023u, 1024u, 1025u, 4095u, 4096u, 8191u}) {
    Fr num = Fr::one(), den = Fr::one();
    for (std::size_t k = 0; k < d.m; ++k) {
      if (k == j) continue;
      num *= tau - w[k];
      den *= w[j] - w[k];
    }
    EXPECT_EQ(l[j], num * den.inverse()) << j;
  }
}

// Scalars that exercise every window: zero, one, r − 1, a single top bit, random ones.
std::vector<Fr> probe_scalars() {
  std::mt19937_64 rng(99);
  std::vector<Fr> s{Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(4096), Fr::from_u64(4095),
                    Fr::from_hex_or_throw("0x4000000000000000000000000000000000000000000000000000000000000000")};
  for (int i = 0; i < 8; ++i) s.push_back(Fr::random(rng));
  return s;
}

TEST(FixedBaseTable, EqualsWnafScalarMulInG1ForEveryWindow) {
  ThreadPool pool(2);
  for (const unsigned w : {1u, 3u, 7u, 8u, 12u}) {
    const FixedBaseTable<bls12_381::G1> t(G1Affine::generator(), w, pool);
    for (const Fr& k : probe_scalars())
      EXPECT_EQ(t.mul(k).to_affine(), (G1Jacobian::generator() * k).to_affine()) << "w " << w << " k " << k.to_decimal();
  }
}

TEST(FixedBaseTable, EqualsWnafScalarMulInG2) {
  ThreadPool pool(2);
  for (const unsigned w : {5u, 11u}) {
    const FixedBaseTable<bls12_381::G2> t(G2Affine::generator(), w, pool);
    for (const Fr& k : probe_scalars())
      EXPECT_EQ(t.mul(k).to_affine(), (G2Jacobian::generator() * k).to_affine()) << "w " << w << " k " << k.to_decimal();
  }
}

TEST(FixedBaseTable, RefusesWindowsOutsideOneToSixteenBits) {
  ThreadPool pool(1);
  EXPECT_THROW(FixedBaseTable<bls12_381::G1>(G1Affine::generator(), 0, pool), std::invalid_argument);
  EXPECT_THROW(FixedBaseTable<bls12_381::G1>(G1Affine::generator(), 17, pool), std::invalid_argument);
}

TEST(FixedBaseTable, WindowGrowsWithTheNumberOfProductsUpToTheCap) {
  EXPECT_LE(best_window_bits(1, Fr::kBits), 2u);
  EXPECT_LT(best_window_bits(1000, Fr::kBits), best_window_bits(1 << 16, Fr::kBits));
  EXPECT_EQ(best_window_bits(std::size_t{1} << 30, Fr::kBits), 12u);
}

// The generators' uncompressed bytes: the coordinates of the IETF draft (§4.2.1) big-endian,
// G2 with the c1 half first (the compressed G2 generator famously starts 0x93e02b60…: 0x80 | 0x13).
TEST(BlstEncoding, GeneratorsAreBigEndianWithC1FirstAndNoFlags) {
  std::array<std::uint8_t, kG1UncompressedBytes> g1{};
  encode_uncompressed(G1Affine::generator(), g1);
  EXPECT_EQ(hex(g1),
            "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
            "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");
  std::array<std::uint8_t, kG2UncompressedBytes> g2{};
  encode_uncompressed(G2Affine::generator(), g2);
  EXPECT_EQ(hex(g2),
            "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
            "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
            "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
            "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801");
}

TEST(BlstEncoding, InfinityIsTheInfinityFlagThenZeros) {
  std::array<std::uint8_t, kG1UncompressedBytes> g1{};
  g1.fill(0xff);
  encode_uncompressed(G1Affine::identity(), g1);
  EXPECT_EQ(g1[0], kFlagInfinity);
  for (std::size_t i = 1; i < g1.size(); ++i) EXPECT_EQ(g1[i], 0) << i;
  std::array<std::uint8_t, kG2UncompressedBytes> g2{};
  g2.fill(0xff);
  encode_uncompressed(G2Affine::identity(), g2);
  EXPECT_EQ(g2[0], kFlagInfinity);
  for (std::size_t i = 1; i < g2.size(); ++i) EXPECT_EQ(g2[i], 0) << i;
}

TEST(ToxicWaste, SeedFixesTheValuesAndTheJsonHasThem) {
  const ToxicWaste a = draw_toxic_waste(1), b = draw_toxic_waste(1), c = draw_toxic_waste(2);
  EXPECT_EQ(a.tau, b.tau);
  EXPECT_EQ(a.delta, b.delta);
  EXPECT_NE(a.tau, c.tau);
  EXPECT_NE(a.tau, a.alpha);  // five draws, not one value five times
  // The first draw is Fr::random of a fresh mt19937_64(1), in that order.
  std::mt19937_64 rng(1);
  EXPECT_EQ(a.tau, Fr::random(rng));
  EXPECT_EQ(a.alpha, Fr::random(rng));
  const std::string json = toxic_waste_json(a, 1);
  for (const Fr* v : {&a.tau, &a.alpha, &a.beta, &a.gamma, &a.delta})
    EXPECT_NE(json.find('"' + v->to_decimal() + '"'), std::string::npos);
  EXPECT_NE(json.find("\"tau\": \"" + a.tau.to_decimal() + "\""), std::string::npos);
}

}  // namespace
