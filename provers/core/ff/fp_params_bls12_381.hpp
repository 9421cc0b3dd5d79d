// Field parameters of BLS12-381 (snarkjs/ffjavascript "bls12381"; the zcash/IETF
// pairing-friendly-curves draft, draft-irtf-cfrg-pairing-friendly-curves §4.2.1).
#pragma once

#include <cstdint>

#include "core/ff/bigint.hpp"

namespace zkp::bls12_381 {

// Base field Fq, 381 bits.
struct FqParams {
  static constexpr BigInt<6> kModulus = BigInt<6>::from_hex(
      "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab");
  static constexpr const char* kName = "bls12_381.Fq";
  // The tower over Fq2 = Fq[u]/(u² + 1) uses ξ = 1 + u (the draft's §4.2.1; G2 is y² = x³ + 4ξ).
  static constexpr std::uint64_t kXiC0 = 1;
  static constexpr std::uint64_t kXiC1 = 1;
};

// Scalar field Fr, 255 bits, the order of G1 and G2. r − 1 = 2^32·t.
struct FrParams {
  static constexpr BigInt<4> kModulus =
      BigInt<4>::from_hex("0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001");
  static constexpr const char* kName = "bls12_381.Fr";
  // As for BN254: ffjavascript's smallest non-residue is again 5 (checked with ffjavascript
  // 0.3.1, Fr.w[32] = 937917089079007706106976984802249742464848817460758522850752807661925904159).
  // Note this differs from the multiplicative generator 7 that zcash/arkworks use, so
  // their roots of unity differ from snarkjs's.
  static constexpr std::uint64_t kRootOfUnityBase = 5;
  static constexpr BigInt<4> kTwoAdicRoot =
      BigInt<4>::from_hex("0x0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f");
};

}  // namespace zkp::bls12_381
