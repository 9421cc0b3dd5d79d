// The BN254 pairing, as plainly as it can be written, for checking proofs:
//
//  - Fq12 = Fq2[w]/(w^6 − ξ), ξ = 9 + u: one degree-6 polynomial ring instead of the usual
//    Fq2 → Fq6 → Fq12 tower (schoolbook products, no Frobenius constants);
//  - G2 is the D-type sextic twist y^2 = x^3 + 3/ξ; ψ(x, y) = (x·w^2, y·w^3) maps it into
//    E(Fq12), so the line through T with twist slope λ, at P, is
//    y_P − λ·x_P·w + (λ·x_T − y_T)·w^3 (vertical lines lie in Fq6 = Fq2[w^2], which the final
//    exponentiation sends to 1, so they are dropped);
//  - the ate pairing (Hess, Smart, Vercauteren 2006) with loop length T = t − 1 = 6x^2,
//    x = 4965661367192848881: twice the optimal ate's loop, without its Frobenius steps;
//  - the final exponentiation f^((p^12 − 1)/r) by square-and-multiply, the exponent computed
//    once from p and r.
// About 15 ms per Groth16 check on one core: slow, and short enough to check by reading.
#pragma once

#include "bn254.hpp"

#include <span>
#include <utility>

namespace ref {

// True if the points, pairwise, satisfy Π e(P_i, Q_i) = 1.
bool pairing_product_is_one(std::span<const std::pair<Affine<Fq>, Affine<Fq2>>> pairs);

// Points read from outside: coordinates reduced, on the curve, and (G2) in the order-r subgroup.
// (G1 has cofactor 1: on the curve is in the subgroup.)
bool on_curve(const Affine<Fq>& p);
bool on_curve_in_subgroup(const Affine<Fq2>& q);

}  // namespace ref
