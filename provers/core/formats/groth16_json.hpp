// snarkjs's Groth16 JSON files: proof.json, public.json and verification_key.json, written and
// read. Field elements are decimal strings in JSON and n8-byte
// little-endian standard-form integers here.
//
//   proof.json  {"pi_a": [x, y, "1"], "pi_b": [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]],
//                "pi_c": [x, y, "1"], "protocol": "groth16", "curve": "bn128" | "bls12381"}
//   public.json [w[1], ..., w[nPublic]]   (outputs first, then public inputs)
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/formats/bytes.hpp"
#include "core/formats/curve.hpp"
#include "core/formats/point_validator.hpp"

namespace zkp {

class Wtns;

// Affine points, coordinates n8q bytes little-endian, standard form. snarkjs writes the point at
// infinity as [0, 1, 0] (G2: [[0,0],[1,0],[0,0]]); here it is infinity = true with zero
// coordinates.
struct G1Affine {
  ByteVec x, y;
  bool infinity = false;
};
struct G2Affine {
  ByteVec x_c0, x_c1, y_c0, y_c1;
  bool infinity = false;
};

struct Groth16Proof {
  Curve curve = Curve::bn254;
  G1Affine a;
  G2Affine b;
  G1Affine c;
};

struct VerificationKey {
  Curve curve = Curve::bn254;
  std::uint32_t n_public = 0;
  G1Affine alpha1;
  G2Affine beta2, gamma2, delta2;
  std::vector<G1Affine> ic;  // n_public + 1 points
};

struct JsonReadOptions {
  // Curve-point checks (standard-form coordinates), none by default (see point_validator.hpp).
  PointValidator validate_points;
  // The curve of a proof.json without a "curve" key (rapidsnark writes none; a verifier takes the
  // verification key's). Unset: the key is required. A proof that names a curve keeps its own.
  std::optional<Curve> curve_if_absent;
};

// Byte-identical to `snarkjs groth16 prove`'s proof.json / public.json (bfj, one-space indent,
// no trailing newline). Coordinates must be n8q bytes, signals n8r bytes, all below the prime.
std::string write_proof_json(const Groth16Proof& proof);
std::string write_public_json(std::span<const ByteVec> signals);
// e(α₁, β₂) as verification_key.json stores it (vk_alphabeta_12): the 12 Fq coordinates of an
// Fq12 = c0 + c1·w, Fq6 = c0 + c1·v + c2·v², Fq2 = c0 + c1·u, each n8q bytes little-endian in
// standard form, in snarkjs's nesting order: [c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1].
// The value is the caller's: snarkjs's pairing is a fixed power of others' (pairing/ knows which).
using AlphaBeta12 = std::array<ByteVec, 12>;

// Byte-identical to `snarkjs zkey export verificationkey` (key order protocol, curve, nPublic,
// vk_alpha_1, vk_beta_2, vk_gamma_2, vk_delta_2, vk_alphabeta_12, IC; bfj, one-space indent).
// vk.ic must hold n_public + 1 points and every coordinate n8q bytes (std::invalid_argument).
std::string write_vkey_json(const VerificationKey& vk, const AlphaBeta12& alphabeta_12);

// w[1..n_public] of a witness: what `snarkjs groth16 prove` puts in public.json.
std::vector<ByteVec> public_signals(const Wtns& wtns, std::uint32_t n_public);

// Readers. `text` is the file's content, `file` its name for messages. Unknown keys are ignored
// (verification_key.json carries vk_alphabeta_12, which a verifier recomputes); known keys must
// have the right shape, decimal strings must be canonical and below the field prime, and points
// must be affine (z = "1") or snarkjs's infinity. Throws FormatError("<file>: pi_b[1][0]: ...").
Groth16Proof read_proof_json(std::string_view text, std::string_view file,
                             const JsonReadOptions& options = {});
std::vector<ByteVec> read_public_json(std::string_view text, std::string_view file, Curve curve);
VerificationKey read_vkey_json(std::string_view text, std::string_view file,
                               const JsonReadOptions& options = {});

// The bytes of a ByteSource as text, for the readers above.
inline std::string_view as_text(ByteView bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace zkp
