// Groth16 proving as snarkjs 0.7 does it (src/groth16_prove.js), in the fewest lines:
//
//   a = A·w, b = B·w on the domain (zkey section 4); c = a∘b                        synthesize
//   H_i = a·b − c at the odd coset points g·ω^i (g = ω_2n): iFFT, ×g^i, FFT        h_evaluations
//   πA = α1 + Σ w_i·A_i + r·δ1
//   πB = β2 + Σ w_i·B2_i + s·δ2,   B1 = β1 + Σ w_i·B1_i + s·δ1
//   πC = Σ_{i>nPublic} w_i·C_i + Σ H_i·H_i + s·πA + r·B1 − rs·δ1                     prove
//
// No division by Z(X) = X^n − 1: it is the constant −2 on the odd coset, and the setup folded
// it into the H bases. Same witness and (r, s): the same proof as snarkjs, byte for byte.
//
// verify() is the pairing check; the prover runs it on every proof, because a zkey has no C
// matrix: an unsatisfied witness is only caught by its proof failing the check.
#pragma once

#include "snarkjs_files.hpp"

#include <array>
#include <vector>

namespace ref {

struct Synthesized {
  std::vector<Limbs> witness;  // n_vars standard-form scalars (the MSM scalars)
  std::vector<Fr> a, b, c;     // on the domain; c empty means a∘b
};

// A·w and B·w from the key's coefficients.
Synthesized synthesize(const ProvingKey& key, std::vector<Limbs> witness);

struct Proof {
  Affine<Fq> a, c;
  Affine<Fq2> b;
};

// The proof for fixed r and s (standard form, < r).
Proof prove(const ProvingKey& key, const Synthesized& s, const Limbs& r, const Limbs& s_rand);

// A proof's bytes as the ABI writes them: A | B | C affine, standard form, little-endian,
// G2 coordinates c0 then c1, the point at infinity all zero (256 bytes).
std::array<uint8_t, 256> encode(const Proof& p);

// The inverse of encode; false if a coordinate is not below p or a point is off its curve
// (or, in G2, outside the order-r subgroup).
bool decode(const uint8_t* bytes, Proof& out);

// e(A,B) = e(α1,β2)·e(Σ x_i·IC_i, γ2)·e(C,δ2), x_0 = 1, x_i the public inputs (standard form).
bool verify(const ProvingKey& key, const Proof& proof, std::span<const Limbs> public_inputs);

}  // namespace ref
