// Groth16 verification, generic over the pairing engine (bn254::Engine, bls12_381::Engine).
//
// Groth, "On the size of pairing-based non-interactive arguments", Eurocrypt 2016, in the
// form snarkjs checks (groth16_verify.js; SNARKJS-FORMATS.md):
//     e(−A, B) · e(IC₀ + Σ pubᵢ·ICᵢ, γ₂) · e(C, δ₂) · e(α₁, β₂) = 1
// as one multi-pairing: 4 Miller loops sharing their squarings, one final exponentiation.
//
// Input checks, each reported with its own status and the place it failed:
//   - public inputs: exactly IC.size() − 1 of them, each an integer below r (snarkjs rejects the
//     same; a value ≥ r would alias another input mod r);
//   - A, C ∈ G1 and B ∈ G2: on the curve, then in the prime-order subgroup (ec/curves_*.hpp,
//     endomorphism tests). Points at infinity are group elements and pass;
//   - the verifying key: the same point checks, once, in prepare().
// Field elements arrive decoded (Fq coordinates are canonical by construction); reading
// snarkjs JSON is provers/core/formats' job.
//
// Variable time (public data only). A result is a status plus the name of the failing item.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/ec/affine.hpp"
#include "core/ec/jacobian.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/pairing/bls12_381.hpp"
#include "core/pairing/bn254.hpp"
#include "core/pairing/pairing.hpp"

namespace zkp::groth16 {

template <PairingEngine E>
struct VerifyingKey {
  Affine<typename E::G1> alpha1;
  Affine<typename E::G2> beta2, gamma2, delta2;
  std::vector<Affine<typename E::G1>> ic;  // IC₀..IC_n for n public inputs
};

template <PairingEngine E>
struct Proof {
  Affine<typename E::G1> a;
  Affine<typename E::G2> b;
  Affine<typename E::G1> c;
};

// A public input as a standard-form integer (what public.json holds), checked to be below r.
template <PairingEngine E>
using PublicInput = typename E::Fr::Int;

enum class VerifyStatus {
  ok,
  wrong_public_count,         // number of public inputs ≠ IC.size() − 1
  public_input_out_of_range,  // a public input ≥ r
  not_on_curve,               // a proof or key point is not on its curve
  not_in_subgroup,            // on the curve but outside the order-r subgroup
  pairing_check_failed,       // well-formed, but the Groth16 equation does not hold
  // Only from verify_snarkjs (snarkjs_verify.hpp), which decodes bytes first:
  curve_mismatch,             // the proof and the key name different curves
  malformed_encoding,         // a coordinate or input of the wrong size, or not below its modulus
};

const char* to_string(VerifyStatus s);

struct VerifyResult {
  VerifyStatus status = VerifyStatus::ok;
  std::string where;  // "proof.B", "vk.IC[3]", "public[2]"; empty when not about one item

