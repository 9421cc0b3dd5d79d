// proof.json and public.json as iden3/rapidsnark writes them: nlohmann::json's dump() of the
// objects its prover builds, so compact (no spaces, no trailing newline), object keys sorted
// (pi_a, pi_b, pi_c, protocol), no "curve" key, every number a decimal string:
//   {"pi_a":["x","y","1"],"pi_b":[["x.c0","x.c1"],["y.c0","y.c1"],["1","0"]],"pi_c":["x","y","1"],"protocol":"groth16"}
//   ["w1","w2",...]   and [] for no public signals. (rapidsnark itself writes "null" there, the
//   dump() of a json never pushed to, which snarkjs cannot read as public signals; [] is what
//   snarkjs writes and reads, and what every verifier here accepts.)
// Shared by librapidsnark and `zkpipe prove --format rapidsnark`, so both write the same bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/formats/bytes.hpp"
#include "core/formats/curve.hpp"

namespace zkp::rapidsnark {

// `proof` in zkpipe's proof bytes (zkp_prover.h: A | B | C, affine, n8q little-endian standard
// form per coordinate). Throws FormatError when it is not the curve's proof size. A point at
// infinity (all zeros; never seen from a prover with random r, s) is written as snarkjs writes
// it, ["0","1","0"], which readers accept.
std::string proof_json(Curve curve, ByteView proof);

// Public signals, each a little-endian standard-form scalar.
std::string public_json(std::span<const ByteVec> signals);
// The same from n_public scalars of `scalar_bytes` each, back to back (zkp_completion_t).
std::string public_json(ByteView scalars, std::uint32_t scalar_bytes);

// Buffer sizes, the terminating NUL included. proof_capacity: the longest proof on `curve`
// (every coordinate with as many digits as q). public_capacity: rapidsnark's own bound,
// n_public * 82 + 4 (a scalar below r has at most 78 digits on both curves: 77 + 3 for the
// quotes and comma is below 82); 4 for none, room for "[]".
std::uint64_t proof_capacity(Curve curve);
std::uint64_t public_capacity(std::uint64_t n_public);

}  // namespace zkp::rapidsnark
