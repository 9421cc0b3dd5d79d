// Helpers shared by the pairing tests: decimal text of pairing_vectors.hpp into field elements
// and points, the per-curve vector tables, and random group elements.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/ec/affine.hpp"
#include "core/ec/jacobian.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/pairing/bls12_381.hpp"
#include "core/pairing/bn254.hpp"
#include "core/pairing/verify.hpp"
#include "pairing_vectors.hpp"

namespace zkp::test {

template <class F>
F fe(std::string_view dec) {
  const auto v = F::from_decimal(dec);
  if (!v) throw std::invalid_argument("test vector is not a canonical field element: " + std::string(dec));
  return *v;
}

template <class Fq2>
Fq2 fe2(const test_vectors::Fq2Text& t) {
  return {fe<typename Fq2::Base>(t[0]), fe<typename Fq2::Base>(t[1])};
}

template <class Fq2>
Fp12<Fq2> fe12(const test_vectors::Fq12Text& t) {
  return {{fe2<Fq2>(t[0]), fe2<Fq2>(t[1]), fe2<Fq2>(t[2])}, {fe2<Fq2>(t[3]), fe2<Fq2>(t[4]), fe2<Fq2>(t[5])}};
}

template <class C>
Affine<C> g1_point(const test_vectors::G1Text& t) {
  return Affine<C>::from_xy(fe<typename C::Field>(t.x), fe<typename C::Field>(t.y));
}

template <class C>
Affine<C> g2_point(const test_vectors::G2Text& t) {
  return Affine<C>::from_xy(fe2<typename C::Field>(t.x), fe2<typename C::Field>(t.y));
}

// The generated tables of one curve, found by engine type.
template <class E>
struct Vectors;
template <>
struct Vectors<bn254::Engine> {
  static constexpr const auto& fq12 = test_vectors::k_bn254_fq12_vectors;
  static constexpr const auto& pairing = test_vectors::k_bn254_pairing;
  static constexpr const auto& off_subgroup = test_vectors::k_bn254_off_subgroup;
};
template <>
struct Vectors<bls12_381::Engine> {
  static constexpr const auto& fq12 = test_vectors::k_bls12_381_fq12_vectors;
  static constexpr const auto& pairing = test_vectors::k_bls12_381_pairing;
  static constexpr const auto& off_subgroup = test_vectors::k_bls12_381_off_subgroup;
};

inline std::mt19937_64& rng() {
  static std::mt19937_64 r{0x7a6b7069706531ULL};  // fixed seed: failures reproduce
  return r;
}

// [k]·generator as an affine point.
template <class C>
Affine<C> mul_gen(const typename C::Scalar& k) {
  return (Affine<C>::generator() * k).to_affine();
}

// A Groth16 instance built from known scalars (no circuit): α, β, γ, δ, the ICᵢ scalars, the
// public inputs xᵢ and a, b are random; c = (a·b − α·β − γ·(ic₀ + Σ xᵢ·icᵢ))/δ makes
// e(−A, B)·e(ΣIC, γ₂)·e(C, δ₂)·e(α₁, β₂) = e(G1, G2)^(−ab + γS + cδ + αβ) = 1.
template <PairingEngine E>
struct Instance {
  groth16::VerifyingKey<E> vk;
  std::vector<groth16::PublicInput<E>> publics;
  groth16::Proof<E> proof;
};

template <PairingEngine E>
Instance<E> make_instance(std::size_t n_public) {
  using Fr = typename E::Fr;
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  const Fr alpha = Fr::random(rng()), beta = Fr::random(rng()), gamma = Fr::random(rng()),
           delta = Fr::random(rng()), a = Fr::random(rng()), b = Fr::random(rng());
  Instance<E> in;
  in.vk.alpha1 = mul_gen<G1>(alpha);
  in.vk.beta2 = mul_gen<G2>(beta);
  in.vk.gamma2 = mul_gen<G2>(gamma);
  in.vk.delta2 = mul_gen<G2>(delta);
  Fr ic0 = Fr::random(rng());
  in.vk.ic.push_back(mul_gen<G1>(ic0));
  Fr s = ic0;
  for (std::size_t i = 0; i < n_public; ++i) {
    const Fr ic = Fr::random(rng()), x = Fr::random(rng());
    in.vk.ic.push_back(mul_gen<G1>(ic));
    in.publics.push_back(x.to_bigint());
    s += x * ic;
  }
  const Fr c = (a * b - alpha * beta - gamma * s) * delta.inverse();
  in.proof = {mul_gen<G1>(a), mul_gen<G2>(b), mul_gen<G1>(c)};
  return in;
}

}  // namespace zkp::test
