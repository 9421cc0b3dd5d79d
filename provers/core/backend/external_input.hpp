// Reading a caller's synthesis (zkp_synthesized_t) into field elements, for every key format:
// scalars in standard or Montgomery form (ZKP_SYNTHESIZED_MONTGOMERY: blstrs's Scalar memory),
// the assignment whole or as inputs + aux, each value checked below r, on the pool (a Filecoin
// partition hands over ~4 GiB of them). Errors are ZKP_ERR_BAD_INPUT naming the field and index.
#pragma once

#include <zkpipe/sdk/prover.hpp>

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/backend/errors.hpp"
#include "core/groth16/randomness.hpp"
#include "core/util/first_index.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::backend {

inline constexpr std::size_t kScalarGrain = std::size_t{1} << 14;

inline bool montgomery_input(const zkp_synthesized_t& ext) { return (ext.flags & ZKP_SYNTHESIZED_MONTGOMERY) != 0; }

// `count` caller scalars → field elements (Montgomery form inside), in a Vector of Fr (every
// element is written, on the pool, before it is returned).
template <class Fr, class Vector = std::vector<Fr>>
Vector read_field_elements(const std::uint8_t* bytes, std::uint64_t count, bool montgomery, const char* what,
                           ThreadPool& pool) {
  using Int = typename Fr::Int;
  if (bytes == nullptr && count != 0) throw bad_input(std::string(what) + " is NULL");
  Vector out(count);
  const auto bad = first_index(pool, count, kScalarGrain, [&](std::size_t i) {
    Int v;
    std::memcpy(v.limbs.data(), bytes + i * Fr::kBytes, Fr::kBytes);
    if (!(v < Fr::kModulus)) return true;
    out[i] = montgomery ? Fr::from_mont_unchecked(v) : *Fr::from_bigint(v);
    return false;
  });
  if (bad) throw bad_input(std::string(what) + "[" + std::to_string(*bad) + "] is not below the scalar field prime");
  return out;
}

// Whether caller memory at `bytes` may be read as T in place.
template <class T>
bool aligned_for(const std::uint8_t* bytes) {
  return reinterpret_cast<std::uintptr_t>(bytes) % alignof(T) == 0;
}

// `count` caller scalars in Montgomery form, read in place: each checked below r, then the
// memory itself as field elements (an Fr is its Montgomery limbs; aligned_for<Fr> first).
template <class Fr>
std::span<const Fr> borrow_field_elements(const std::uint8_t* bytes, std::uint64_t count, const char* what,
                                          ThreadPool& pool) {
  using Int = typename Fr::Int;
  static_assert(sizeof(Fr) == Fr::kBytes && std::is_trivially_copyable_v<Fr>, "an Fr is its limbs");
  if (bytes == nullptr && count != 0) throw bad_input(std::string(what) + " is NULL");
  if (count == 0) return {};
  const auto bad = first_index(pool, count, kScalarGrain, [&](std::size_t i) {
    Int v;
    std::memcpy(v.limbs.data(), bytes + i * Fr::kBytes, Fr::kBytes);
    return !(v < Fr::kModulus);
  });
  if (bad) throw bad_input(std::string(what) + "[" + std::to_string(*bad) + "] is not below the scalar field prime");
  return {reinterpret_cast<const Fr*>(bytes), count};
}

// Variable 0 of an assignment (standard form) is the constant one.
template <class Int>
void check_constant_one(std::span<const Int> w) {
  if (w.empty() || w[0] != Int::from_u64(1)) throw bad_input("assignment[0] (the constant one) must be 1");
}

// `count` caller scalars → standard-form integers (the MSM scalars), appended to `out`.
template <class Fr>
void append_integers(const std::uint8_t* bytes, std::uint64_t count, bool montgomery, const char* what,
                     ThreadPool& pool, std::vector<typename Fr::Int>& out) {
  using Int = typename Fr::Int;
  if (bytes == nullptr && count != 0) throw bad_input(std::string(what) + " is NULL");
  const std::size_t base = out.size();
  out.resize(base + count);
  Int* dst = out.data() + base;
  const auto bad = first_index(pool, count, kScalarGrain, [&](std::size_t i) {
    Int v;
    std::memcpy(v.limbs.data(), bytes + i * Fr::kBytes, Fr::kBytes);
    if (!(v < Fr::kModulus)) return true;
    dst[i] = montgomery ? Fr::from_mont_unchecked(v).to_bigint() : v;
    return false;
  });
  if (bad) throw bad_input(std::string(what) + "[" + std::to_string(*bad) + "] is not below the scalar field prime");
}

