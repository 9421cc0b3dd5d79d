// A test-only Groth16 prover over a parsed bellperson parameter file, written the slow, obvious
// way so that a proof it makes from the file and a witness checks whether the file is a working
// key for the circuit under bellperson's conventions (prover/native.rs), independently of
// zkpipe's bellperson prover:
//
//   rows: the r1cs rows, then x_i · 0 = 0 for each input i; values at ω^j, ω = 7^((r−1)/m)
//   A(X), B(X), C(X) by a naive inverse DFT; h(X) = (A·B − C)/(X^m − 1), remainder zero
//   πA  = α1 + Σ_{at≠0} w_v·a + r·δ1        (a, b_g1, b_g2 consumed only where the density bit is set)
//   πB  = β2 + Σ_{bt≠0} w_v·b_g2 + s·δ2,    B1 = β1 + Σ w_v·b_g1 + s·δ1
//   πC  = Σ_aux w_j·l_j + Σ h_i·h + s·πA + r·B1 − r·s·δ1
// O(m²) field operations: for circuits up to a few thousand rows.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/formats/r1cs.hpp"
#include "core/msm/msm.hpp"
#include "expected_params.hpp"

namespace zkp::bellperson_setup::test {

struct ReferenceProof {
  G1Affine a;
  G2Affine b;
  G1Affine c;
};

namespace detail {

template <CurveParams C>
Jacobian<C> sum(const std::vector<Affine<C>>& bases, const std::vector<Fr>& scalars) {
  if (bases.size() != scalars.size()) throw std::invalid_argument("reference prover: base/scalar count mismatch");
  std::vector<std::uint8_t> bytes(32 * scalars.size());
  for (std::size_t i = 0; i < scalars.size(); ++i)
    scalars[i].to_bytes(std::span<std::uint8_t, 32>(bytes.data() + 32 * i, 32));
  return Jacobian<C>::from_affine(msm::msm<C>(std::span<const Affine<C>>(bases), bytes, {.threads = 2}));
}

// Coefficients of the polynomial with values v_j at ω^j: c_k = (1/m)·Σ_j v_j·ω^(−jk).
inline std::vector<Fr> inverse_dft(const std::vector<Fr>& v, const Fr& omega) {
  const std::size_t m = v.size();
  const Fr omega_inv = omega.inverse(), m_inv = Fr::from_u64(m).inverse();
  std::vector<Fr> c(m);
  Fr step = Fr::one();  // ω^(−k)
  for (std::size_t k = 0; k < m; ++k, step *= omega_inv) {
    Fr acc, w = Fr::one();
    for (std::size_t j = 0; j < m; ++j, w *= step) acc += v[j] * w;
    c[k] = acc * m_inv;
  }
  return c;
}

}  // namespace detail

// Throws std::invalid_argument if the witness does not satisfy the circuit (A·B − C is then not
// divisible by X^m − 1).
inline ReferenceProof reference_prove(const R1cs& cs, const ParsedParams& p, const std::vector<Fr>& w, const Fr& r,
                                      const Fr& s) {
  const Shape shape(cs);
  const std::size_t m = shape.m;
  std::vector<Fr> av(m), bv(m), cv(m);
  const auto dot = [&](const LinearCombination& lc) {
    Fr acc;
    for (std::uint32_t k = 0; k < lc.size(); ++k) acc += coefficient(lc[k]) * w[lc[k].wire];
    return acc;
  };
  for (std::uint32_t row = 0; row < cs.size(); ++row) {
    const R1csConstraint c = cs.constraint(row);
    av[row] = dot(c.a);
    bv[row] = dot(c.b);
    cv[row] = dot(c.c);
  }
  for (std::size_t i = 0; i < shape.num_inputs; ++i) av[cs.size() + i] = w[i];

  const Fr omega = seventh_root_of_unity(m);
  const std::vector<Fr> ac = detail::inverse_dft(av, omega), bc = detail::inverse_dft(bv, omega),
                        cc = detail::inverse_dft(cv, omega);
  std::vector<Fr> prod(2 * m);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j) prod[i + j] += ac[i] * bc[j];
  for (std::size_t i = 0; i < m; ++i) prod[i] -= cc[i];
  std::vector<Fr> h(m - 1);  // long division by X^m − 1, from the top
  for (std::size_t k = 2 * m - 1; k >= m; --k) {
    if (k - m < h.size()) h[k - m] = prod[k];
    prod[k - m] += prod[k];
  }
  for (std::size_t i = 0; i < m; ++i)
    if (!prod[i].is_zero()) throw std::invalid_argument("reference prover: the witness does not satisfy the circuit");

  std::vector<Fr> wa, wb, wl(w.begin() + static_cast<std::ptrdiff_t>(shape.num_inputs), w.end());
  for (const std::uint32_t v : shape.in_a) wa.push_back(w[v]);
  for (const std::uint32_t v : shape.in_b) wb.push_back(w[v]);

  const G1Jacobian delta1 = G1Jacobian::from_affine(p.delta_g1);
  const G1Jacobian a = G1Jacobian::from_affine(p.alpha_g1) + detail::sum(p.a, wa) + delta1 * r;
  const G2Jacobian b2 =
      G2Jacobian::from_affine(p.beta_g2) + detail::sum(p.b_g2, wb) + G2Jacobian::from_affine(p.delta_g2) * s;
  const G1Jacobian b1 = G1Jacobian::from_affine(p.beta_g1) + detail::sum(p.b_g1, wb) + delta1 * s;
  const G1Jacobian c = detail::sum(p.l, wl) + detail::sum(p.h, h) + a * s + b1 * r - delta1 * (r * s);
  return {a.to_affine(), b2.to_affine(), c.to_affine()};
}

}  // namespace zkp::bellperson_setup::test
