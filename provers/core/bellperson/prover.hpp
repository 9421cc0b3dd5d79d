// The Groth16 prover over a bellperson key (bellperson src/groth16/prover/native.rs): the same
// proof equations as snarkjs's (core/groth16/prover.hpp, whose epilogue this shares), over
// bellperson's queries:
//
//   H        the m − 1 coefficients of (A·B − C)/Z, on the coset 7·ω^i (h_polynomial.hpp)
//   ΣA       inputs (all of them) and the aux set in a_aux_density, against a
//   ΣB1, ΣB2 the inputs set in b_input_density and the aux set in b_aux_density, against b_g1, b_g2
//   ΣL       every aux variable, against l
//   ΣH       H against h
//   πA = ΣA + α1 + r·δ1;  πB = ΣB2 + β2 + s·δ2;  πC = ΣL + ΣH + s·πA + r·(ΣB1 + β1 + s·δ1) − rs·δ1
//
// Checking that the densities' popcounts match the queries is the caller's (backend) job;
// here a mismatch is an invalid_argument from gather.
#pragma once

#include <span>
#include <vector>

#include "core/bellperson/density.hpp"
#include "core/bellperson/h_polynomial.hpp"
#include "core/bellperson/key.hpp"
#include "core/groth16/prover.hpp"
#include "core/util/thread_pool.hpp"
#include "core/util/uninitialized_allocator.hpp"

namespace zkp::bellperson {

// One proof's input: the assignment (inputs then aux, standard form), a, b, c as work buffers
// that prove() consumes, and the three densities (their words live as long as the input).
struct ProveInput {
  std::span<const Fr::Int> variables;
  std::vector<Fr> a, b, c;
  Density a_aux = Density::full(0), b_input = Density::full(0), b_aux = Density::full(0);
};

// The scalars of a query that holds the variables set in `inputs` then those set in `aux`.
inline UninitializedVector<Fr::Int> query_scalars(std::span<const Fr::Int> variables, std::uint64_t num_inputs,
                                          const Density& inputs, const Density& aux, ThreadPool& pool) {
  const std::uint64_t n_in = inputs.popcount();
  UninitializedVector<Fr::Int> out(n_in + aux.popcount());  // gather writes every element
  gather<Fr::Int>(variables.first(num_inputs), inputs, std::span<Fr::Int>(out).first(n_in), pool);
  gather<Fr::Int>(variables.subspan(num_inputs), aux, std::span<Fr::Int>(out).subspan(n_in), pool);
  return out;
}

// H's m − 1 coefficients as the standard-form scalars of msm H.
inline UninitializedVector<Fr::Int> h_scalars(const Key& key, ProveInput& in, ThreadPool& pool) {
  h_coefficients_in_place<Fr>(in.a, in.b, in.c, key.domain(), pool);
  UninitializedVector<Fr::Int> h(in.a.size());  // to_standard_form writes every element
  groth16::to_standard_form<Fr>(in.a, h.data(), pool);
  in.a = std::vector<Fr>();  // released (`= {}` would keep the buffer)
  return h;
}

inline groth16::Proof<Key::E> prove(const Key& key, ProveInput in, const Fr& r, const Fr& s, ThreadPool& pool,
                                    groth16::StageTimes* times = nullptr) {
  using G1 = Key::G1;
  using G2 = Key::G2;
  using Int = Fr::Int;
  namespace d = groth16::detail;
  groth16::StageTimes local;
  groth16::StageTimes& t = times != nullptr ? *times : local;

  auto t0 = d::Clock::now();
  UninitializedVector<Int> h = h_scalars(key, in, pool);
  t.ntt_ns = d::elapsed_ns(t0);
  // The H MSM first, so that h is freed before the query scalars a, b are made and the other
  // four MSMs run (groth16::prove does the same); the order changes nothing in the proof.
  const Affine<G1> sum_h =
      d::timed_msm<G1, Int>(key.h(), std::span<const Int>(h), pool, t.msm_h_ns, [&h] { h = UninitializedVector<Int>(); });

  const std::uint64_t n_in = key.num_inputs();
  const std::span<const Int> w = in.variables;
  const UninitializedVector<Int> a = query_scalars(w, n_in, Density::full(n_in), in.a_aux, pool);
  const UninitializedVector<Int> b = query_scalars(w, n_in, in.b_input, in.b_aux, pool);
  const Affine<G1> sum_a = d::timed_msm<G1, Int>(key.a(), a, pool, t.msm_a_ns);
  const Affine<G1> sum_b1 = d::timed_msm<G1, Int>(key.b1(), b, pool, t.msm_b1_ns);
  const Affine<G2> sum_b2 = d::timed_msm<G2, Int>(key.b2(), b, pool, t.msm_b2_ns);
  const Affine<G1> sum_l = d::timed_msm<G1, Int>(key.l(), w.subspan(n_in), pool, t.msm_c_ns);

  t0 = d::Clock::now();
  const auto proof = groth16::epilogue<Key::E>(key, groth16::MsmSums<Key::E>{sum_a, sum_b1, sum_b2, sum_l, sum_h}, r, s);
  t.epilogue_ns = d::elapsed_ns(t0);
  return proof;
}

}  // namespace zkp::bellperson
