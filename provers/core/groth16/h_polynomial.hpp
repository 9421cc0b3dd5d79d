// The H step of snarkjs's Groth16 prover (groth16_prove.js): for each of a, b, c on the
// domain, iFFT → multiply coefficient i by g^i (g = Fr.w[log n + 1]) → FFT, which gives the
// values at the odd points ω_{2n}^{2i+1}; then H[i] = a·b − c there.
//
// Why no division by Z: the zkey's H bases are the odd-index Lagrange points of the 2n-domain
// divided by δ, and Z(X) = X^n − 1 is the constant −2 on those points, which setup folded in.
//
// c = a∘b on the domain (not C·w) unless the caller synthesized C·w itself: c(X) is then
// a(X)b(X) mod X^n − 1, and a·b − c on the odd coset is −2·h there. The products c[i] are
// formed here, so a synthesis holds only a and b.
#pragma once

#include <span>
#include <stdexcept>
#include <vector>

#include "core/ntt/domain.hpp"
#include "core/ntt/ntt.hpp"
#include "core/util/thread_pool.hpp"
#include "core/util/uninitialized_allocator.hpp"

namespace zkp::groth16 {

inline constexpr std::size_t kPointwiseGrain = std::size_t{1} << 12;

// H on the odd coset, natural order, Montgomery form, computed in the caller's buffers: a and b
// (at most n long) are zero-padded to n; c, if empty, becomes a∘b, else it is padded. On return
// `a` holds H and b, c are released.
template <class Fr>
void h_evaluations_in_place(UninitializedVector<Fr>& a, UninitializedVector<Fr>& b, UninitializedVector<Fr>& c,
                            const NttDomain<Fr>& d, ThreadPool& pool) {
  const std::size_t n = d.size();
  if (a.size() > n || b.size() > n || c.size() > n) {
    throw std::invalid_argument("h_evaluations: input longer than the domain");
  }
  // Padding is written (the allocator leaves new elements unwritten); a new c is written whole
  // by the product, on the pool.
  a.resize(n, Fr::zero());
  b.resize(n, Fr::zero());
  if (c.empty()) {
    c.resize(n);
    pool.parallel_for(n, kPointwiseGrain, [&](std::size_t i0, std::size_t i1) {
      for (std::size_t i = i0; i < i1; ++i) c[i] = a[i] * b[i];
    });
  } else {
    c.resize(n, Fr::zero());
  }
  odd_coset<Fr>(a, d, pool);
  odd_coset<Fr>(b, d, pool);
  odd_coset<Fr>(c, d, pool);
  pool.parallel_for(n, kPointwiseGrain, [&](std::size_t i0, std::size_t i1) {
    for (std::size_t i = i0; i < i1; ++i) a[i] = a[i] * b[i] - c[i];
  });
  // Released, not cleared: `b = {}` picks vector's initializer_list assignment, which keeps
  // the buffer (it held b and c through all five MSMs).
  b = UninitializedVector<Fr>();
  c = UninitializedVector<Fr>();
}

// The same on copies of the inputs (for tests and references: it copies twice).
template <class Fr>
std::vector<Fr> h_evaluations(std::span<const Fr> a, std::span<const Fr> b, std::span<const Fr> c,
                              const NttDomain<Fr>& d, ThreadPool& pool) {
  UninitializedVector<Fr> ta(a.begin(), a.end()), tb(b.begin(), b.end()), tc(c.begin(), c.end());
  h_evaluations_in_place<Fr>(ta, tb, tc, d, pool);
  return std::vector<Fr>(ta.begin(), ta.end());
}

// H's evaluations (Montgomery form) as the standard-form integers the H MSM reads, into `out`
// (h.size() of them): the step between the H polynomial and msm H, wherever msm H runs.
template <class Fr>
void to_standard_form(std::span<const Fr> h, typename Fr::Int* out, ThreadPool& pool) {
  pool.parallel_for(h.size(), kPointwiseGrain, [&](std::size_t i0, std::size_t i1) {
    for (std::size_t i = i0; i < i1; ++i) out[i] = h[i].to_bigint();
  });
}

}  // namespace zkp::groth16
