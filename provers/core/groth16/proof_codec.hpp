// Proof bytes at the C ABI (zkp_prover.h): A (G1) | B (G2) | C (G1), affine, every coordinate
// n8q bytes little-endian in standard form, a G2 coordinate c0 then c1, infinity all zeros.
// 256 bytes for BN254, 384 for BLS12-381.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "core/ec/encoding.hpp"
#include "core/pairing/verify.hpp"

namespace zkp::groth16 {

template <PairingEngine E>
inline constexpr std::size_t kProofBytes = 2 * kAffineBytes<typename E::G1> + kAffineBytes<typename E::G2>;

template <PairingEngine E>
void write_proof(const Proof<E>& p, std::span<std::uint8_t, kProofBytes<E>> out) {
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  encode_affine<G1>(p.a, out.template subspan<0, kAffineBytes<G1>>());
  encode_affine<G2>(p.b, out.template subspan<kAffineBytes<G1>, kAffineBytes<G2>>());
  encode_affine<G1>(p.c, out.template subspan<kAffineBytes<G1> + kAffineBytes<G2>, kAffineBytes<G1>>());
}

// The points of a proof, each checked to be canonical and on its curve (subgroup membership
// is verify()'s job, which reports which point failed); nullopt otherwise.
template <PairingEngine E>
std::optional<Proof<E>> read_proof(std::span<const std::uint8_t, kProofBytes<E>> in) {
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  Proof<E> p;
  const bool ok =
      decode_affine<G1>(in.template subspan<0, kAffineBytes<G1>>(), p.a) == PointStatus::ok &&
      decode_affine<G2>(in.template subspan<kAffineBytes<G1>, kAffineBytes<G2>>(), p.b) == PointStatus::ok &&
      decode_affine<G1>(in.template subspan<kAffineBytes<G1> + kAffineBytes<G2>, kAffineBytes<G1>>(), p.c) ==
          PointStatus::ok;
  if (!ok) return std::nullopt;
  return p;
}

}  // namespace zkp::groth16
