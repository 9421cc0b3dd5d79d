// A zkey's A and B matrices (section 4) in the form the device evaluates them (issue 40: the
// constraint system evaluated on the GPU, so a proof's host side is its witness): per matrix, the
// rows of the domain as CSR (where each row's entries start), each entry a wire index and an index
// into one dictionary of the distinct coefficient values both matrices use.
//
// Why a dictionary: a circuit's coefficients are mostly a few small constants (1, -1, powers of
// two), so an entry is 8 bytes (wire, coefficient index) instead of the zkey's 44 (matrix, row,
// wire, a 32-byte value), and the dictionary is small enough to stay in the device's caches. The
// values are kept as the zkey stores them, x·R² (zkey.hpp): one Montgomery product with a
// standard-form witness value w is x·w in Montgomery form, as on the host (synthesis.hpp).
//
// Rows are in the domain's order (constraints, then the public-input rows snarkjs appends);
// within a row the file's order. Rows past the last entry are empty: their a and b are zero.
//
// A circuit's .r1cs gives the same form for a bellperson key (build_sparse_system from an R1cs):
// A, B and C (bellperson's prover takes C·w, not a∘b) over bellperson's rows, the constraints
// and then one row x_i · 0 = 0 per input (core/bellperson/synthesis.hpp); the r1cs's
// standard-form coefficients are stored as x·R² too. A zkey given with its circuit (key option
// r1cs) takes the circuit's C beside its own A and B (add_circuit_c): the device then checks
// a·b = c row by row, the r1cs check without a host pass over the constraints.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/formats/r1cs.hpp"
#include "core/formats/zkey.hpp"
#include "core/groth16/coefficient_rows.hpp"

namespace zkp::cuda::synth {

struct SparseMatrix {
  std::vector<std::uint32_t> row_start;  // domain_size + 1: row r's entries are [row_start[r], row_start[r + 1])
  std::vector<std::uint32_t> wire;       // per entry: the witness index
  std::vector<std::uint32_t> coef;       // per entry: the dictionary index

  std::size_t entries() const { return wire.size(); }
  std::size_t bytes() const { return (row_start.size() + wire.size() + coef.size()) * sizeof(std::uint32_t); }
};

// `Fr` is the host scalar field type of the key's curve (core/ff), whose limbs the device type
// shares (cuda/ff/fields.cuh).
template <class Fr>
struct SparseSystem {
  SparseMatrix a, b;
  SparseMatrix c;              // from an r1cs; empty for a zkey alone, whose c is a∘b
  std::vector<Fr> dictionary;  // distinct coefficient values, x·R² as the zkey stores them
  std::uint32_t domain_size = 0;
  std::uint32_t n_vars = 0;
  std::string circuit;  // the r1cs C came from (its name, for the messages); "" without C

  bool has_c() const { return !c.row_start.empty(); }
  // What the device holds of it: the key's estimate counts these bytes.
  std::size_t device_bytes() const { return a.bytes() + b.bytes() + c.bytes() + dictionary.size() * sizeof(Fr); }
};

namespace detail {

// The distinct coefficients of a system, each stored once as x·R² (its Fr memory as the key).
template <class Fr>
class Dictionary {
 public:
  static_assert(sizeof(Fr) == 32, "a coefficient is 32 bytes");

  explicit Dictionary(std::vector<Fr>& values) : values_(values) {
    for (std::uint32_t i = 0; i < values_.size(); ++i) index_.emplace(key_of(values_[i]), i);
  }

  // A zkey's coefficient (32 bytes, x·R² already: zkey.hpp).
  std::uint32_t of_zkey(const std::byte* bytes) {
    typename Fr::Int v;
    std::memcpy(v.limbs.data(), bytes, sizeof v);
    return index_of(Fr::from_mont_unchecked(v));
  }
  // An r1cs coefficient (32 bytes, standard form x): the field element x·R, whose Montgomery
  // form is x·R² (R mod r is the Montgomery form of one).
  std::uint32_t of_r1cs(const std::byte* bytes) {
    typename Fr::Int x;
    std::memcpy(x.limbs.data(), bytes, sizeof x);
    return index_of(Fr::from_bigint_reduce(x) * r_);
  }

 private:
  using Key = std::array<std::uint64_t, 4>;  // fixed size: no allocation per entry (a PoRep
                                             // partition has ~2^29 of them)
  struct Hash {
    std::size_t operator()(const Key& v) const noexcept {
      // Small constants have one non-zero limb in standard form but not as x·R²; mix all four.
      std::uint64_t h = v[0] * 0x9e3779b97f4a7c15ull;
      for (std::size_t i = 1; i < v.size(); ++i) h = (h ^ (h >> 29) ^ v[i]) * 0xbf58476d1ce4e5b9ull;
      return static_cast<std::size_t>(h ^ (h >> 32));
    }
  };
  static Key key_of(const Fr& v) {
    Key k;
    std::memcpy(k.data(), &v, sizeof k);
    return k;
  }
  std::uint32_t index_of(const Fr& v) {
    const auto [it, added] = index_.try_emplace(key_of(v), static_cast<std::uint32_t>(values_.size()));
    if (added) values_.push_back(v);
    return it->second;
  }

