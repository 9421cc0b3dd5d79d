// The Groth16 prover over a snarkjs zkey, generic over the pairing engine E, with
// snarkjs 0.7.6's arithmetic (groth16_prove.js), so that the same witness and (r, s) give
// the same proof bytes as `snarkjs groth16 prove`:
//
//   a = A·w, b = B·w on the domain; c = a∘b                                  synthesize()
//   H = a·b − c on the odd coset (h_polynomial.hpp)                          prove(): ntt
//   ΣA = Σ w_i·A_i, ΣB1, ΣB2 over all wires; ΣC over wires nPublic+1..;      prove(): msm
//   ΣH = Σ H_i·H_i
//   πA = ΣA + α1 + r·δ1;  πB = ΣB2 + β2 + s·δ2;  B1 = ΣB1 + β1 + s·δ1;       prove(): epilogue
//   πC = ΣC + ΣH + s·πA + r·B1 − rs·δ1
//
// Nothing here can tell a satisfying witness from another (c is defined as a∘b, so H always
// exists): an unsatisfying witness yields a proof that fails verification. The checks that do
// detect it are verifying the proof (the plugin's self-check) and the r1cs check
// (r1cs_check.hpp); see docs in provers/cpu/README.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/ec/encoding.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/formats/error.hpp"
#include "core/groth16/h_polynomial.hpp"
#include "core/groth16/proving_key.hpp"
#include "core/groth16/synthesis.hpp"
#include "core/msm/msm.hpp"
#include "core/util/thread_pool.hpp"
#include "core/util/uninitialized_allocator.hpp"
#include "core/pairing/verify.hpp"

namespace zkp::groth16 {

// Wall time of each stage, nanoseconds.
struct StageTimes {
  std::uint64_t synthesis_ns = 0;  // a = A·w, b = B·w (synthesize)
  std::uint64_t ntt_ns = 0;        // the H step: three odd-coset transforms and a·b − c
  std::uint64_t msm_a_ns = 0, msm_b1_ns = 0, msm_b2_ns = 0, msm_c_ns = 0, msm_h_ns = 0;
  std::uint64_t epilogue_ns = 0;  // scalar multiplications by r, s and the final additions
  std::uint64_t msm_ns() const { return msm_a_ns + msm_b1_ns + msm_b2_ns + msm_c_ns + msm_h_ns; }
  std::uint64_t prove_ns() const { return ntt_ns + msm_ns() + epilogue_ns; }
};

// What synthesize() produces for one witness.
template <class Fr>
struct Synthesis {
  std::vector<typename Fr::Int> witness;  // nVars values, standard form: the MSM scalars
  UninitializedVector<Fr> a, b;           // A·w and B·w on the domain, Montgomery form

  // The heap bytes one synthesis of this shape holds (what key_info reports to the host).
  static std::uint64_t bytes_for(std::uint64_t n_vars, std::uint64_t domain_size) {
    return n_vars * sizeof(typename Fr::Int) + 2 * domain_size * sizeof(Fr);
  }
};

// The input of prove(): the assignment and A·w, B·w (and C·w, or empty for c = a∘b) as work
// buffers that prove() consumes (the H step runs in them). Vectors shorter than the domain are
// zero-padded. Domain vectors leave new elements unwritten (UninitializedVector): whoever makes
// one writes it whole on the pool, so no thread zero-fills a domain's pages alone first.
template <class Fr>
struct ProveInput {
  std::span<const typename Fr::Int> witness;
  UninitializedVector<Fr> a, b, c;
};

// A ProveInput from a synthesis (copies a and b, on the pool: the synthesis stays usable).
template <class Fr>
ProveInput<Fr> prove_input(const Synthesis<Fr>& s, ThreadPool& pool) {
  ProveInput<Fr> in{s.witness, UninitializedVector<Fr>(s.a.size()), UninitializedVector<Fr>(s.b.size()), {}};
  pool.parallel_for(s.a.size(), kPointwiseGrain, [&](std::size_t i0, std::size_t i1) {
    std::copy(s.a.begin() + i0, s.a.begin() + i1, in.a.begin() + i0);
    std::copy(s.b.begin() + i0, s.b.begin() + i1, in.b.begin() + i0);
  });
  return in;
}

namespace detail {

using Clock = std::chrono::steady_clock;

inline std::uint64_t elapsed_ns(Clock::time_point since) {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - since).count());
}

// The scalar bytes msm::msm reads: 32-byte little-endian standard-form integers.
template <class Int>
std::span<const std::uint8_t> scalar_bytes(std::span<const Int> v) {
  static_assert(sizeof(Int) == msm::kScalarBytes);
  return {reinterpret_cast<const std::uint8_t*>(v.data()), v.size() * sizeof(Int)};
}

template <CurveParams C, class Int>
Affine<C> timed_msm(std::span<const msm::Base<C>> bases, std::span<const Int> scalars, ThreadPool& pool,
                    std::uint64_t& ns, std::function<void()> scalars_read = {}) {
  const auto t0 = Clock::now();
  const Affine<C> r =
      msm::msm<C>(bases, scalar_bytes(scalars), msm::Options{pool.size(), 0, &pool, std::move(scalars_read)});
  ns = elapsed_ns(t0);
  return r;
}

}  // namespace detail

