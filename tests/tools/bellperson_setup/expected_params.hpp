// What a parameter file must hold, derived by the tests from the r1cs alone: query lengths, the
// variables the density filters keep, and point values recomputed from the toxic waste with the
// textbook Lagrange product and zkpipe's wNAF scalar_mul (neither the generator's closed form
// nor its fixed-base table). The file itself is read with params_file_reader.hpp.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <map>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/formats/r1cs.hpp"
#include "params_file_reader.hpp"
#include "params_writer.hpp"
#include "toxic_waste.hpp"

namespace zkp::bellperson_setup::test {

using bls12_381::Fr;
using bls12_381::G1Affine;
using bls12_381::G1Jacobian;
using bls12_381::G2Affine;
using bls12_381::G2Jacobian;

inline R1cs committed(const std::string& name) {
  return read_r1cs(ByteSource::from_file(std::filesystem::path(ZKPIPE_SOURCE_DIR) / "tests/vectors/data" / name /
                                         "circuit.r1cs"));
}

inline std::string generate(const R1cs& circuit, std::uint64_t seed) {
  ThreadPool pool(2);
  std::ostringstream out;
  write_params(circuit, draw_toxic_waste(seed), out, pool);
  return std::move(out).str();
}

inline ParsedParams parse(const std::string& bytes) {
  return ParamsFileReader(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size())).read();
}

inline G1Affine g1_times(const Fr& k) { return (G1Jacobian::generator() * k).to_affine(); }
inline G2Affine g2_times(const Fr& k) { return (G2Jacobian::generator() * k).to_affine(); }

inline Fr coefficient(const R1csTerm& t) {
  return *Fr::from_bytes(std::span<const std::uint8_t, 32>(reinterpret_cast<const std::uint8_t*>(t.coefficient.data()), 32));
}

// What the test expects of a circuit, from its structure alone.
struct Shape {
  std::size_t num_inputs, num_vars, rows, m;
  std::set<std::uint32_t> in_a, in_b;  // variables with a non-zero A (B) coefficient in some row

  explicit Shape(const R1cs& cs)
      : num_inputs(1 + cs.header().n_pub_out + cs.header().n_pub_in),
        num_vars(cs.header().n_wires),
        rows(cs.size() + num_inputs),
        m(std::bit_ceil(rows)) {
    for (std::uint32_t i = 0; i < cs.size(); ++i) {
      const R1csConstraint c = cs.constraint(i);
      for (std::uint32_t k = 0; k < c.a.size(); ++k)
        if (!coefficient(c.a[k]).is_zero()) in_a.insert(c.a[k].wire);
      for (std::uint32_t k = 0; k < c.b.size(); ++k)
        if (!coefficient(c.b[k]).is_zero()) in_b.insert(c.b[k].wire);
    }
    for (std::uint32_t i = 0; i < num_inputs; ++i) in_a.insert(i);  // the x_i * 0 = 0 rows
  }
  // Position of variable v in a density-filtered query.
  static std::size_t position(const std::set<std::uint32_t>& kept, std::uint32_t v) {
    return static_cast<std::size_t>(std::distance(kept.begin(), kept.lower_bound(v)));
  }
};

// ω = 7^((r − 1)/m) for a power of two m ≤ 2^32, computed directly: the same number as blstrs's
// ROOT_OF_UNITY^(2^(32 − log2 m)), since ROOT_OF_UNITY = 7^((r − 1)/2^32).
inline Fr seventh_root_of_unity(std::size_t m) {
  Fr::Int e = Fr::kModulus;
  e.limbs[0] -= 1;
  for (std::size_t s = 1; s < m; s *= 2) e.shr1();
  return Fr::from_u64(7).pow(e);
}

// L_j(tau) = Π_{k≠j} (tau − ω^k)/(ω^j − ω^k) with ω = 7^((r − 1)/m) computed here directly.
class ProductLagrange {
 public:
  ProductLagrange(std::size_t m, const Fr& tau) : tau_(tau) {
    const Fr omega = seventh_root_of_unity(m);
    Fr w = Fr::one();
    for (std::size_t k = 0; k < m; ++k, w *= omega) powers_.push_back(w);
  }
  Fr operator()(std::size_t j) {
    if (const auto it = cache_.find(j); it != cache_.end()) return it->second;
    Fr num = Fr::one(), den = Fr::one();
    for (std::size_t k = 0; k < powers_.size(); ++k) {
      if (k == j) continue;
      num *= tau_ - powers_[k];
      den *= powers_[j] - powers_[k];
    }
    return cache_[j] = num * den.inverse();
  }

