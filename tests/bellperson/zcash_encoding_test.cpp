// The zcash encodings of BLS12-381 points (core/ec/zcash_encoding.hpp) against the bls12_381
// crate's own test vectors (src/tests/*_valid_test_vectors.dat: [i]G for i = 0..999, of which
// a few are copied here), and every way a decoder must refuse bytes.
#include "core/ec/zcash_encoding.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "support.hpp"

namespace zkp::bellperson::test {
namespace {

using zcash::kCompressedBytes;
using zcash::kUncompressedBytes;

// From the bls12_381 crate's test vectors, index i = [i]G.
constexpr std::string_view kG1Uncompressed1 =
    "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
constexpr std::string_view kG1Uncompressed2 =
    "0572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e"
    "166a9d8cabc673a322fda673779d8e3822ba3ecb8670e461f73bb9021d5fd76a4c56d9d4cd16bd1bba86881979749d28";
// [1]G has the sort bit clear, [2]G and [3]G set.
constexpr std::array<std::string_view, 3> kG1Compressed = {
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb",
    "a572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e",
    "89ece308f9d1f0131765212deca99697b112d61f9be9a5f1f3780a51335b3ff981747a0b2ca2179b96d2c0c9024e5224"};
constexpr std::string_view kG2Uncompressed1 =
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
    "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
    "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";
constexpr std::string_view kG2Uncompressed2 =
    "0a4edef9c1ed7f729f520e47730a124fd70662a904ba1074728114d1031e1572c6c886f6b57ec72a6178288c47c33577"
    "1638533957d540a9d2370f17cc7ed5863bc0b995b8825e0ee1ea1e1e4d00dbae81f14b0bf3611b78c952aacab827a053"
    "0f6d4552fa65dd2638b361543f887136a43253d9c66c411697003f7a13c308f5422e1aa0a59c8967acdefd8b6e36ccf3"
    "0468fb440d82b0630aeb8dca2b5256789a66da69bf91009cbfe6bd221e47aa8ae88dece9764bf3bd999d95d71e4c9899";
constexpr std::array<std::string_view, 2> kG2Compressed = {
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8",
    "aa4edef9c1ed7f729f520e47730a124fd70662a904ba1074728114d1031e1572c6c886f6b57ec72a6178288c47c33577"
    "1638533957d540a9d2370f17cc7ed5863bc0b995b8825e0ee1ea1e1e4d00dbae81f14b0bf3611b78c952aacab827a053"};

template <class C>
std::array<std::uint8_t, kUncompressedBytes<C>> uncompressed(const Affine<C>& p) {
  std::array<std::uint8_t, kUncompressedBytes<C>> b;
  zcash::encode_uncompressed<C>(p, b);
  return b;
}
template <class C>
std::array<std::uint8_t, kCompressedBytes<C>> compressed(const Affine<C>& p) {
  std::array<std::uint8_t, kCompressedBytes<C>> b;
  zcash::encode_compressed<C>(p, b);
  return b;
}

// Decodes into an `out` that starts as [7]G, so a failed decode is seen to leave it alone.
template <class C, std::size_t N>
PointStatus decode(const std::array<std::uint8_t, N>& b, PointCheck check, Affine<C>* result = nullptr) {
  const Affine<C> sentinel = multiples<C>(1, 7)[0];
  Affine<C> out = sentinel;
  PointStatus s;
  if constexpr (N == kUncompressedBytes<C>)
    s = zcash::decode_uncompressed<C>(b, out, check);
  else
    s = zcash::decode_compressed<C>(b, out, check);
  if (s != PointStatus::ok) {
    EXPECT_EQ(out, sentinel) << "a failed decode wrote its output";
  }
  if (result != nullptr) *result = out;
  return s;
}

template <std::size_t N>
std::array<std::uint8_t, N> bytes(std::string_view hex) {
  const auto v = from_hex(hex);
  if (v.size() != N) throw std::invalid_argument("vector of the wrong length");
  std::array<std::uint8_t, N> out;
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

template <std::size_t N>
std::string hex(const std::array<std::uint8_t, N>& b) {
  return to_hex(b.data(), N);
}

TEST(ZcashEncoding, GeneratorsAndMultiplesMatchTheCrate) {
  const auto g1 = multiples<G1>(3);
  const auto g2 = multiples<G2>(2);
  EXPECT_EQ(hex(uncompressed(g1[0])), kG1Uncompressed1);
  EXPECT_EQ(hex(uncompressed(g1[1])), kG1Uncompressed2);
  EXPECT_EQ(hex(uncompressed(g2[0])), kG2Uncompressed1);
  EXPECT_EQ(hex(uncompressed(g2[1])), kG2Uncompressed2);
  for (std::size_t i = 0; i < kG1Compressed.size(); ++i) EXPECT_EQ(hex(compressed(g1[i])), kG1Compressed[i]) << i;
  for (std::size_t i = 0; i < kG2Compressed.size(); ++i) EXPECT_EQ(hex(compressed(g2[i])), kG2Compressed[i]) << i;
}

TEST(ZcashEncoding, CrateVectorsDecodeToTheMultiples) {
  const auto g1 = multiples<G1>(3);
  const auto g2 = multiples<G2>(2);
  Affine<G1> p1;
  Affine<G2> p2;
  EXPECT_EQ(decode<G1>(bytes<96>(kG1Uncompressed2), PointCheck::subgroup, &p1), PointStatus::ok);
  EXPECT_EQ(p1, g1[1]);
  EXPECT_EQ(decode<G2>(bytes<192>(kG2Uncompressed2), PointCheck::subgroup, &p2), PointStatus::ok);
  EXPECT_EQ(p2, g2[1]);
  for (std::size_t i = 0; i < kG1Compressed.size(); ++i) {
    EXPECT_EQ(decode<G1>(bytes<48>(kG1Compressed[i]), PointCheck::subgroup, &p1), PointStatus::ok);
    EXPECT_EQ(p1, g1[i]) << i;
  }
  for (std::size_t i = 0; i < kG2Compressed.size(); ++i) {
    EXPECT_EQ(decode<G2>(bytes<96>(kG2Compressed[i]), PointCheck::subgroup, &p2), PointStatus::ok);
    EXPECT_EQ(p2, g2[i]) << i;
  }
}

TEST(ZcashEncoding, InfinityEncodings) {
  // The crate's [0]G: 0x40 then zeros uncompressed, 0xc0 then zeros compressed.
  const std::string zeros(2 * 47, '0');
  EXPECT_EQ(hex(uncompressed(Affine<G1>::identity())), "40" + zeros + std::string(96, '0'));
  EXPECT_EQ(hex(compressed(Affine<G1>::identity())), "c0" + zeros);
  EXPECT_EQ(hex(compressed(Affine<G2>::identity())), "c0" + zeros + std::string(96, '0'));
  Affine<G1> p1;
  Affine<G2> p2;
  EXPECT_EQ(decode<G1>(uncompressed(Affine<G1>::identity()), PointCheck::subgroup, &p1), PointStatus::ok);
  EXPECT_TRUE(p1.infinity);
  EXPECT_EQ(decode<G2>(compressed(Affine<G2>::identity()), PointCheck::subgroup, &p2), PointStatus::ok);
  EXPECT_TRUE(p2.infinity);
  EXPECT_EQ(decode<G2>(uncompressed(Affine<G2>::identity()), PointCheck::subgroup, &p2), PointStatus::ok);
  EXPECT_TRUE(p2.infinity);
}

template <class C>
void round_trip_many() {
  // Multiples 1..40 cover both sort-bit values and (G2) both halves of the c1/c0 comparison.
  int sorted = 0;
  for (const Affine<C>& p : multiples<C>(40)) {
    Affine<C> back;
    EXPECT_EQ(decode<C>(uncompressed(p), PointCheck::subgroup, &back), PointStatus::ok);
    EXPECT_EQ(back, p);
    const auto c = compressed(p);
    sorted += (c[0] & zcash::kFlagSort) != 0;
    EXPECT_EQ(decode<C>(c, PointCheck::subgroup, &back), PointStatus::ok);
    EXPECT_EQ(back, p);
    const auto n = compressed(-p);  // the other root: only the sort bit differs
    EXPECT_EQ(n[0] ^ c[0], zcash::kFlagSort);
    EXPECT_EQ(decode<C>(n, PointCheck::subgroup, &back), PointStatus::ok);
    EXPECT_EQ(back, -p);
  }
  EXPECT_GT(sorted, 0);
  EXPECT_LT(sorted, 40);
}
TEST(ZcashEncoding, RoundTripG1) { round_trip_many<G1>(); }
TEST(ZcashEncoding, RoundTripG2) { round_trip_many<G2>(); }

TEST(ZcashEncoding, LexicographicOrder) {
  using zcash::lexicographically_largest;
  auto half = Fq::kModulus;
  half.shr1();  // (q − 1)/2
  const Fq h = *Fq::from_bigint(half);
  EXPECT_FALSE(lexicographically_largest(Fq::zero()));
  EXPECT_FALSE(lexicographically_largest(Fq::one()));
  EXPECT_FALSE(lexicographically_largest(h));
  EXPECT_TRUE(lexicographically_largest(h + Fq::one()));
  EXPECT_TRUE(lexicographically_largest(-Fq::one()));
  // Fq2: c1 decides unless it is zero.
  EXPECT_TRUE(lexicographically_largest(Fq2{Fq::one(), -Fq::one()}));
  EXPECT_FALSE(lexicographically_largest(Fq2{-Fq::one(), Fq::one()}));
  EXPECT_TRUE(lexicographically_largest(Fq2{-Fq::one(), Fq::zero()}));
  EXPECT_FALSE(lexicographically_largest(Fq2{Fq::one(), Fq::zero()}));
}

template <class C>
void flag_errors() {
  const Affine<C> g = Affine<C>::generator();
  auto u = uncompressed(g);
  u[0] |= zcash::kFlagCompressed;
  EXPECT_EQ(decode<C>(u, PointCheck::canonical), PointStatus::bad_flags);
  u = uncompressed(g);
  u[0] |= zcash::kFlagSort;
  EXPECT_EQ(decode<C>(u, PointCheck::canonical), PointStatus::bad_flags);
  u = uncompressed(g);
  u[0] |= zcash::kFlagInfinity;  // infinity flag on a finite point's bytes
  EXPECT_EQ(decode<C>(u, PointCheck::canonical), PointStatus::bad_infinity);
  u = uncompressed(Affine<C>::identity());
  u.back() = 1;
  EXPECT_EQ(decode<C>(u, PointCheck::canonical), PointStatus::bad_infinity);

  auto c = compressed(g);
  c[0] &= static_cast<std::uint8_t>(~zcash::kFlagCompressed);
  EXPECT_EQ(decode<C>(c, PointCheck::canonical), PointStatus::bad_flags);
  c = compressed(Affine<C>::identity());
  c[0] |= zcash::kFlagSort;
  EXPECT_EQ(decode<C>(c, PointCheck::canonical), PointStatus::bad_infinity);
  c = compressed(Affine<C>::identity());
  c[1] = 1;
  EXPECT_EQ(decode<C>(c, PointCheck::canonical), PointStatus::bad_infinity);
  c = compressed(g);
  c[0] |= zcash::kFlagInfinity;
  EXPECT_EQ(decode<C>(c, PointCheck::canonical), PointStatus::bad_infinity);
  // The uncompressed infinity read as compressed lacks the compression flag.
  std::array<std::uint8_t, kCompressedBytes<C>> inf{};
  inf[0] = zcash::kFlagInfinity;
  EXPECT_EQ(decode<C>(inf, PointCheck::canonical), PointStatus::bad_flags);
}
TEST(ZcashEncoding, FlagErrorsG1) { flag_errors<G1>(); }
TEST(ZcashEncoding, FlagErrorsG2) { flag_errors<G2>(); }

// q itself, big-endian: the smallest non-canonical coordinate.
std::array<std::uint8_t, Fq::kBytes> modulus_be() {
  std::array<std::uint8_t, Fq::kBytes> b;
  Fq::kModulus.to_le_bytes(b);
  std::reverse(b.begin(), b.end());
  return b;
}

TEST(ZcashEncoding, NonCanonicalCoordinates) {
  const auto q = modulus_be();
  // Every 48-byte coordinate slot in turn: G1 x, y; G2 x.c1, x.c0, y.c1, y.c0.
  for (std::size_t slot = 0; slot < 2; ++slot) {
    auto u = uncompressed(Affine<G1>::generator());
    std::copy(q.begin(), q.end(), u.begin() + 48 * slot);
    EXPECT_EQ(decode<G1>(u, PointCheck::canonical), PointStatus::non_canonical) << slot;
  }
  for (std::size_t slot = 0; slot < 4; ++slot) {
    auto u = uncompressed(Affine<G2>::generator());
    std::copy(q.begin(), q.end(), u.begin() + 48 * slot);
    EXPECT_EQ(decode<G2>(u, PointCheck::canonical), PointStatus::non_canonical) << slot;
  }
  auto c1 = compressed(Affine<G1>::generator());
  std::copy(q.begin(), q.end(), c1.begin());
  c1[0] |= zcash::kFlagCompressed;
  EXPECT_EQ(decode<G1>(c1, PointCheck::canonical), PointStatus::non_canonical);
  for (std::size_t slot = 0; slot < 2; ++slot) {
    auto c2 = compressed(Affine<G2>::generator());
    std::copy(q.begin(), q.end(), c2.begin() + 48 * slot);
    c2[0] |= zcash::kFlagCompressed;
    EXPECT_EQ(decode<G2>(c2, PointCheck::canonical), PointStatus::non_canonical) << slot;
  }
}

template <class C>
void off_curve() {
  Affine<C> p = Affine<C>::generator();
  p.y = p.y + C::Field::one();
  const auto u = uncompressed(p);
  EXPECT_EQ(decode<C>(u, PointCheck::on_curve), PointStatus::not_on_curve);
  EXPECT_EQ(decode<C>(u, PointCheck::subgroup), PointStatus::not_on_curve);
  Affine<C> back;
  EXPECT_EQ(decode<C>(u, PointCheck::canonical, &back), PointStatus::ok);  // trusted input is not checked
  EXPECT_EQ(back, p);
  // (0, 0): all-zero bytes without the infinity flag.
  EXPECT_EQ(decode<C>(std::array<std::uint8_t, kUncompressedBytes<C>>{}, PointCheck::on_curve),
            PointStatus::not_on_curve);
  // A compressed x with no y.
  Affine<C> q = Affine<C>::generator();
  q.x = x_off_curve<C>();
  EXPECT_EQ(decode<C>(compressed(q), PointCheck::canonical), PointStatus::not_on_curve);
}
TEST(ZcashEncoding, OffCurveG1) { off_curve<G1>(); }
TEST(ZcashEncoding, OffCurveG2) { off_curve<G2>(); }

template <class C>
void outside_subgroup() {
  const Affine<C> p = off_subgroup_point<C>();
  ASSERT_TRUE(p.is_on_curve());
  Affine<C> back;
  EXPECT_EQ(decode<C>(uncompressed(p), PointCheck::subgroup), PointStatus::not_in_subgroup);
  EXPECT_EQ(decode<C>(uncompressed(p), PointCheck::on_curve, &back), PointStatus::ok);
  EXPECT_EQ(back, p);
  EXPECT_EQ(decode<C>(compressed(p), PointCheck::subgroup), PointStatus::not_in_subgroup);
  EXPECT_EQ(decode<C>(compressed(p), PointCheck::on_curve, &back), PointStatus::ok);
  EXPECT_EQ(back, p);
}
TEST(ZcashEncoding, OutsideTheSubgroupG1) { outside_subgroup<G1>(); }
TEST(ZcashEncoding, OutsideTheSubgroupG2) { outside_subgroup<G2>(); }

}  // namespace
}  // namespace zkp::bellperson::test