// a = A·w, b = B·w for a full assignment (load_assignment: nVars values below r, w[0] = 1).
template <PairingEngine E>
Synthesis<typename E::Fr> synthesize(const ProvingKey<E>& key, std::vector<typename E::Fr::Int> witness,
                                     ThreadPool& pool, StageTimes* times = nullptr) {
  using Fr = typename E::Fr;
  if (witness.size() != key.n_vars()) {
    format_fail(key.name(), "witness has ", witness.size(), " values, the key expects ", key.n_vars());
  }
  const auto t0 = detail::Clock::now();
  // evaluate_ab writes every row of a and b (zeros included) on the pool.
  Synthesis<Fr> s{std::move(witness), UninitializedVector<Fr>(key.domain_size()), UninitializedVector<Fr>(key.domain_size())};
  evaluate_ab<Fr>(key.zkey().coefficients(), key.rows(), s.witness, s.a, s.b, pool);
  if (times != nullptr) times->synthesis_ns = detail::elapsed_ns(t0);
  return s;
}

// The five MSM results a backend computes, wherever it computes them.
template <PairingEngine E>
struct MsmSums {
  Affine<typename E::G1> a, b1;
  Affine<typename E::G2> b2;
  Affine<typename E::G1> c, h;
};

// The proof from the five sums and (r, s): the epilogue formulas above. Shared by prove(), the
// device backends and bellperson keys (core/bellperson/prover.hpp: there ΣC is ΣL, the same
// formula), so their proof bytes are the CPU prover's by construction. K is any key with
// alpha1(), beta1(), delta1(), beta2() and delta2().
template <PairingEngine E, class K>
Proof<E> epilogue(const K& key, const MsmSums<E>& sums, const typename E::Fr& r, const typename E::Fr& s) {
  using J1 = Jacobian<typename E::G1>;
  using J2 = Jacobian<typename E::G2>;
  const J1 delta1 = J1::from_affine(key.delta1());
  const J1 pi_a = J1::from_affine(sums.a).add_mixed(key.alpha1()) + delta1 * r;
  const J2 pi_b = J2::from_affine(sums.b2).add_mixed(key.beta2()) + J2::from_affine(key.delta2()) * s;
  const J1 b1 = J1::from_affine(sums.b1).add_mixed(key.beta1()) + delta1 * s;
  const J1 pi_c = J1::from_affine(sums.c).add_mixed(sums.h) + pi_a * s + b1 * r + delta1 * (-(r * s));
  return Proof<E>{pi_a.to_affine(), pi_b.to_affine(), pi_c.to_affine()};
}

template <PairingEngine E>
Proof<E> prove(const ProvingKey<E>& key, ProveInput<typename E::Fr> in, const typename E::Fr& r,
               const typename E::Fr& s, ThreadPool& pool, StageTimes* times = nullptr) {
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  using Fr = typename E::Fr;
  using Int = typename Fr::Int;
  if (in.witness.size() != key.n_vars()) {
    format_fail(key.name(), "assignment has ", in.witness.size(), " values, the key expects ", key.n_vars());
  }
  StageTimes local;
  StageTimes& t = times != nullptr ? *times : local;

  auto t0 = detail::Clock::now();
  h_evaluations_in_place<Fr>(in.a, in.b, in.c, key.domain(), pool);
  // The MSM reads standard-form integers; to_standard_form writes every one, on the pool
  // (no zero-fill by this thread first: a serial stretch of one domain vector).
  UninitializedVector<Int> h(in.a.size());
  to_standard_form<Fr>(in.a, h.data(), pool);
  in.a = UninitializedVector<Fr>();  // released (`= {}` would keep the buffer)
  t.ntt_ns = detail::elapsed_ns(t0);

  // The H MSM first, so that h (a domain vector) is freed before the other four: their
  // scratch (the G2 MSM's above all) is the peak of a proof at 2^16-2^18. The sums are
  // independent; the order changes nothing in the proof. h goes as soon as the MSM has
  // planned its scalars, before its own bucket scratch.
  const Affine<G1> sum_h = detail::timed_msm<G1, Int>(key.h(), std::span<const Int>(h), pool, t.msm_h_ns,
                                                      [&h] { h = decltype(h)(); });
  const std::span<const Int> w = in.witness;
  const Affine<G1> sum_a = detail::timed_msm<G1, Int>(key.a(), w, pool, t.msm_a_ns);
  const Affine<G1> sum_b1 = detail::timed_msm<G1, Int>(key.b1(), w, pool, t.msm_b1_ns);
  const Affine<G2> sum_b2 = detail::timed_msm<G2, Int>(key.b2(), w, pool, t.msm_b2_ns);
  const Affine<G1> sum_c = detail::timed_msm<G1, Int>(key.c(), w.subspan(key.n_public() + 1), pool, t.msm_c_ns);

  t0 = detail::Clock::now();
  const Proof<E> proof = epilogue<E>(key, MsmSums<E>{sum_a, sum_b1, sum_b2, sum_c, sum_h}, r, s);
  t.epilogue_ns = detail::elapsed_ns(t0);
  return proof;
}

// w[1 .. nPublic] as the ABI's 32-byte scalars (snarkjs public.json order: outputs first).
template <class Int>
void write_public_inputs(std::span<const Int> witness, std::uint32_t n_public, std::span<std::uint8_t> out) {
  if (witness.size() < std::size_t{n_public} + 1 || out.size() != std::size_t{n_public} * sizeof(Int)) {
    throw std::invalid_argument("write_public_inputs: size mismatch");
  }
  for (std::uint32_t i = 0; i < n_public; ++i) {
    witness[1 + i].to_le_bytes(out.subspan(i * sizeof(Int)).template first<sizeof(Int)>());
  }
}

}  // namespace zkp::groth16
