// What a curve descriptor provides: the short Weierstrass curve y² = x³ + b (a = 0) over
// a coordinate field, with a prime-order subgroup of order r = |Scalar field|.
//
// Descriptors are empty structs (bn254::G1, bn254::G2, bls12_381::G1, bls12_381::G2 in
// curves_*.hpp); the point types Affine<C>, Jacobian<C>, Xyzz<C> are templates over them.
// Every formula in this folder assumes a = 0, which holds for both curves and both twists.
#pragma once

#include <concepts>
#include <cstddef>

namespace zkp {

template <class C>
concept CurveParams = requires {
  typename C::Field;   // Fq for G1, Fq2 for G2
  typename C::Scalar;  // Fr
  { C::kB } -> std::convertible_to<typename C::Field>;       // the curve constant b
  { C::kGenX } -> std::convertible_to<typename C::Field>;    // generator of the order-r subgroup
  { C::kGenY } -> std::convertible_to<typename C::Field>;
  C::kCofactor;                                               // BigInt: #E = kCofactor · r
  { C::kName } -> std::convertible_to<const char*>;
};

}  // namespace zkp
