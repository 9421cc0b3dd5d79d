#include "core/bellperson/proof.hpp"

namespace zkp::bellperson {
namespace {

using bls12_381::G1;
using bls12_381::G2;
constexpr std::size_t kG1 = zcash::kCompressedBytes<G1>;
constexpr std::size_t kG2 = zcash::kCompressedBytes<G2>;

template <zcash::Group C>
PointStatus read_point(std::span<const std::uint8_t, zcash::kCompressedBytes<C>> in, Affine<C>& out) {
  const PointStatus s = zcash::decode_compressed<C>(in, out, PointCheck::subgroup);
  if (s == PointStatus::ok && out.infinity) return PointStatus::at_infinity;
  return s;
}

}  // namespace

void write_proof(const Proof& proof, std::span<std::uint8_t, kProofBytes> out) {
  zcash::encode_compressed<G1>(proof.a, out.subspan<0, kG1>());
  zcash::encode_compressed<G2>(proof.b, out.subspan<kG1, kG2>());
  zcash::encode_compressed<G1>(proof.c, out.subspan<kG1 + kG2, kG1>());
}

std::string ProofReadResult::message() const {
  if (ok()) return "ok";
  return std::string(where) + ": " + to_string(status);
}

ProofReadResult read_proof(std::span<const std::uint8_t, kProofBytes> in, Proof& out) {
  Proof p;
  if (const PointStatus s = read_point<G1>(in.subspan<0, kG1>(), p.a); s != PointStatus::ok) return {s, "A"};
  if (const PointStatus s = read_point<G2>(in.subspan<kG1, kG2>(), p.b); s != PointStatus::ok) return {s, "B"};
  if (const PointStatus s = read_point<G1>(in.subspan<kG1 + kG2, kG1>(), p.c); s != PointStatus::ok) return {s, "C"};
  out = p;
  return {};
}

}  // namespace zkp::bellperson
