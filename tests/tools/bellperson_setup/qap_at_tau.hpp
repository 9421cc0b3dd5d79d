// The circuit's QAP polynomials evaluated at a known tau, the way bellperson's generator builds
// them (src/groth16/generator.rs, generate_parameters; src/domain.rs, EvaluationDomain):
//
//  - Variables are inputs then aux. For a circom r1cs this is the wire order itself: input 0 is
//    wire 0 (the constant one), inputs 1..nPublic are the public wires (outputs, then public
//    inputs), aux j is wire nPublic + 1 + j. So variable index == wire index, and
//    num_inputs = 1 + nPublic.
//  - Rows: the r1cs constraints 0..nC−1, then for each input i the row nC + i with A = x_i,
//    B = C = 0 ("Input constraints to ensure full density of IC query", x * 0 = 0).
//  - The domain: m = the smallest power of two ≥ nC + num_inputs, ω = ROOT^(2^(32 − log2 m))
//    with blstrs's ROOT = 7^((r − 1) >> 32) (two-adicity 32). Not zkpipe's Fr::root_of_unity,
//    which follows snarkjs/ffjavascript and starts from 5.
//  - Row j stands for the Lagrange polynomial L_j of that domain. bellperson gets L_j(tau) as the
//    inverse FFT of (1, tau, …, tau^(m−1)); the closed form used here is the same number:
//        L_j(tau) = (1/m)·Σ_i (tau·ω^(−j))^i = (tau^m − 1)/m · ω^j/(tau − ω^j).
//  - at[v] = Σ_rows A[row][v]·L_row(tau), and bt, ct likewise.
#pragma once

#include <cstddef>
#include <vector>

#include "core/ff/bls12_381.hpp"
#include "core/formats/r1cs.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::bellperson_setup {

using bls12_381::Fr;

// blstrs Scalar::S: r − 1 = 2^32 · t, t odd.
inline constexpr std::size_t kTwoAdicity = 32;
// blstrs Scalar::MULTIPLICATIVE_GENERATOR.
inline constexpr std::uint64_t kMultiplicativeGenerator = 7;

// blstrs Scalar::ROOT_OF_UNITY, a primitive 2^32-th root of unity: 7^((r − 1) >> 32).
Fr blstrs_two_adic_root();

struct EvaluationDomain {
  std::size_t log_m = 0;
  std::size_t m = 1;
  Fr omega = Fr::one();  // a primitive m-th root of unity
};

// The domain bellperson's EvaluationDomain::from_coeffs picks for `rows` coefficients; throws
// std::invalid_argument when log2 m ≥ 32 (bellperson's PolynomialDegreeTooLarge).
EvaluationDomain evaluation_domain(std::size_t rows);

// L_j(tau) for j = 0..m−1. When tau is itself a point ω^k of the domain the closed form is 0/0;
// the answer is then the limit, L_j(ω^k) = [j = k].
std::vector<Fr> lagrange_at(const EvaluationDomain& d, const Fr& tau, ThreadPool& pool);

struct QapAtTau {
  std::size_t num_inputs = 0;  // 1 + nPublic; variables [0, num_inputs) are the inputs
  EvaluationDomain domain;
  std::vector<Fr> at, bt, ct;  // one per variable (= r1cs wire)
};

// Throws std::invalid_argument unless the circuit is over BLS12-381.
QapAtTau evaluate_qap(const R1cs& circuit, const Fr& tau, ThreadPool& pool);

// Refuses (std::invalid_argument) anything but BLS12-381: bellperson parameters are BLS12-381
// only (blstrs), and a BN254 coefficient read as a BLS12-381 scalar is a different circuit.
void require_bls12_381(const R1cs& circuit);

}  // namespace zkp::bellperson_setup
