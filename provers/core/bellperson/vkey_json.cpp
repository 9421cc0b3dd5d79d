#include "core/bellperson/vkey_json.hpp"

#include <stdexcept>

#include "core/pairing/bls12_381.hpp"

namespace zkp::bellperson {
namespace {

using bls12_381::Fq;

ByteVec bytes_of(const Fq& v) {
  ByteVec out(Fq::kBytes);
  v.to_bytes(std::span<std::uint8_t, Fq::kBytes>(reinterpret_cast<std::uint8_t*>(out.data()), Fq::kBytes));
  return out;
}

zkp::G1Affine json_point(const Affine<bls12_381::G1>& p) {
  if (p.infinity) return {ByteVec(Fq::kBytes), ByteVec(Fq::kBytes), true};
  return {bytes_of(p.x), bytes_of(p.y), false};
}

zkp::G2Affine json_point(const Affine<bls12_381::G2>& p) {
  if (p.infinity) return {ByteVec(Fq::kBytes), ByteVec(Fq::kBytes), ByteVec(Fq::kBytes), ByteVec(Fq::kBytes), true};
  return {bytes_of(p.x.c0), bytes_of(p.x.c1), bytes_of(p.y.c0), bytes_of(p.y.c1), false};
}

}  // namespace

VerificationKey to_snarkjs_vkey(const VerifyingPoints& vk) {
  if (vk.ic.empty()) throw std::invalid_argument("to_snarkjs_vkey: no ic points");
  VerificationKey out;
  out.curve = Curve::bls12_381;
  out.n_public = static_cast<std::uint32_t>(vk.ic.size() - 1);
  out.alpha1 = json_point(vk.alpha_g1);
  out.beta2 = json_point(vk.beta_g2);
  out.gamma2 = json_point(vk.gamma_g2);
  out.delta2 = json_point(vk.delta_g2);
  for (const auto& p : vk.ic) out.ic.push_back(json_point(p));
  return out;
}

AlphaBeta12 snarkjs_alphabeta(const VerifyingPoints& vk) {
  const bls12_381::Fq12 e = pairing<bls12_381::Engine>(vk.alpha_g1, vk.beta_g2);
  const bls12_381::Fq12 cube = e.square() * e;
  AlphaBeta12 out;
  std::size_t i = 0;
  for (const bls12_381::Fq6* half : {&cube.c0, &cube.c1}) {
    for (const bls12_381::Fq2* c : {&half->c0, &half->c1, &half->c2}) {
      out[i++] = bytes_of(c->c0);
      out[i++] = bytes_of(c->c1);
    }
  }
  return out;
}

std::string write_vkey_json(const VerifyingPoints& vk) {
  return zkp::write_vkey_json(to_snarkjs_vkey(vk), snarkjs_alphabeta(vk));
}

Groth16Proof to_snarkjs_proof(const Proof& proof) {
  return {Curve::bls12_381, json_point(proof.a), json_point(proof.b), json_point(proof.c)};
}

}  // namespace zkp::bellperson
