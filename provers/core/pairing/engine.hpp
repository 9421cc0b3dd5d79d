// What a pairing engine provides: one struct per curve (bn254::Engine, bls12_381::Engine in
// pairing/bn254.hpp and pairing/bls12_381.hpp) bundling the groups, the tower and the fixed
// integers of the optimal ate pairing. The generic code (miller_loop.hpp, final_exp.hpp,
// verify.hpp) is written once against this concept.
#pragma once

#include <concepts>
#include <cstddef>

#include "core/ec/curve.hpp"
#include "core/ec/twist_frobenius.hpp"

namespace zkp {

// Which optimal ate pairing (Vercauteren, "Optimal pairings", IEEE TIT 56(1), 2010):
//   bn:    f_{6x+2,Q}(P)·ℓ_{[6x+2]Q, π(Q)}(P)·ℓ_{[6x+2]Q+π(Q), −π²(Q)}(P)    (Barreto–Naehrig)
//   bls12: f_{x,Q}(P)                                                     (Barreto–Lynn–Scott, k = 12)
// each raised to (q¹² − 1)/r.
enum class CurveFamily { bn, bls12 };

template <class E>
concept PairingEngine = requires {
  requires CurveParams<typename E::G1>;
  requires CurveParams<typename E::G2>;
  typename E::Fq;
  typename E::Fq2;
  typename E::Fq12;
  typename E::Fr;
  { E::kFamily } -> std::convertible_to<CurveFamily>;
  { E::kTwist } -> std::convertible_to<TwistType>;
  { E::kSeedNegative } -> std::convertible_to<bool>;       // sign of the seed x
  E::kSeedDigits;                                           // NAF of |x|
  E::kLoopDigits;                                           // NAF of the Miller loop length: 6x+2 or |x|
  { E::kName } -> std::convertible_to<const char*>;
};

}  // namespace zkp
