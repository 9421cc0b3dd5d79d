// The BLS12-381 pairing engine (snarkjs "bls12381"): e: G1 × G2 → GT ⊂ Fq12.
//
//   Fq6  = Fq2[v]/(v³ − (1 + u)),  Fq12 = Fq6[w]/(w² − v)     (draft-irtf-cfrg-pairing-friendly-curves §4.2.1)
//   G2 on the M-type twist y² = x³ + 4(1 + u)                  (ec/curves_bls12_381.hpp)
//   optimal ate: Miller loop over |x| = 0xd201000000010000 (65 NAF digits, 6 non-zero), then
//   conjugation since x < 0.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>

#include "core/ec/curves_bls12_381.hpp"
#include "core/ff/bigint.hpp"
#include "core/pairing/engine.hpp"
#include "core/pairing/fp12.hpp"
#include "core/pairing/fp6.hpp"
#include "core/pairing/pairing.hpp"
#include "core/pairing/signed_digits.hpp"

namespace zkp::bls12_381 {

using Fq6 = Fp6<Fq2>;
using Fq12 = Fp12<Fq2>;
using Gt = Fq12;  // the order-r subgroup of Fq12*, written multiplicatively

struct Engine {
  using G1 = bls12_381::G1;
  using G2 = bls12_381::G2;
  using Fq = bls12_381::Fq;
  using Fq2 = bls12_381::Fq2;
  using Fq12 = bls12_381::Fq12;
  using Fr = bls12_381::Fr;
  static constexpr const char* kName = "BLS12-381";
  static constexpr CurveFamily kFamily = CurveFamily::bls12;
  static constexpr TwistType kTwist = TwistType::m_type;
  static constexpr bool kSeedNegative = true;
  // Capacities are bits + 1 (a NAF is at most one digit longer); naf_digits throws, at compile
  // time, if one is too small.
  static constexpr auto kSeedDigits = naf_digits<65>(kSeedAbs);  // |x|: 64 bits
  static constexpr auto kLoopDigits = kSeedDigits;
  // λ3 = (x − 1)²/3 = (|x| + 1)²/3 for the hard part of the final exponentiation (final_exp.hpp).
  static constexpr auto kLambda3Digits = naf_digits<127>([] {  // 126 bits
    const std::uint64_t x_abs_plus_one = kSeedAbs.limbs[0] + 1;
    BigInt<2> v = BigInt<2>::from_u64(x_abs_plus_one);
    v.mul_add_small(x_abs_plus_one, 0);
    if (v.div_small(3) != 0) throw std::logic_error("(x - 1)^2 is not divisible by 3");
    return v;
  }());
};

}  // namespace zkp::bls12_381

namespace zkp {
extern template bls12_381::Fq12 multi_miller_loop<bls12_381::Engine>(
    std::span<const PairingInput<bls12_381::Engine>>);
extern template bls12_381::Fq12 final_exponentiation<bls12_381::Engine>(const bls12_381::Fq12&);
extern template bls12_381::Fq12 multi_pairing<bls12_381::Engine>(std::span<const PairingInput<bls12_381::Engine>>);
extern template bls12_381::Fq12 pairing<bls12_381::Engine>(const bls12_381::G1Affine&,
                                                           const bls12_381::G2Affine&);
}  // namespace zkp
