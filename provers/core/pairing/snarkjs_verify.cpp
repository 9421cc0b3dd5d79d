#include "core/pairing/snarkjs_verify.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/pairing/bls12_381.hpp"
#include "core/pairing/bn254.hpp"

namespace zkp::groth16 {
namespace {

// One field element from n8 little-endian bytes: nullopt unless exactly F::kBytes long and < p.
template <class F>
std::optional<F> decode_fe(const ByteVec& le) {
  if (le.size() != F::kBytes) return std::nullopt;
  const std::span<const std::uint8_t, F::kBytes> bytes{reinterpret_cast<const std::uint8_t*>(le.data()), F::kBytes};
  return F::from_bytes(bytes);
}

// Decodes without judging the point: on-curve and subgroup checks are verify()'s, so that they
// report in one place with one vocabulary.
template <class C>
std::optional<Affine<C>> decode_g1(const zkp::G1Affine& p) {
  if (p.infinity) return Affine<C>::identity();
  const auto x = decode_fe<typename C::Field>(p.x), y = decode_fe<typename C::Field>(p.y);
  if (!x || !y) return std::nullopt;
  return Affine<C>::from_xy(*x, *y);
}

template <class C>
std::optional<Affine<C>> decode_g2(const zkp::G2Affine& p) {
  using Fq2 = typename C::Field;
  using Fq = typename Fq2::Base;
  if (p.infinity) return Affine<C>::identity();
  const auto x0 = decode_fe<Fq>(p.x_c0), x1 = decode_fe<Fq>(p.x_c1);
  const auto y0 = decode_fe<Fq>(p.y_c0), y1 = decode_fe<Fq>(p.y_c1);
  if (!x0 || !x1 || !y0 || !y1) return std::nullopt;
  return Affine<C>::from_xy(Fq2{*x0, *x1}, Fq2{*y0, *y1});
}

VerifyResult malformed(std::string where) { return {VerifyStatus::malformed_encoding, std::move(where)}; }

template <PairingEngine E>
VerifyResult verify_as(const VerificationKey& vk_in, std::span<const ByteVec> publics_in, const Groth16Proof& proof_in) {
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  VerifyingKey<E> vk;
  const auto alpha = decode_g1<G1>(vk_in.alpha1);
  if (!alpha) return malformed("vk.alpha1");
  const auto beta = decode_g2<G2>(vk_in.beta2);
  if (!beta) return malformed("vk.beta2");
  const auto gamma = decode_g2<G2>(vk_in.gamma2);
  if (!gamma) return malformed("vk.gamma2");
  const auto delta = decode_g2<G2>(vk_in.delta2);
  if (!delta) return malformed("vk.delta2");
  vk.alpha1 = *alpha;
  vk.beta2 = *beta;
  vk.gamma2 = *gamma;
  vk.delta2 = *delta;
  vk.ic.reserve(vk_in.ic.size());
  for (std::size_t i = 0; i < vk_in.ic.size(); ++i) {
    const auto p = decode_g1<G1>(vk_in.ic[i]);
    if (!p) return malformed("vk.IC[" + std::to_string(i) + "]");
    vk.ic.push_back(*p);
  }

  // Public inputs stay integers: verify() rejects values ≥ r rather than reducing them.
  using Int = PublicInput<E>;
  std::vector<Int> publics;
  publics.reserve(publics_in.size());
  for (std::size_t i = 0; i < publics_in.size(); ++i) {
    if (publics_in[i].size() != Int::kBytes) return malformed("public[" + std::to_string(i) + "]");
    const std::span<const std::uint8_t, Int::kBytes> bytes{reinterpret_cast<const std::uint8_t*>(publics_in[i].data()),
                                                           Int::kBytes};
    publics.push_back(Int::from_le_bytes(bytes));
  }

  const auto a = decode_g1<G1>(proof_in.a);
  if (!a) return malformed("proof.A");
  const auto b = decode_g2<G2>(proof_in.b);
  if (!b) return malformed("proof.B");
  const auto c = decode_g1<G1>(proof_in.c);
  if (!c) return malformed("proof.C");
  return verify<E>(vk, publics, Proof<E>{*a, *b, *c});
}

}  // namespace

VerifyResult verify_snarkjs(const VerificationKey& vk, std::span<const ByteVec> publics, const Groth16Proof& proof) {
  if (proof.curve != vk.curve) return {VerifyStatus::curve_mismatch, "proof.curve"};
  switch (vk.curve) {
    case Curve::bn254: return verify_as<bn254::Engine>(vk, publics, proof);
    case Curve::bls12_381: return verify_as<bls12_381::Engine>(vk, publics, proof);
  }
  return {VerifyStatus::curve_mismatch, "vk.curve"};
}

}  // namespace zkp::groth16
