// Field parameters of BN254 (alt_bn128; snarkjs/ffjavascript "bn128"; EIP-196/197).
// Moduli as in EIP-196 §"Encoding" and ffjavascript src/bn128.js.
#pragma once

#include <cstdint>

#include "core/ff/bigint.hpp"

namespace zkp::bn254 {

// Base field Fq, q = 21888242871839275222246405745257275088696311157297823662689037894645226208583.
struct FqParams {
  static constexpr BigInt<4> kModulus =
      BigInt<4>::from_hex("0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47");
  static constexpr const char* kName = "bn254.Fq";
  // The tower over Fq2 = Fq[u]/(u² + 1) uses ξ = 9 + u (EIP-197; a non-square, non-cube in Fq2).
  static constexpr std::uint64_t kXiC0 = 9;
  static constexpr std::uint64_t kXiC1 = 1;
};

// Scalar field Fr, r = 21888242871839275222246405745257275088548364400416034343698204186575808495617,
// the order of G1 and G2. r − 1 = 2^28·t.
struct FrParams {
  static constexpr BigInt<4> kModulus =
      BigInt<4>::from_hex("0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001");
  static constexpr const char* kName = "bn254.Fr";
  // ffjavascript (WasmField1 constructor) takes the smallest quadratic non-residue from 2
  // upward, nqr = 5, and sets w[s] = nqr^t with r − 1 = 2^s·t. Checked with ffjavascript
  // 0.3.1 (snarkjs 0.7.6): Fr.w[28] = 19103219067921713944291392827692070036145651957329286315305642004821462161904.
  // The root is a literal because a constexpr pow costs ~1 s of compile time per use;
  // tests/core checks kTwoAdicRoot = kRootOfUnityBase^t and the ffjavascript value.
  static constexpr std::uint64_t kRootOfUnityBase = 5;
  static constexpr BigInt<4> kTwoAdicRoot =
      BigInt<4>::from_hex("0x2a3c09f0a58a7e8500e0a7eb8ef62abc402d111e41112ed49bd61b6e725b19f0");
};

}  // namespace zkp::bn254
