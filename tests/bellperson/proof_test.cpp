// bellperson's 192-byte compressed proofs (core/bellperson/proof.hpp).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "core/bellperson/proof.hpp"
#include "support.hpp"

namespace zkp::bellperson::test {
namespace {

using Bytes = std::array<std::uint8_t, kProofBytes>;

Proof sample() { return {multiples<G1>(1, 1)[0], multiples<G2>(1, 2)[0], multiples<G1>(1, 3)[0]}; }

Bytes bytes_of(const Proof& p) {
  Bytes b;
  write_proof(p, b);
  return b;
}

// Reads into a proof that starts as sample() negated, to see that failures leave it alone.
ProofReadResult read(const Bytes& b, Proof* result = nullptr) {
  const Proof s = sample();
  Proof out{-s.a, -s.b, -s.c};
  const ProofReadResult r = read_proof(b, out);
  if (!r.ok()) {
    EXPECT_EQ(out.a, -s.a);
    EXPECT_EQ(out.b, -s.b);
    EXPECT_EQ(out.c, -s.c);
  }
  if (result != nullptr) *result = out;
  return r;
}

TEST(BellpersonProof, LayoutIsACompressedBCompressedC) {
  // [1]G1 | [2]G2 | [3]G1, each as the bls12_381 crate's test vectors compress them.
  const std::string want =
      "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
      "aa4edef9c1ed7f729f520e47730a124fd70662a904ba1074728114d1031e1572c6c886f6b57ec72a6178288c47c33577"
      "1638533957d540a9d2370f17cc7ed5863bc0b995b8825e0ee1ea1e1e4d00dbae81f14b0bf3611b78c952aacab827a053"
      "89ece308f9d1f0131765212deca99697b112d61f9be9a5f1f3780a51335b3ff981747a0b2ca2179b96d2c0c9024e5224";
  const Bytes b = bytes_of(sample());
  EXPECT_EQ(to_hex(b.data(), b.size()), want);
}

TEST(BellpersonProof, RoundTrip) {
  for (std::uint64_t k = 1; k < 6; ++k) {
    const Proof p{multiples<G1>(1, k)[0], multiples<G2>(1, k + 7)[0], multiples<G1>(1, 3 * k)[0]};
    Proof back;
    const auto r = read(bytes_of(p), &back);
    EXPECT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(back.a, p.a);
    EXPECT_EQ(back.b, p.b);
    EXPECT_EQ(back.c, p.c);
  }
}

TEST(BellpersonProof, RefusesInfinity) {
  Proof p = sample();
  p.b = Affine<G2>::identity();
  const auto r = read(bytes_of(p));
  EXPECT_EQ(r.status, PointStatus::at_infinity);
  EXPECT_EQ(r.message(), "B: point at infinity where a finite point is required");
}

TEST(BellpersonProof, RefusesPointsOutsideTheSubgroup) {
  Proof p = sample();
  p.c = off_subgroup_point<G1>();
  EXPECT_EQ(read(bytes_of(p)).message(), "C: point not in the prime-order subgroup");
  p = sample();
  p.b = off_subgroup_point<G2>();
  EXPECT_EQ(read(bytes_of(p)).message(), "B: point not in the prime-order subgroup");
}

TEST(BellpersonProof, RefusesBadBytes) {
  Bytes b = bytes_of(sample());
  b[0] &= static_cast<std::uint8_t>(~zcash::kFlagCompressed);
  EXPECT_EQ(read(b).message(), "A: flag bits wrong for this encoding (compression or sort bit)");
  Proof p = sample();
  p.c.x = x_off_curve<G1>();
  EXPECT_EQ(read(bytes_of(p)).message(), "C: point not on the curve");
  b = bytes_of(sample());
  std::fill(b.begin() + 48, b.begin() + 144, std::uint8_t{0xff});  // B's x.c1 = 2^381 − 1 ≥ q
  b[48] = zcash::kFlagCompressed | 0x1f;
  EXPECT_EQ(read(b).message(), "B: coordinate not below the field modulus");
  EXPECT_EQ(ProofReadResult{}.message(), "ok");
}

}  // namespace
}  // namespace zkp::bellperson::test
