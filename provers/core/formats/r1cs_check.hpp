// Does a witness satisfy a circuit? (A.w) * (B.w) == C.w for every constraint.
// Generic over the scalar field type F, which the ff/ layer provides; the formats layer has no
// field arithmetic of its own.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/formats/bytes.hpp"
#include "core/formats/error.hpp"
#include "core/formats/r1cs.hpp"
#include "core/formats/wtns.hpp"

namespace zkp {

// What the checker needs of a field element type:
// - F{} is zero;
// - F::from_bytes(bytes) reads n8 little-endian bytes in standard form (< p, as r1cs
//   coefficients and wtns values are stored), whatever F's internal form (e.g. Montgomery);
// - +, * and == in the field.
template <class F>
concept R1csField = std::regular<F> && requires(const F a, const F b, ByteView bytes) {
  { F::from_bytes(bytes) } -> std::same_as<F>;
  { a + b } -> std::convertible_to<F>;
  { a* b } -> std::convertible_to<F>;
};

// The witness as field elements, wire-indexed.
template <R1csField F>
std::vector<F> load_witness(const Wtns& wtns) {
  std::vector<F> w;
  w.reserve(wtns.size());
  for (std::uint32_t i = 0; i < wtns.size(); ++i) w.push_back(F::from_bytes(wtns.value(i)));
  return w;
}

// sum_i coefficient_i * w[wire_i]. `w` must cover every wire (check_witness_matches).
template <R1csField F>
F evaluate(const LinearCombination& lc, std::span<const F> w) {
  F acc{};
  for (std::uint32_t t = 0; t < lc.size(); ++t) {
    const R1csTerm term = lc[t];
    acc = acc + F::from_bytes(term.coefficient) * w[term.wire];
  }
  return acc;
}

// The index of the first constraint that `w` violates, or nullopt if it satisfies all.
// Precondition: w.size() == r1cs.header().n_wires.
template <R1csField F>
std::optional<std::uint32_t> first_unsatisfied(const R1cs& r1cs, std::span<const F> w) {
  for (std::uint32_t i = 0; i < r1cs.size(); ++i) {
    const R1csConstraint c = r1cs.constraint(i);
    if (!(evaluate<F>(c.a, w) * evaluate<F>(c.b, w) == evaluate<F>(c.c, w))) return i;
  }
  return std::nullopt;
}

// Throws FormatError unless `wtns` fits `r1cs` (check_witness_matches) and satisfies every
// constraint ("witness does not satisfy constraint 17 of circuit.r1cs").
template <R1csField F>
void check_witness_satisfies(const R1cs& r1cs, const Wtns& wtns) {
  check_witness_matches(r1cs, wtns);
  const std::vector<F> w = load_witness<F>(wtns);
  if (const auto bad = first_unsatisfied<F>(r1cs, std::span<const F>(w))) {
    format_fail(wtns.name(), "witness does not satisfy constraint ", *bad, " of ", r1cs.name());
  }
}

}  // namespace zkp