 private:
  Fr tau_;
  std::vector<Fr> powers_;
  std::map<std::size_t, Fr> cache_;
};

struct Qap {
  Fr at, bt, ct;
};

// at, bt, ct of the chosen variables, summed over the r1cs rows and the input rows.
inline std::map<std::uint32_t, Qap> qap_of(const R1cs& cs, const std::set<std::uint32_t>& vars, ProductLagrange& lag) {
  std::map<std::uint32_t, Qap> q;
  for (const std::uint32_t v : vars) q[v] = {};
  for (std::uint32_t row = 0; row < cs.size(); ++row) {
    const R1csConstraint c = cs.constraint(row);
    const auto add = [&](const LinearCombination& lc, Fr Qap::*poly) {
      for (std::uint32_t k = 0; k < lc.size(); ++k)
        if (const auto it = q.find(lc[k].wire); it != q.end()) it->second.*poly += coefficient(lc[k]) * lag(row);
    };
    add(c.a, &Qap::at);
    add(c.b, &Qap::bt);
    add(c.c, &Qap::ct);
  }
  const std::uint32_t num_inputs = 1 + cs.header().n_pub_out + cs.header().n_pub_in;
  for (auto& [v, p] : q)
    if (v < num_inputs) p.at += lag(cs.size() + v);
  return q;
}

inline void expect_counts(const ParsedParams& p, const Shape& s) {
  EXPECT_EQ(p.ic.size(), s.num_inputs);
  EXPECT_EQ(p.l.size(), s.num_vars - s.num_inputs);
  EXPECT_EQ(p.h.size(), s.m - 1);
  EXPECT_EQ(p.a.size(), s.in_a.size());
  EXPECT_EQ(p.b_g1.size(), s.in_b.size());
  EXPECT_EQ(p.b_g2.size(), s.in_b.size());
}

// The vk, the first and last h, every ic, and the l, a, b_g1, b_g2 points of `sample` variables.
inline void expect_values(const R1cs& cs, const ParsedParams& p, const Shape& s, std::uint64_t seed,
                   const std::set<std::uint32_t>& sample) {
  const ToxicWaste t = draw_toxic_waste(seed);
  EXPECT_EQ(p.alpha_g1, g1_times(t.alpha));
  EXPECT_EQ(p.beta_g1, g1_times(t.beta));
  EXPECT_EQ(p.beta_g2, g2_times(t.beta));
  EXPECT_EQ(p.gamma_g2, g2_times(t.gamma));
  EXPECT_EQ(p.delta_g1, g1_times(t.delta));
  EXPECT_EQ(p.delta_g2, g2_times(t.delta));

  const Fr z_over_delta = (t.tau.pow(static_cast<std::uint64_t>(s.m)) - Fr::one()) * t.delta.inverse();
  ASSERT_FALSE(p.h.empty());
  EXPECT_EQ(p.h.front(), g1_times(z_over_delta));
  EXPECT_EQ(p.h.back(), g1_times(t.tau.pow(static_cast<std::uint64_t>(s.m - 2)) * z_over_delta));

  std::set<std::uint32_t> vars = sample;
  for (std::uint32_t i = 0; i < s.num_inputs; ++i) vars.insert(i);
  ProductLagrange lag(s.m, t.tau);
  const std::map<std::uint32_t, Qap> q = qap_of(cs, vars, lag);
  const Fr gamma_inv = t.gamma.inverse(), delta_inv = t.delta.inverse();
  for (const auto& [v, e] : q) {
    const Fr ext = t.beta * e.at + t.alpha * e.bt + e.ct;
    if (v < s.num_inputs) {
      EXPECT_EQ(p.ic[v], g1_times(ext * gamma_inv)) << "ic " << v;
    } else {
      EXPECT_EQ(p.l[v - s.num_inputs], g1_times(ext * delta_inv)) << "l " << v;
    }
    EXPECT_EQ(e.at.is_zero(), !s.in_a.contains(v)) << v;
    EXPECT_EQ(e.bt.is_zero(), !s.in_b.contains(v)) << v;
    if (s.in_a.contains(v)) {
      EXPECT_EQ(p.a[Shape::position(s.in_a, v)], g1_times(e.at)) << "a " << v;
    }
    if (s.in_b.contains(v)) {
      EXPECT_EQ(p.b_g1[Shape::position(s.in_b, v)], g1_times(e.bt)) << "b_g1 " << v;
      EXPECT_EQ(p.b_g2[Shape::position(s.in_b, v)], g2_times(e.bt)) << "b_g2 " << v;
    }
  }
}

}  // namespace zkp::bellperson_setup::test