// Where the caller's assignment lies: `assignment` alone (n_inputs + n_aux values) or, with
// aux_assignment set, `assignment` = the inputs and aux_assignment the rest. Checks the lengths.
struct AssignmentParts {
  const std::uint8_t* inputs;
  const std::uint8_t* aux;
  bool split;  // aux is aux_assignment (messages name it), not the tail of assignment
};

template <class Fr>
AssignmentParts assignment_parts(const zkp_synthesized_t& ext, std::uint64_t n_inputs, std::uint64_t n_aux) {
  if (ext.aux_assignment == nullptr) {
    if (ext.assignment_length != n_inputs + n_aux) {
      throw bad_input("assignment_length " + std::to_string(ext.assignment_length) + ", the key has " +
                      std::to_string(n_inputs + n_aux) + " variables (" + std::to_string(n_inputs) + " inputs, " +
                      std::to_string(n_aux) + " aux)");
    }
    if (ext.assignment == nullptr && ext.assignment_length != 0) throw bad_input("assignment is NULL");
    const std::uint8_t* aux = ext.assignment == nullptr ? nullptr : ext.assignment + n_inputs * Fr::kBytes;
    return {ext.assignment, aux, false};
  }
  if (ext.assignment_length != n_inputs) {
    throw bad_input("assignment_length " + std::to_string(ext.assignment_length) +
                    " (the inputs, since aux_assignment is set), the key has " + std::to_string(n_inputs) + " inputs");
  }
  if (ext.aux_assignment_length != n_aux) {
    throw bad_input("aux_assignment_length " + std::to_string(ext.aux_assignment_length) + ", the key has " +
                    std::to_string(n_aux) + " aux variables");
  }
  return {ext.assignment, ext.aux_assignment, true};
}

// The caller's assignment, inputs then aux, standard form (assignment_parts says where), each
// value checked below r; variable 0, the constant, must be 1.
template <class Fr>
std::vector<typename Fr::Int> read_assignment(const zkp_synthesized_t& ext, std::uint64_t n_inputs, std::uint64_t n_aux,
                                              ThreadPool& pool) {
  using Int = typename Fr::Int;
  const bool mont = montgomery_input(ext);
  const AssignmentParts parts = assignment_parts<Fr>(ext, n_inputs, n_aux);
  std::vector<Int> w;
  w.reserve(n_inputs + n_aux);
  if (!parts.split) {
    append_integers<Fr>(ext.assignment, ext.assignment_length, mont, "assignment", pool, w);
  } else {
    append_integers<Fr>(parts.inputs, n_inputs, mont, "assignment", pool, w);
    append_integers<Fr>(parts.aux, n_aux, mont, "aux_assignment", pool, w);
  }
  check_constant_one<Int>(w);
  return w;
}

// (r, s) of one proof: the caller's two scalars (zkp_prove_input_t.randomness, standard form,
// each below r) or, when it gives none, two from the OS CSPRNG (zero knowledge depends on it).
template <class Fr>
void read_randomness(const zkp_prove_input_t& input, Fr& r, Fr& s, ThreadPool& pool) {
  if (input.randomness == nullptr) {
    r = groth16::os_random_scalar<Fr>();
    s = groth16::os_random_scalar<Fr>();
    return;
  }
  const std::vector<Fr> rs = read_field_elements<Fr>(input.randomness, 2, false, "randomness", pool);
  r = rs[0];
  s = rs[1];
}

// The first row with a·b ≠ c: the constraint the caller's witness breaks.
template <class Fr>
void check_rows(std::span<const Fr> a, std::span<const Fr> b, std::span<const Fr> c, ThreadPool& pool) {
  const auto bad = first_index(pool, a.size(), kScalarGrain, [&](std::size_t i) { return a[i] * b[i] != c[i]; });
  if (bad) {
    throw sdk::Error(ZKP_ERR_UNSATISFIED_WITNESS, "a·b != c at row " + std::to_string(*bad) + " of the caller's synthesis");
  }
}

}  // namespace zkp::backend
