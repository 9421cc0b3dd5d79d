// bellperson's evaluation domains (bellperson src/domain.rs over blstrs's Scalar): the domain of
// size m = 2^k has ω = ROOT^(2^(32−k)), where ROOT = 7^((r−1)/2^32) is blstrs's two-adic root
// (7 is the multiplicative generator of BLS12-381's Fr); H is evaluated on the coset 7·ω^i.
//
// These are not snarkjs's roots (ffjavascript starts from 5; core/ff/fp_params_bls12_381.hpp),
// and the choice is not free: a bellperson key's a, b and l queries are the Lagrange basis of
// this domain at τ, so A·w must be interpolated with this ω or the proof is for another
// polynomial.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/ff/bls12_381.hpp"
#include "core/ntt/domain.hpp"

namespace zkp::bellperson {

using Fr = bls12_381::Fr;

// blstrs's multiplicative generator, which is also its coset generator.
inline constexpr std::uint64_t kMultiplicativeGenerator = 7;

// 7^t with r − 1 = 2^32·t: a primitive 2^32-th root of unity (blstrs ROOT_OF_UNITY).
inline Fr two_adic_root() {
  auto t = Fr::kModulus;
  t.limbs[0] -= 1;  // r odd: no borrow
  for (std::size_t i = 0; i < Fr::two_adicity(); ++i) t.shr1();
  return Fr::from_u64(kMultiplicativeGenerator).pow(t);
}

// A primitive 2^log_m-th root of unity: bellperson's ω for a domain of 2^log_m.
inline Fr root_of_unity(std::size_t log_m) {
  Fr w = two_adic_root();
  for (std::size_t i = log_m; i < Fr::two_adicity(); ++i) w = w.square();
  return w;
}

// The domain of 2^log_m points with bellperson's ω and coset generator 7; its tables built on
// `pool` when one is given.
inline NttDomain<Fr> make_domain(std::size_t log_m, ThreadPool* pool = nullptr) {
  return NttDomain<Fr>(log_m, root_of_unity(log_m), Fr::from_u64(kMultiplicativeGenerator), pool);
}

}  // namespace zkp::bellperson