  std::vector<Fr>& values_;
  std::unordered_map<Key, std::uint32_t, Hash> index_;
  const Fr r_ = Fr::from_bigint_reduce(Fr::one().mont());
};

// Appends one r1cs linear combination to the row being built.
template <class Fr>
void append(SparseMatrix& m, const LinearCombination& lc, Dictionary<Fr>& dictionary) {
  for (std::uint32_t t = 0; t < lc.size(); ++t) {
    const R1csTerm term = lc[t];
    m.wire.push_back(term.wire);
    m.coef.push_back(dictionary.of_r1cs(term.coefficient.data()));
  }
}

}  // namespace detail

// Builds the sparse system of a key whose coefficients passed read_zkey's checks (every row
// below the domain size, every wire below n_vars, every matrix 0 or 1). `rows` groups them by
// row (it also handles files not in row order).
template <class Fr>
SparseSystem<Fr> build_sparse_system(const ZkeyCoefficients& coeffs, const groth16::CoefficientRows& rows,
                                     std::uint32_t n_vars) {
  if (coeffs.entry_bytes() != ZkeyCoefficients::kFixedBytes + Fr::kBytes) {
    throw std::invalid_argument("build_sparse_system: coefficient size differs from the scalar field's");
  }
  SparseSystem<Fr> s;
  s.domain_size = rows.domain_size();
  s.n_vars = n_vars;
  detail::Dictionary<Fr> dictionary(s.dictionary);
  for (SparseMatrix* m : {&s.a, &s.b}) m->row_start.assign(std::size_t{s.domain_size} + 1, 0);
  const std::byte* base = coeffs.raw().data();
  const std::size_t stride = coeffs.entry_bytes();
  for (std::uint32_t r = 0; r < s.domain_size; ++r) {
    for (std::uint32_t p = rows.row_begin(r); p < rows.row_begin(r + 1); ++p) {
      const std::byte* e = base + static_cast<std::size_t>(rows.entry(p)) * stride;
      SparseMatrix& m = load_u32le(e) == 0 ? s.a : s.b;
      m.wire.push_back(load_u32le(e + 8));
      m.coef.push_back(dictionary.of_zkey(e + ZkeyCoefficients::kFixedBytes));
    }
    s.a.row_start[r + 1] = static_cast<std::uint32_t>(s.a.wire.size());
    s.b.row_start[r + 1] = static_cast<std::uint32_t>(s.b.wire.size());
  }
  return s;
}

// A zkey's system (above) with its circuit's C: row r < the r1cs's constraints holds C of
// constraint r (snarkjs numbers the zkey's rows so), the rest (the public-input rows, whose
// B is empty, and the padding) none. The r1cs must match the key (groth16::check_r1cs_matches).
template <class Fr>
void add_circuit_c(SparseSystem<Fr>& s, const R1cs& r1cs) {
  if (r1cs.size() > s.domain_size) throw std::invalid_argument("add_circuit_c: more constraints than rows");
  detail::Dictionary<Fr> dictionary(s.dictionary);
  s.c.row_start.assign(std::size_t{s.domain_size} + 1, 0);
  for (std::uint32_t r = 0; r < s.domain_size; ++r) {
    if (r < r1cs.size()) detail::append(s.c, r1cs.constraint(r).c, dictionary);
    s.c.row_start[r + 1] = static_cast<std::uint32_t>(s.c.wire.size());
  }
  s.circuit = r1cs.name();
}

// Builds the sparse system of a circuit for a bellperson key of it: A, B and C of each r1cs
// constraint (rows 0 .. n_constraints − 1), then input i's row (A holds w[i] with coefficient 1)
// for each of the `num_inputs` inputs (1 + public). The r1cs must have passed read_r1cs's checks.
template <class Fr>
SparseSystem<Fr> build_sparse_system(const R1cs& r1cs, std::uint64_t num_inputs) {
  const std::uint64_t constraints = r1cs.size();
  if (constraints + num_inputs > 0xffffffffu) throw std::invalid_argument("build_sparse_system: more than 2^32 - 1 rows");
  SparseSystem<Fr> s;
  s.domain_size = static_cast<std::uint32_t>(constraints + num_inputs);  // bellperson's abc_size
  s.n_vars = r1cs.header().n_wires;
  s.circuit = r1cs.name();
  detail::Dictionary<Fr> dictionary(s.dictionary);
  for (SparseMatrix* m : {&s.a, &s.b, &s.c}) m->row_start.assign(std::size_t{s.domain_size} + 1, 0);
  std::byte one[32] = {};
  one[0] = std::byte{1};
  const std::uint32_t one_index = dictionary.of_r1cs(one);
  for (std::uint32_t r = 0; r < s.domain_size; ++r) {
    if (r < constraints) {
      const R1csConstraint k = r1cs.constraint(r);
      detail::append(s.a, k.a, dictionary);
      detail::append(s.b, k.b, dictionary);
      detail::append(s.c, k.c, dictionary);
    } else {  // x_i · 0 = 0: A holds the input
      s.a.wire.push_back(static_cast<std::uint32_t>(r - constraints));
      s.a.coef.push_back(one_index);
    }
    s.a.row_start[r + 1] = static_cast<std::uint32_t>(s.a.wire.size());
    s.b.row_start[r + 1] = static_cast<std::uint32_t>(s.b.wire.size());
    s.c.row_start[r + 1] = static_cast<std::uint32_t>(s.c.wire.size());
  }
  return s;
}

}  // namespace zkp::cuda::synth
