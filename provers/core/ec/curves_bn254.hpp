// BN254 (alt_bn128, snarkjs "bn128") groups G1 ⊂ E(Fq) and G2 ⊂ E'(Fq2), both of prime order r.
//
//   E:  y² = x³ + 3           generator (1, 2)                       (EIP-196)
//   E': y² = x³ + 3/(9 + u)   D-type sextic twist, generator of EIP-197
//
// E(Fq) has prime order r (cofactor 1). E'(Fq2) has order r·(2q − r), so G2 needs a real
// subgroup check: ψ(P) = [6x²]P with x the BN seed (El Housni, Guillevic, Piellard,
// ePrint 2022/352, §4.3; gnark-crypto uses the same test) — one 127-bit scalar
// multiplication instead of the 254-bit [r]P.
#pragma once

#include "core/ec/affine.hpp"
#include "core/ec/jacobian.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/ec/twist_frobenius.hpp"
#include "core/ec/xyzz.hpp"
#include "core/ff/bigint.hpp"
#include "core/ff/bn254.hpp"

namespace zkp::bn254 {

struct G1 {
  using Field = Fq;
  using Scalar = Fr;
  static constexpr Fq kB = Fq::from_u64(3);
  static constexpr Fq kGenX = Fq::from_u64(1);
  static constexpr Fq kGenY = Fq::from_u64(2);
  static constexpr BigInt<1> kCofactor = BigInt<1>::from_u64(1);
  static constexpr const char* kName = "bn254.G1";
};

struct G2 {
  using Field = Fq2;
  using Scalar = Fr;
  // 3/(9 + u); tests/core checks it against the division.
  static constexpr Fq2 kB{Fq::from_hex_or_throw("0x2b149d40ceb8aaae81be18991be06ac3b5b4c5e559dbefa33267e6dc24a138e5"),
                          Fq::from_hex_or_throw("0x9713b03af0fed4cd2cafadeed8fdf4a74fa084e52d1852e4a2bd0685c315d2")};
  // EIP-197, "Definition of the groups": P2 = (x.c0 + x.c1·u, y.c0 + y.c1·u) — note EIP-197
  // lists the imaginary part first; these are (c0, c1) as snarkjs stores them.
  static constexpr Fq2 kGenX{
      Fq::from_decimal_or_throw("10857046999023057135944570762232829481370756359578518086990519993285655852781"),
      Fq::from_decimal_or_throw("11559732032986387107991004021392285783925812861821192530917403151452391805634")};
  static constexpr Fq2 kGenY{
      Fq::from_decimal_or_throw("8495653923123431417604973247489272438418190587263600148770280649306958101930"),
      Fq::from_decimal_or_throw("4082367875863433681332203403145435568316851327593401208105741076214120093531")};
  // 2q − r = #E'(Fq2)/r.
  static constexpr BigInt<4> kCofactor =
      BigInt<4>::from_hex("0x30644e72e131a029b85045b68181585e06ceecda572a2489345f2299c0f9fa8d");
  static constexpr const char* kName = "bn254.G2";
  // ψ coefficients for this D-type twist: ξ^((q−1)/3), ξ^((q−1)/2) (see ec/twist_frobenius.hpp).
  static constexpr Fq2 kPsiCx{Fq::from_hex_or_throw("0x2fb347984f7911f74c0bec3cf559b143b78cc310c2c3330c99e39557176f553d"),
                              Fq::from_hex_or_throw("0x16c9e55061ebae204ba4cc8bd75a079432ae2a1d0b7c9dce1665d51c640fcba2")};
  static constexpr Fq2 kPsiCy{Fq::from_hex_or_throw("0x063cf305489af5dcdc5ec698b6e2f9b9dbaae0eda9c95998dc54014671a0135a"),
                              Fq::from_hex_or_throw("0x07c03cbcac41049a0704b5a7ec796f2b21807dc98fa25bd282d37f632623b0e3")};
};

using G1Affine = Affine<G1>;
using G1Jacobian = Jacobian<G1>;
using G1Xyzz = Xyzz<G1>;
using G2Affine = Affine<G2>;
using G2Jacobian = Jacobian<G2>;
using G2Xyzz = Xyzz<G2>;

// BN seed x = 4965661367192848881 and 6x², the eigenvalue of ψ on G2 (q ≡ 6x² mod r).
inline constexpr BigInt<1> kSeed = BigInt<1>::from_u64(4965661367192848881ULL);
inline constexpr BigInt<2> kSixSeedSquared = BigInt<2>::from_hex("0x6f4d8248eeb859fbf83e9682e87cfd46");

// Membership of the order-r subgroup for a point already known to be on its curve.
inline bool in_prime_subgroup(const G1Jacobian&) { return true; }  // cofactor 1
inline bool in_prime_subgroup(const G1Affine&) { return true; }
inline bool in_prime_subgroup(const G2Jacobian& p) { return psi(p) == scalar_mul(p, kSixSeedSquared); }
inline bool in_prime_subgroup(const G2Affine& p) { return in_prime_subgroup(G2Jacobian::from_affine(p)); }

}  // namespace zkp::bn254
