// The r1cs check: does the witness satisfy every constraint (A·w)(B·w) = C·w of the circuit?
//
// It is the only check that names the failing constraint before any proving work: a zkey has
// no C matrix, and snarkjs's prover defines c = a∘b, so nothing in synthesis or H can tell a
// bad witness apart (the proof just fails verification). Runs on the pool, constraints split
// across threads; costs about one field multiplication per r1cs term.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

#include "core/formats/error.hpp"
#include "core/formats/r1cs.hpp"
#include "core/formats/zkey.hpp"
#include "core/util/first_index.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::groth16 {

// Throws FormatError unless `r1cs` describes the circuit of `key`: same scalar field, wire
// count, public count, and a domain that holds its constraints plus the public-input rows.
inline void check_r1cs_matches(const R1cs& r1cs, const Zkey& key) {
  const R1csHeader& r = r1cs.header();
  const ZkeyHeader& k = key.header();
  const auto mismatch = [&](auto&&... parts) {
    format_fail(r1cs.name(), "does not match the key ", key.name(), ": ", parts...);
  };
  if (r.curve != k.curve) mismatch("the circuit is over ", curve_info(r.curve).name, ", the key over ", curve_info(k.curve).name);
  if (r.n_wires != k.n_vars) mismatch(r.n_wires, " wires, the key has ", k.n_vars);
  if (r.n_pub_out + r.n_pub_in != k.n_public) {
    mismatch(r.n_pub_out + r.n_pub_in, " public signals, the key has ", k.n_public);
  }
  if (std::uint64_t{r.n_constraints} + k.n_public + 1 > k.domain_size) {
    mismatch(r.n_constraints, " constraints do not fit the key's domain of ", k.domain_size);
  }
}

// A witness (standard form, one value per wire) as field elements, on the pool: the form
// evaluate() reads.
template <class Fr>
std::vector<Fr> witness_field_elements(std::span<const typename Fr::Int> witness, ThreadPool& pool) {
  std::vector<Fr> w(witness.size());
  pool.parallel_for(w.size(), 1024, [&](std::size_t i0, std::size_t i1) {
    for (std::size_t i = i0; i < i1; ++i) w[i] = Fr::from_bigint_reduce(witness[i]);
  });
  return w;
}

// Σ coefficient · w[wire] over the terms of one linear combination of the r1cs: A·w, B·w or
// C·w of a constraint (w from witness_field_elements). Synthesis evaluates rows with it too.
template <class Fr>
Fr evaluate(const LinearCombination& lc, std::span<const Fr> w) {
  using Int = typename Fr::Int;
  Fr acc;
  for (std::uint32_t t = 0; t < lc.size(); ++t) {
    const R1csTerm term = lc[t];
    Int c;
    std::memcpy(c.limbs.data(), term.coefficient.data(), sizeof(Int));
    acc += Fr::from_bigint_reduce(c) * w[term.wire];
  }
  return acc;
}

// The index of the first constraint `witness` (standard form, one per wire) violates, or
// nullopt. Any violation is found; "first" is exact because every range is checked.
template <class Fr>
std::optional<std::uint32_t> first_unsatisfied_constraint(const R1cs& r1cs, std::span<const typename Fr::Int> witness,
                                                          ThreadPool& pool) {
  if (witness.size() != r1cs.header().n_wires) throw std::invalid_argument("r1cs check: witness size differs");
  const std::vector<Fr> w = witness_field_elements<Fr>(witness, pool);
  constexpr std::size_t kGrain = 256;
  const auto first = first_index(pool, r1cs.size(), kGrain, [&](std::size_t c) {
    const R1csConstraint k = r1cs.constraint(static_cast<std::uint32_t>(c));
    return evaluate<Fr>(k.a, w) * evaluate<Fr>(k.b, w) != evaluate<Fr>(k.c, w);
  });
  if (!first) return std::nullopt;
  return static_cast<std::uint32_t>(*first);
}

}  // namespace zkp::groth16
