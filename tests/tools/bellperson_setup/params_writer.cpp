#include "params_writer.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/ec/curves_bls12_381.hpp"
#include "fixed_base_table.hpp"
#include "qap_at_tau.hpp"
#include "query_writer.hpp"

namespace zkp::bellperson_setup {

using bls12_381::G1;
using bls12_381::G2;

std::uint64_t params_file_bytes(const ParamsCounts& c) {
  constexpr std::uint64_t kCounts = 6, kCountBytes = 4;
  const std::uint64_t g1 = 3 + c.ic + c.h + c.l + c.a + c.b;  // alpha_g1, beta_g1, delta_g1
  const std::uint64_t g2 = 3 + c.b;                           // beta_g2, gamma_g2, delta_g2
  return kCounts * kCountBytes + g1 * kG1UncompressedBytes + g2 * kG2UncompressedBytes;
}

namespace {

class PhaseClock {
 public:
  explicit PhaseClock(const PhaseReporter& report) : report_(report) {}
  void end(std::string_view phase) {
    const auto now = std::chrono::steady_clock::now();
    if (report_) report_(phase, std::chrono::duration<double>(now - start_).count());
    start_ = now;
  }

 private:
  const PhaseReporter& report_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// The variables' values with a non-zero `poly`, in variable order: bellperson computes [0]G as
// the identity and then filters identities out of a, b_g1 and b_g2 ("Filter points at infinity
// away from A/B queries"); G has prime order, so that is exactly poly ≠ 0.
std::vector<Fr> nonzero(const std::vector<Fr>& poly) {
  std::vector<Fr> out;
  for (const Fr& v : poly)
    if (!v.is_zero()) out.push_back(v);
  return out;
}

// (β·at + α·bt + ct)·inv for variables [begin, end): the ic (inv = 1/γ) and l (inv = 1/δ) scalars.
std::vector<Fr> combined(const QapAtTau& q, const ToxicWaste& t, const Fr& inv, std::size_t begin, std::size_t end) {
  std::vector<Fr> out(end - begin);
  for (std::size_t v = begin; v < end; ++v) out[v - begin] = (t.beta * q.at[v] + t.alpha * q.bt[v] + q.ct[v]) * inv;
  return out;
}

}  // namespace

ParamsCounts write_params(const R1cs& circuit, const ToxicWaste& t, std::ostream& out, ThreadPool& pool,
                          const PhaseReporter& report) {
  PhaseClock clock(report);
  const QapAtTau q = evaluate_qap(circuit, t.tau, pool);
  const std::size_t m = q.domain.m;
  const Fr z = t.tau.pow(static_cast<std::uint64_t>(m)) - Fr::one();  // Z(tau) = tau^m − 1 (domain.rs, z)
  if (z.is_zero()) throw std::runtime_error("tau is a point of the evaluation domain (Z(tau) = 0); use another seed");
  const std::size_t num_vars = q.at.size();

  const std::vector<Fr> l_scalars = combined(q, t, t.delta.inverse(), q.num_inputs, num_vars);
  for (std::size_t j = 0; j < l_scalars.size(); ++j)
    if (l_scalars[j].is_zero())
      throw std::invalid_argument("aux variable " + std::to_string(j) + " (wire " + std::to_string(q.num_inputs + j) +
                                  ") is in no constraint: bellperson refuses such circuits (UnconstrainedVariable)");
  const std::vector<Fr> a_scalars = nonzero(q.at);
  const std::vector<Fr> b_scalars = nonzero(q.bt);
  const ParamsCounts counts{q.num_inputs, m - 1, l_scalars.size(), a_scalars.size(), b_scalars.size()};
  clock.end("qap");

  // bellperson sizes its G1 table for h + 3·(inputs + aux) products and its G2 table for the B query.
  const std::size_t g1_products = counts.h + counts.ic + counts.l + counts.a + counts.b;
  const FixedBaseTable<G1> g1(bls12_381::G1Affine::generator(), best_window_bits(g1_products, Fr::kBits), pool);
  const FixedBaseTable<G2> g2(bls12_381::G2Affine::generator(), best_window_bits(counts.b, Fr::kBits), pool);
  clock.end("tables");

  const std::vector<Fr> alpha_beta{t.alpha, t.beta}, beta_gamma{t.beta, t.gamma}, delta{t.delta};
  write_points<G1>(out, alpha_beta, g1, pool);  // alpha_g1, beta_g1
  write_points<G2>(out, beta_gamma, g2, pool);  // beta_g2, gamma_g2
  write_points<G1>(out, delta, g1, pool);       // delta_g1
  write_points<G2>(out, delta, g2, pool);       // delta_g2
  write_query<G1>(out, combined(q, t, t.gamma.inverse(), 0, q.num_inputs), g1, pool);
  clock.end("vk+ic");

  {
    std::vector<Fr> h(counts.h);  // tau^i · Z(tau)/δ
    Fr c = z * t.delta.inverse();
    for (Fr& s : h) {
      s = c;
      c *= t.tau;
    }
    write_query<G1>(out, h, g1, pool);
  }
  clock.end("h");
  write_query<G1>(out, l_scalars, g1, pool);
  clock.end("l");
  write_query<G1>(out, a_scalars, g1, pool);
  clock.end("a");
  write_query<G1>(out, b_scalars, g1, pool);
  clock.end("b_g1");
  write_query<G2>(out, b_scalars, g2, pool);
  clock.end("b_g2");

  out.flush();
  if (!out) throw std::runtime_error("writing the parameter file failed");
  return counts;
}

}  // namespace zkp::bellperson_setup
