// The proof bytes of the C ABI (zkp_prover.h) as snarkjs's proof structure, and back:
//   A (G1) | B (G2) | C (G1), affine, each coordinate n8q bytes little-endian standard form,
//   a G2 coordinate c0 then c1; the point at infinity is all zeros (never a curve point on
//   BN254 or BLS12-381, whose b ≠ 0).
// 256 bytes for BN254, 384 for BLS12-381. Only layout here: whether the points are on their
// curves is the verifier's question.
#pragma once

#include <cstdint>

#include "core/formats/bytes.hpp"
#include "core/formats/curve.hpp"
#include "core/formats/groth16_json.hpp"

namespace zkp {

// 8·n8q: the byte length of a proof on `curve`.
std::uint64_t proof_byte_size(Curve curve);

// Throws FormatError("<name>: ...") when `bytes` is not proof_byte_size(curve) long.
Groth16Proof proof_from_bytes(Curve curve, ByteView bytes, std::string_view name);
// The inverse; throws FormatError when a coordinate is not n8q bytes.
ByteVec proof_to_bytes(const Groth16Proof& proof);

}  // namespace zkp
