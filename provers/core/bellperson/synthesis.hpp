// Synthesis of a circom circuit as bellperson would synthesize it, for the CLI and for tests
// (`zkpipe prove --key-format bellperson --r1cs C.r1cs`): the circuit's r1cs and a witness give
// the bellperson-numbered assignment, A·w, B·w, C·w and the density bitmaps.
//
// The mapping (bellperson src/groth16/generator.rs and prover/native.rs; BELLPERSON.md):
//   inputs   input 0 = wire 0 (the constant one), input i = wire i for i ≤ nPublic
//   aux      the other wires in order: aux j = wire nPublic + 1 + j
//   rows     the r1cs constraints, then one row x_i · 0 = 0 per input (bellperson appends
//            them so that every input occurs in A, which keeps the IC terms independent)
//   density  a_aux: aux variables occurring in some row's A; b_input, b_aux likewise for B
//            (bellperson's DensityTracker counts occurrences; the generator drops the
//            variables whose evaluation at τ is zero, which are the same ones)
// Since circom numbers public wires right after wire 0, the assignment in bellperson order is
// the witness itself.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/bellperson/density.hpp"
#include "core/formats/r1cs.hpp"
#include "core/groth16/r1cs_check.hpp"
#include "core/util/first_index.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::bellperson {

// What a circuit's structure says, independent of any witness.
struct CircuitShape {
  std::uint64_t num_inputs = 0;       // 1 + nPublic
  std::uint64_t num_aux = 0;          // nWires − num_inputs
  std::uint64_t num_constraints = 0;  // the r1cs's rows, without the input rows
  std::vector<std::uint64_t> a_aux, b_input, b_aux;  // density words

  std::uint64_t abc_size() const { return num_constraints + num_inputs; }
  Density a_aux_density() const { return {a_aux.data(), num_aux}; }
  Density b_input_density() const { return {b_input.data(), num_inputs}; }
  Density b_aux_density() const { return {b_aux.data(), num_aux}; }
};

inline CircuitShape shape_of(const R1cs& r1cs) {
  const R1csHeader& h = r1cs.header();
  CircuitShape s;
  s.num_inputs = 1 + std::uint64_t{h.n_pub_out} + h.n_pub_in;
  s.num_aux = h.n_wires - s.num_inputs;
  s.num_constraints = h.n_constraints;
  s.a_aux.assign(Density::words_for(s.num_aux), 0);
  s.b_input.assign(Density::words_for(s.num_inputs), 0);
  s.b_aux.assign(Density::words_for(s.num_aux), 0);
  const auto mark = [&](const LinearCombination& lc, std::vector<std::uint64_t>* inputs, std::vector<std::uint64_t>& aux) {
    for (std::uint32_t t = 0; t < lc.size(); ++t) {
      const std::uint64_t w = lc[t].wire;
      if (w < s.num_inputs) {
        if (inputs != nullptr) (*inputs)[w / 64] |= std::uint64_t{1} << (w % 64);
      } else {
        const std::uint64_t j = w - s.num_inputs;
        aux[j / 64] |= std::uint64_t{1} << (j % 64);
      }
    }
  };
  for (std::uint32_t c = 0; c < r1cs.size(); ++c) {
    const R1csConstraint k = r1cs.constraint(c);
    mark(k.a, nullptr, s.a_aux);  // inputs are in A through the appended rows anyway
    mark(k.b, &s.b_input, s.b_aux);
  }
  return s;
}

// One synthesized partition: the assignment (inputs then aux, standard form) and A·w, B·w,
// C·w over the abc_size rows (Montgomery form).
template <class Fr>
struct Synthesis {
  std::vector<typename Fr::Int> variables;
  std::vector<Fr> a, b, c;

  static std::uint64_t bytes_for(std::uint64_t n_vars, std::uint64_t abc_size) {
    return n_vars * sizeof(typename Fr::Int) + 3 * abc_size * sizeof(Fr);
  }
};

// Rows per synthesis task.
inline constexpr std::size_t kRowGrain = 256;

// A·w, B·w, C·w for every row of `shape` from `witness` (one standard-form value per wire,
// each below r, w[0] = 1: load_assignment). `first_violated` receives the first r1cs row with
// (A·w)(B·w) ≠ C·w, if any: the caller fails the partition there, before any proving work.
template <class Fr>
Synthesis<Fr> synthesize(const R1cs& r1cs, const CircuitShape& shape, std::vector<typename Fr::Int> witness,
                         ThreadPool& pool, std::optional<std::uint64_t>& first_violated) {
  const std::uint64_t rows = shape.abc_size();
  Synthesis<Fr> s{std::move(witness), std::vector<Fr>(rows), std::vector<Fr>(rows), std::vector<Fr>(rows)};
  const std::vector<Fr> w = groth16::witness_field_elements<Fr>(s.variables, pool);
  pool.parallel_for(rows, kRowGrain, [&](std::size_t r0, std::size_t r1) {
    for (std::size_t r = r0; r < r1; ++r) {
      if (r < shape.num_constraints) {
        const R1csConstraint k = r1cs.constraint(static_cast<std::uint32_t>(r));
        s.a[r] = groth16::evaluate<Fr>(k.a, w);
        s.b[r] = groth16::evaluate<Fr>(k.b, w);
        s.c[r] = groth16::evaluate<Fr>(k.c, w);
      } else {  // x_i · 0 = 0
        s.a[r] = w[r - shape.num_constraints];
      }
    }
  });
  first_violated = first_index(pool, shape.num_constraints, kRowGrain,
                               [&](std::size_t r) { return s.a[r] * s.b[r] != s.c[r]; });
  return s;
}

}  // namespace zkp::bellperson
