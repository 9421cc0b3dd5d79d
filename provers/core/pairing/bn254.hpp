// The BN254 pairing engine (alt_bn128, snarkjs "bn128", EIP-197): e: G1 × G2 → GT ⊂ Fq12.
//
//   Fq6  = Fq2[v]/(v³ − (9 + u)),  Fq12 = Fq6[w]/(w² − v)            (EIP-197's tower)
//   G2 on the D-type twist y² = x³ + 3/(9 + u)                       (ec/curves_bn254.hpp)
//   optimal ate: Miller loop over 6x + 2 (66 NAF digits, 22 non-zero), then the lines through
//   π(Q) and −π²(Q); seed x = 4965661367192848881 > 0.
#pragma once

#include <span>

#include "core/ec/curves_bn254.hpp"
#include "core/ff/bigint.hpp"
#include "core/pairing/engine.hpp"
#include "core/pairing/fp12.hpp"
#include "core/pairing/fp6.hpp"
#include "core/pairing/pairing.hpp"
#include "core/pairing/signed_digits.hpp"

namespace zkp::bn254 {

using Fq6 = Fp6<Fq2>;
using Fq12 = Fp12<Fq2>;
using Gt = Fq12;  // the order-r subgroup of Fq12*, written multiplicatively

struct Engine {
  using G1 = bn254::G1;
  using G2 = bn254::G2;
  using Fq = bn254::Fq;
  using Fq2 = bn254::Fq2;
  using Fq12 = bn254::Fq12;
  using Fr = bn254::Fr;
  static constexpr const char* kName = "BN254";
  static constexpr CurveFamily kFamily = CurveFamily::bn;
  static constexpr TwistType kTwist = TwistType::d_type;
  static constexpr bool kSeedNegative = false;
  // Capacities are bits + 1 (a NAF is at most one digit longer); naf_digits throws, at compile
  // time, if one is too small.
  static constexpr auto kSeedDigits = naf_digits<64>(kSeed);  // x: 63 bits
  static constexpr auto kLoopDigits = naf_digits<66>([] {
    BigInt<2> v = kSeed.resize<2>();
    v.mul_add_small(6, 2);  // 6x + 2, 65 bits
    return v;
  }());
};

}  // namespace zkp::bn254

namespace zkp {
extern template bn254::Fq12 multi_miller_loop<bn254::Engine>(std::span<const PairingInput<bn254::Engine>>);
extern template bn254::Fq12 final_exponentiation<bn254::Engine>(const bn254::Fq12&);
extern template bn254::Fq12 multi_pairing<bn254::Engine>(std::span<const PairingInput<bn254::Engine>>);
extern template bn254::Fq12 pairing<bn254::Engine>(const bn254::G1Affine&, const bn254::G2Affine&);
}  // namespace zkp
