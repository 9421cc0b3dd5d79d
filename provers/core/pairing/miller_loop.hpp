// The Miller loop of the optimal ate pairing, for several (P, Q) pairs at once.
//
// A product of pairings Π e(P_i, Q_i) needs one Miller loop per pair but they can share the
// squarings of f: per loop digit, f ← f² once, then each pair multiplies in its own line
// (Granger, Smart, "On computing products of pairings", ePrint 2006/172). The final
// exponentiation is then done once for the product. For n pairs and a loop of L doublings with
// h non-zero digits after the leading one, the cost is
//   L Fq12 squarings + n·L doubling steps + n·h addition steps + n·(L + h) sparse products.
// BN254: L = 65 (NAF of 6x + 2, h = 21) plus 2 Frobenius addition
// steps per pair; BLS12-381: L = 64 (|x| = 0xd201000000010000, h = 5).
//
// Every Q_i must be in G2 (order r) and every P_i in G1: the projective formulas assume that no
// intermediate T equals ±Q, which holds because T = [k]Q with 1 < k < r throughout. Pairs with
// a point at infinity contribute 1 and are skipped. Variable time.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "core/ec/affine.hpp"
#include "core/pairing/engine.hpp"
#include "core/pairing/line_functions.hpp"

namespace zkp {

template <PairingEngine E>
struct PairingInput {
  Affine<typename E::G1> p;
  Affine<typename E::G2> q;
};

template <PairingEngine E>
typename E::Fq12 multi_miller_loop(std::span<const PairingInput<E>> pairs) {
  using Fq = typename E::Fq;
  using Fq12 = typename E::Fq12;
  using G2 = typename E::G2;
  constexpr TwistType kTwist = E::kTwist;

  struct PairState {
    G2Homogeneous<G2> t;  // running multiple of Q
    Affine<G2> q, neg_q;
    Fq xp, yp;
  };
  std::vector<PairState> st;
  st.reserve(pairs.size());
  for (const auto& in : pairs) {
    if (in.p.is_identity() || in.q.is_identity()) continue;
    st.push_back({G2Homogeneous<G2>::from_affine(in.q), in.q, -in.q, in.p.x, in.p.y});
  }

  Fq12 f = Fq12::one();
  const auto& loop = E::kLoopDigits;
  // digit[0] = 1 is T = Q itself; each later digit doubles T and then adds d·Q.
  for (std::size_t i = 1; i < loop.size; ++i) {
    if (i > 1) f = f.square();  // f = 1 before the first step
    for (auto& s : st) f = mul_by_line<kTwist>(f, s.t.double_step(), s.xp, s.yp);
    if (loop.digit[i] == 1) {
      for (auto& s : st) f = mul_by_line<kTwist>(f, s.t.add_step(s.q), s.xp, s.yp);
    } else if (loop.digit[i] == -1) {
      for (auto& s : st) f = mul_by_line<kTwist>(f, s.t.add_step(s.neg_q), s.xp, s.yp);
    }
  }

  if constexpr (E::kFamily == CurveFamily::bn) {
    // Vercauteren's two extra lines, through T = [6x+2]Q and π(Q), then T + π(Q) and −π²(Q).
    // π(x, y) = (x̄·ξ^((q−1)/3), ȳ·ξ^((q−1)/2)) on the D-type twist: ψ of ec/twist_frobenius.hpp.
    static_assert(!E::kSeedNegative, "BN loop with a negative 6x + 2 would need T negated");
    for (auto& s : st) {
      const Affine<G2> q1 = psi(s.q);
      const Affine<G2> q2 = -psi(q1);
      f = mul_by_line<kTwist>(f, s.t.add_step(q1), s.xp, s.yp);
      f = mul_by_line<kTwist>(f, s.t.add_step(q2), s.xp, s.yp);
    }
  } else if constexpr (E::kSeedNegative) {
    // f_{x,Q} = 1/(f_{|x|,Q}·v_{[|x|]Q}); the vertical line v lies in Fq6 and the inverse is the
    // conjugate up to a factor in Fq6, both erased by the final exponentiation (its exponent is a
    // multiple of q⁶ − 1).
    f = f.conjugate();
  }
  return f;
}

}  // namespace zkp
