// The optimal ate pairing e: G1 × G2 → GT ⊂ Fq12*, generic over a PairingEngine.
//
//   pairing<E>(P, Q)                  e(P, Q)
//   multi_pairing<E>(pairs)           Π e(P_i, Q_i): one shared Miller loop, one final exponentiation
//   multi_miller_loop<E>(pairs), final_exponentiation<E>(f): the two halves (miller_loop.hpp,
//                                     final_exp.hpp), for callers that combine loops
//
// e is bilinear (e([a]P, [b]Q) = e(P, Q)^(ab)), non-degenerate on the generators, and equals
// the reduced pairing f^((q¹² − 1)/r) exactly (final_exp.hpp). Inputs must be in G1 and G2:
// call in_prime_subgroup (ec/curves_*.hpp) on untrusted points first. Variable time; nothing
// here handles secrets.
//
// The curve headers pairing/bn254.hpp and pairing/bls12_381.hpp define the engines and declare
// these templates as instantiated once in the library (extern template), so including this file
// through them costs no compile time.
#pragma once

#include <span>

#include "core/pairing/engine.hpp"
#include "core/pairing/final_exp.hpp"
#include "core/pairing/miller_loop.hpp"

namespace zkp {

template <PairingEngine E>
typename E::Fq12 multi_pairing(std::span<const PairingInput<E>> pairs) {
  return final_exponentiation<E>(multi_miller_loop<E>(pairs));
}

template <PairingEngine E>
typename E::Fq12 pairing(const Affine<typename E::G1>& p, const Affine<typename E::G2>& q) {
  const PairingInput<E> in[] = {{p, q}};
  return multi_pairing<E>(in);
}

}  // namespace zkp