  bool ok() const { return status == VerifyStatus::ok; }
  // "proof.B: point not in the prime-order subgroup", "ok", ...
  std::string message() const;
};

// A checked key with e(α₁, β₂) computed once: verify() then needs 3 Miller loops, not 4.
template <PairingEngine E>
struct PreparedVerifyingKey {
  VerifyingKey<E> vk;
  typename E::Fq12 alpha_beta;  // e(α₁, β₂)
};

namespace detail {

template <CurveParams C>
VerifyResult check_point(const Affine<C>& p, std::string where) {
  if (!p.is_on_curve()) return {VerifyStatus::not_on_curve, std::move(where)};
  if (!in_prime_subgroup(p)) return {VerifyStatus::not_in_subgroup, std::move(where)};  // ADL: ec/curves_*.hpp
  return {};
}

// Checks the counts, ranges and points of one verification; fills ΣIC on success.
template <PairingEngine E>
VerifyResult check_inputs(const VerifyingKey<E>& vk, std::span<const PublicInput<E>> publics, const Proof<E>& proof,
                          Affine<typename E::G1>& ic_sum) {
  using Fr = typename E::Fr;
  if (publics.size() + 1 != vk.ic.size()) return {VerifyStatus::wrong_public_count, {}};
  for (std::size_t i = 0; i < publics.size(); ++i) {
    if (publics[i] >= Fr::kModulus)
      return {VerifyStatus::public_input_out_of_range, "public[" + std::to_string(i) + "]"};
  }
  if (auto r = check_point(proof.a, "proof.A"); !r.ok()) return r;
  if (auto r = check_point(proof.b, "proof.B"); !r.ok()) return r;
  if (auto r = check_point(proof.c, "proof.C"); !r.ok()) return r;
  // IC₀ + Σ pubᵢ·ICᵢ: n scalar multiplications (few public inputs; an MSM is not worth it).
  Jacobian<typename E::G1> acc = Jacobian<typename E::G1>::from_affine(vk.ic[0]);
  for (std::size_t i = 0; i < publics.size(); ++i)
    acc += scalar_mul(Jacobian<typename E::G1>::from_affine(vk.ic[i + 1]), publics[i]);
  ic_sum = acc.to_affine();
  return {};
}

}  // namespace detail

// The key's points on their curves and in their subgroups (α₁, ICᵢ ∈ G1; β₂, γ₂, δ₂ ∈ G2).
template <PairingEngine E>
VerifyResult check_verifying_key(const VerifyingKey<E>& vk) {
  if (vk.ic.empty()) return {VerifyStatus::wrong_public_count, "vk.IC"};
  if (auto r = detail::check_point(vk.alpha1, "vk.alpha1"); !r.ok()) return r;
  if (auto r = detail::check_point(vk.beta2, "vk.beta2"); !r.ok()) return r;
  if (auto r = detail::check_point(vk.gamma2, "vk.gamma2"); !r.ok()) return r;
  if (auto r = detail::check_point(vk.delta2, "vk.delta2"); !r.ok()) return r;
  for (std::size_t i = 0; i < vk.ic.size(); ++i) {
    if (auto r = detail::check_point(vk.ic[i], "vk.IC[" + std::to_string(i) + "]"); !r.ok()) return r;
  }
  return {};
}

// Checks the key and computes e(α₁, β₂). Writes `out` only on success.
template <PairingEngine E>
VerifyResult prepare(const VerifyingKey<E>& vk, PreparedVerifyingKey<E>& out) {
  if (auto r = check_verifying_key(vk); !r.ok()) return r;
  out = {vk, pairing<E>(vk.alpha1, vk.beta2)};
  return {};
}

// e(−A, B)·e(ΣIC, γ₂)·e(C, δ₂) = e(α₁, β₂)⁻¹, i.e. the final exponentiation of the 3-pair Miller
// value equals the conjugate of the stored e(α₁, β₂) (GT elements are unitary).
template <PairingEngine E>
VerifyResult verify(const PreparedVerifyingKey<E>& pvk, std::span<const PublicInput<E>> publics,
                    const Proof<E>& proof) {
  Affine<typename E::G1> ic_sum;
  if (auto r = detail::check_inputs(pvk.vk, publics, proof, ic_sum); !r.ok()) return r;
  const PairingInput<E> pairs[] = {{-proof.a, proof.b}, {ic_sum, pvk.vk.gamma2}, {proof.c, pvk.vk.delta2}};
  if (final_exponentiation<E>(multi_miller_loop<E>(pairs)) != pvk.alpha_beta.conjugate())
    return {VerifyStatus::pairing_check_failed, {}};
  return {};
}

// The whole check with an unprepared key: key points, inputs, then the 4-pair equation.
template <PairingEngine E>
VerifyResult verify(const VerifyingKey<E>& vk, std::span<const PublicInput<E>> publics, const Proof<E>& proof) {
  if (auto r = check_verifying_key(vk); !r.ok()) return r;
  Affine<typename E::G1> ic_sum;
  if (auto r = detail::check_inputs(vk, publics, proof, ic_sum); !r.ok()) return r;
  const PairingInput<E> pairs[] = {
      {-proof.a, proof.b}, {ic_sum, vk.gamma2}, {proof.c, vk.delta2}, {vk.alpha1, vk.beta2}};
  if (!multi_pairing<E>(pairs).is_one()) return {VerifyStatus::pairing_check_failed, {}};
  return {};
}

}  // namespace zkp::groth16

namespace zkp::groth16 {
// Instantiated once, in verify.cpp.
extern template VerifyResult check_verifying_key<bn254::Engine>(const VerifyingKey<bn254::Engine>&);
extern template VerifyResult prepare<bn254::Engine>(const VerifyingKey<bn254::Engine>&,
                                                    PreparedVerifyingKey<bn254::Engine>&);
extern template VerifyResult verify<bn254::Engine>(const PreparedVerifyingKey<bn254::Engine>&,
                                                   std::span<const PublicInput<bn254::Engine>>,
                                                   const Proof<bn254::Engine>&);
extern template VerifyResult verify<bn254::Engine>(const VerifyingKey<bn254::Engine>&,
                                                   std::span<const PublicInput<bn254::Engine>>,
                                                   const Proof<bn254::Engine>&);
extern template VerifyResult check_verifying_key<bls12_381::Engine>(const VerifyingKey<bls12_381::Engine>&);
extern template VerifyResult prepare<bls12_381::Engine>(const VerifyingKey<bls12_381::Engine>&,
                                                        PreparedVerifyingKey<bls12_381::Engine>&);
extern template VerifyResult verify<bls12_381::Engine>(const PreparedVerifyingKey<bls12_381::Engine>&,
                                                       std::span<const PublicInput<bls12_381::Engine>>,
                                                       const Proof<bls12_381::Engine>&);
extern template VerifyResult verify<bls12_381::Engine>(const VerifyingKey<bls12_381::Engine>&,
                                                       std::span<const PublicInput<bls12_381::Engine>>,
                                                       const Proof<bls12_381::Engine>&);
}  // namespace zkp::groth16
