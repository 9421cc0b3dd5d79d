#include "qap_at_tau.hpp"

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "core/ff/fp_batch.hpp"
#include "core/formats/curve.hpp"

namespace zkp::bellperson_setup {

Fr blstrs_two_adic_root() {
  Fr::Int t = Fr::kModulus;
  t.limbs[0] -= 1;  // r odd: no borrow
  for (std::size_t i = 0; i < kTwoAdicity; ++i) t.shr1();
  return Fr::from_u64(kMultiplicativeGenerator).pow(t);
}

EvaluationDomain evaluation_domain(std::size_t rows) {
  EvaluationDomain d;
  while (d.m < rows) {
    d.m *= 2;
    ++d.log_m;
    if (d.log_m >= kTwoAdicity)
      throw std::invalid_argument("evaluation domain: " + std::to_string(rows) +
                                  " rows need 2^32 points or more, beyond BLS12-381's two-adicity");
  }
  d.omega = blstrs_two_adic_root();
  for (std::size_t i = d.log_m; i < kTwoAdicity; ++i) d.omega = d.omega.square();
  return d;
}

std::vector<Fr> lagrange_at(const EvaluationDomain& d, const Fr& tau, ThreadPool& pool) {
  std::vector<Fr> l(d.m);
  const Fr z = tau.pow(static_cast<std::uint64_t>(d.m)) - Fr::one();  // Z(tau) = tau^m − 1
  if (z.is_zero()) {  // tau = ω^k for one k
    Fr w = Fr::one();
    for (std::size_t j = 0; j < d.m; ++j, w *= d.omega) l[j] = w == tau ? Fr::one() : Fr::zero();
    return l;
  }
  const Fr z_over_m = z * Fr::from_u64(d.m).inverse();
  // Per chunk: ω^begin by one pow, then one multiplication per point, and one batch inversion.
  constexpr std::size_t kGrain = 1024;
  pool.parallel_for(d.m, kGrain, [&](std::size_t begin, std::size_t end) {
    std::span<Fr> den(l.data() + begin, end - begin);
    Fr w = d.omega.pow(static_cast<std::uint64_t>(begin));
    for (Fr& x : den) {
      x = tau - w;
      w *= d.omega;
    }
    batch_inverse(den);
    w = d.omega.pow(static_cast<std::uint64_t>(begin));
    for (Fr& x : den) {
      x *= z_over_m * w;
      w *= d.omega;
    }
  });
  return l;
}

void require_bls12_381(const R1cs& circuit) {
  if (circuit.header().curve != Curve::bls12_381)
    throw std::invalid_argument(circuit.name() + " is over " + std::string(curve_info(circuit.header().curve).name) +
                                "; bellperson parameters exist only for BLS12-381");
}

namespace {

Fr coefficient(const R1csTerm& t) {
  const std::span<const std::uint8_t, Fr::kBytes> b(reinterpret_cast<const std::uint8_t*>(t.coefficient.data()),
                                                   Fr::kBytes);
  const auto v = Fr::from_bytes(b);
  if (!v) throw std::invalid_argument("r1cs coefficient not below r");  // read_r1cs checked it already
  return *v;
}

// acc[wire] += coefficient · l_row for every term of the combination.
void accumulate(const LinearCombination& lc, const Fr& l_row, std::vector<Fr>& acc) {
  for (std::uint32_t k = 0; k < lc.size(); ++k) {
    const R1csTerm t = lc[k];
    acc[t.wire] += coefficient(t) * l_row;
  }
}

}  // namespace

QapAtTau evaluate_qap(const R1cs& circuit, const Fr& tau, ThreadPool& pool) {
  require_bls12_381(circuit);
  const R1csHeader& h = circuit.header();
  if (h.n8 != Fr::kBytes) throw std::invalid_argument("r1cs n8 is not 32 for BLS12-381");
  QapAtTau q;
  q.num_inputs = 1 + std::size_t{h.n_pub_out} + h.n_pub_in;
  q.domain = evaluation_domain(std::size_t{h.n_constraints} + q.num_inputs);
  const std::vector<Fr> l = lagrange_at(q.domain, tau, pool);
  q.at.assign(h.n_wires, Fr::zero());
  q.bt.assign(h.n_wires, Fr::zero());
  q.ct.assign(h.n_wires, Fr::zero());
  // Scattered sums into per-wire accumulators: one pass on one thread (a few multiplications per
  // term; the point products that follow cost thousands of times more).
  for (std::uint32_t row = 0; row < h.n_constraints; ++row) {
    const R1csConstraint c = circuit.constraint(row);
    accumulate(c.a, l[row], q.at);
    accumulate(c.b, l[row], q.bt);
    accumulate(c.c, l[row], q.ct);
  }
  for (std::size_t i = 0; i < q.num_inputs; ++i) q.at[i] += l[h.n_constraints + i];  // x_i · 0 = 0
  return q;
}

}  // namespace zkp::bellperson_setup
