// bellperson's H (bellperson src/groth16/prover/native.rs, src/domain.rs): from A·w, B·w and C·w
// on the domain (abc_size ≤ m values each, zero-padded to m),
//
//   ifft, coset_fft on 7·ω^i        a, b, c on the coset (core odd_coset with g = 7)
//   a·b − c, times 1/(7^m − 1)      divided by Z(X) = X^m − 1, which is the constant 7^m − 1 there
//   icoset_fft                      ifft, then coefficient i times 7^−i
//
// and the first m − 1 coefficients are the scalars of the MSM against the key's h query
// (τ^i·Z(τ)/δ, i < m − 1). For a satisfying assignment H has degree ≤ m − 2, so the result is
// the one polynomial (A·B − C)/Z whatever the order of the steps; this order is bellperson's.
#pragma once

#include <span>
#include <stdexcept>
#include <vector>

#include "core/groth16/h_polynomial.hpp"
#include "core/ntt/domain.hpp"
#include "core/ntt/ntt.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::bellperson {

// H's m − 1 coefficients, Montgomery form, computed in the caller's buffers (each at most m
// long; padded here). On return `a` holds them (size m − 1); b and c are released.
template <class F>
void h_coefficients_in_place(std::vector<F>& a, std::vector<F>& b, std::vector<F>& c, const NttDomain<F>& d,
                             ThreadPool& pool) {
  const std::size_t m = d.size();
  if (a.size() > m || b.size() > m || c.size() > m) {
    throw std::invalid_argument("bellperson h: a, b or c is longer than the domain");
  }
  if (m < 2) throw std::invalid_argument("bellperson h: the domain has fewer than two points");
  a.resize(m);
  b.resize(m);
  c.resize(m);
  odd_coset<F>(a, d, pool);
  odd_coset<F>(b, d, pool);
  odd_coset<F>(c, d, pool);
  const F g = d.coset_generator();
  const F z_inv = (g.pow(static_cast<std::uint64_t>(m)) - F::one()).inverse();
  pool.parallel_for(m, groth16::kPointwiseGrain, [&](std::size_t i0, std::size_t i1) {
    for (std::size_t i = i0; i < i1; ++i) a[i] = (a[i] * b[i] - c[i]) * z_inv;
  });
  b = std::vector<F>();  // released (`= {}` would keep the buffer)
  c = std::vector<F>();
  intt<F>(a, d, pool);
  // Coefficient i times g^−i: each task starts its run of powers with one exponentiation.
  const F g_inv = g.inverse();
  pool.parallel_for(m, groth16::kPointwiseGrain, [&](std::size_t i0, std::size_t i1) {
    F x = g_inv.pow(static_cast<std::uint64_t>(i0));
    for (std::size_t i = i0; i < i1; ++i, x *= g_inv) a[i] *= x;
  });
  a.resize(m - 1);
}

}  // namespace zkp::bellperson
