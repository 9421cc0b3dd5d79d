// BLS12-381 (snarkjs "bls12381") groups G1 ⊂ E(Fq) and G2 ⊂ E'(Fq2), both of prime order r.
//
//   E:  y² = x³ + 4            cofactor h1 = (z − 1)²/3
//   E': y² = x³ + 4(1 + u)     M-type sextic twist, cofactor h2 (IETF draft)
// with seed z = −0xd201000000010000; generators, cofactors and moduli from
// draft-irtf-cfrg-pairing-friendly-curves §4.2.1 (the zcash BLS12-381 values).
//
// Subgroup checks by endomorphism (Scott, "A note on group membership tests for G1, G2 and
// GT on BLS pairing-friendly curves", ePrint 2021/1130, §4; also EIP-2537):
//   G1: φ(P) = [−z²]P with φ(x, y) = (βx, y), β a cube root of unity in Fq;
//   G2: ψ(P) = [z]P.
// Each costs a 64- or 128-bit scalar multiplication instead of the 255-bit [r]P.
#pragma once

#include "core/ec/affine.hpp"
#include "core/ec/jacobian.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/ec/twist_frobenius.hpp"
#include "core/ec/xyzz.hpp"
#include "core/ff/bigint.hpp"
#include "core/ff/bls12_381.hpp"

namespace zkp::bls12_381 {

struct G1 {
  using Field = Fq;
  using Scalar = Fr;
  static constexpr Fq kB = Fq::from_u64(4);
  static constexpr Fq kGenX = Fq::from_hex_or_throw(
      "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
  static constexpr Fq kGenY = Fq::from_hex_or_throw(
      "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");
  static constexpr BigInt<2> kCofactor = BigInt<2>::from_hex("0x396c8c005555e1568c00aaab0000aaab");
  static constexpr const char* kName = "bls12_381.G1";
};

struct G2 {
  using Field = Fq2;
  using Scalar = Fr;
  static constexpr Fq2 kB = Fq2{Fq::from_u64(4), Fq::zero()} * Fq2::xi();
  static constexpr Fq2 kGenX{
      Fq::from_hex_or_throw("0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
      Fq::from_hex_or_throw("0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")};
  static constexpr Fq2 kGenY{
      Fq::from_hex_or_throw("0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
      Fq::from_hex_or_throw("0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")};
  static constexpr BigInt<8> kCofactor = BigInt<8>::from_hex(
      "0x5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa628f1cb4d9e82ef21537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5");
  static constexpr const char* kName = "bls12_381.G2";
  // ψ coefficients for this M-type twist: ξ^(−(q−1)/3), ξ^(−(q−1)/2) (see ec/twist_frobenius.hpp;
  // the same values as EIP-2537's fast_subgroup_checks.md).
  static constexpr Fq2 kPsiCx{Fq::zero(),
      Fq::from_hex_or_throw("0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaad")};
  static constexpr Fq2 kPsiCy{
      Fq::from_hex_or_throw("0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2"),
      Fq::from_hex_or_throw("0x06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09")};
};

using G1Affine = Affine<G1>;
using G1Jacobian = Jacobian<G1>;
using G1Xyzz = Xyzz<G1>;
using G2Affine = Affine<G2>;
using G2Jacobian = Jacobian<G2>;
using G2Xyzz = Xyzz<G2>;

// |z| and z² for the seed z = −0xd201000000010000 (negative: the checks below flip signs).
inline constexpr BigInt<1> kSeedAbs = BigInt<1>::from_u64(0xd201000000010000ULL);
inline constexpr BigInt<2> kSeedSquared = BigInt<2>::from_hex("0xac45a4010001a4020000000100000000");

// The cube root of unity β for which φ acts as [−z²] on G1 (the other root gives [z² − 1]);
// checked against [−z²]G in tests/core/gen_known_vectors.py. It is the square of the β
// printed in EIP-2537's fast_subgroup_checks.md.
inline constexpr Fq kBeta = Fq::from_hex_or_throw(
    "0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe");

// Membership of the order-r subgroup for a point already known to be on its curve.
// G1: φ(P) + [z²]P = O.
inline bool in_prime_subgroup(const G1Jacobian& p) {
  const G1Jacobian phi{p.X * kBeta, p.Y, p.Z};  // x/Z² ↦ βx/Z²
  return (phi + scalar_mul(p, kSeedSquared)).is_identity();
}
inline bool in_prime_subgroup(const G1Affine& p) { return in_prime_subgroup(G1Jacobian::from_affine(p)); }
// G2: ψ(P) + [|z|]P = O, i.e. ψ(P) = [z]P.
inline bool in_prime_subgroup(const G2Jacobian& p) { return (psi(p) + scalar_mul(p, kSeedAbs)).is_identity(); }
inline bool in_prime_subgroup(const G2Affine& p) { return in_prime_subgroup(G2Jacobian::from_affine(p)); }

}  // namespace zkp::bls12_381
