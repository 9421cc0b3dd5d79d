// The key and witness of `zkpipe bench --synthetic CURVE:LOG2`: a real Groth16 key, made in
// memory from KNOWN toxic waste (INSECURE: anyone can forge proofs for it; for benchmarks only),
// so that every proof the bench makes verifies, at any size, with no ceremony and no files.
//
// The circuit is a squaring chain over n = 2^LOG2 QAP rows, with one public input:
//   wires:        0 = the constant 1, 1 = x_0 (public), 2 + j = x_{j+1} (private), j < m
//   constraints:  x_j · x_j = x_{j+1} for j = 0 .. m−1, m = n − 2
//   rows:         the m constraints, then snarkjs's public-input rows m + k: A = wire k (k = 0, 1)
// so n_vars = m + 2 and the domain is exactly n. The witness is x_0 = kSyntheticChainStart (3)
// and its squares.
//
// The key is snarkjs's .zkey layout (provers/core/formats/zkey.hpp), built as snarkjs's
// zkey_new.js + one contribution would: with L_j the Lagrange basis of the n-domain at tau and
// a_w, b_w, c_w = Σ_rows (A, B, C)[row][w]·L_row(tau),
//   A[w] = [a_w]G1, B1[w] = [b_w]G1, B2[w] = [b_w]G2,
//   IC[w] = [(β·a_w + α·b_w + c_w)/γ]G1 (public wires), C[w] = the same over δ (private wires),
//   H[i] = [L'_{2i+1}(tau)/δ]G1 with L' the basis of the 2n-domain (the odd coset the prover
//          evaluates a·b − c on; see provers/core/groth16/h_polynomial.hpp),
// where L_j(tau) = (tau^N − 1)/N · ω^j/(tau − ω^j) on a domain of N points (one batch inversion).
// Every point is [k]G from a fixed-base table (fixed_base_table.hpp), on all the pool's threads.
#pragma once

#include "bench/synthetic_spec.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace zkp::cli::bench {

struct SyntheticKey {
  std::vector<std::byte> zkey;        // the .zkey image: zkp_key_source_t data/size
  std::vector<std::byte> assignment;  // ZKP_WITNESS_ASSIGNMENT: n_vars standard-form scalars
  uint32_t constraints = 0;
  uint32_t n_vars = 0;
  uint32_t domain_size = 0;
  unsigned threads = 0;  // threads that computed the points
  double seconds = 0;    // wall time of the whole generation
};

// The toxic waste's seed (std::mt19937_64): fixed, so the same spec gives the same key.
inline constexpr uint64_t kSyntheticSeed = 1;
// x_0, the public input: the witness is x_0 and its squares.
inline constexpr uint64_t kSyntheticChainStart = 3;

// Makes the key and witness on `threads` threads (0: every hardware thread).
SyntheticKey make_synthetic_key(const SyntheticSpec& spec, unsigned threads);

}  // namespace zkp::cli::bench
