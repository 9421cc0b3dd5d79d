// Writes a bellperson Groth16 parameter file for an r1cs from known toxic waste: the math of
// bellperson's generate_parameters (src/groth16/generator.rs) and the layout of
// Parameters::write (src/groth16/params.rs, verifying_key.rs):
//
//   vk:  alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2      [α]G1 [β]G1 [β]G2 [γ]G2 [δ]G1 [δ]G2
//        u32 BE n, ic[n]      inputs i:   [(β·at + α·bt + ct)/γ]G1        (may hold infinity)
//   u32 BE n, h[n]            i < m − 1:  [tau^i·(tau^m − 1)/δ]G1
//   u32 BE n, l[n]            aux j:      [(β·at + α·bt + ct)/δ]G1
//   u32 BE n, a[n]            variables with at ≠ 0, inputs then aux:  [at]G1
//   u32 BE n, b_g1[n]         variables with bt ≠ 0:                    [bt]G1
//   u32 BE n, b_g2[n]         the same variables:                       [bt]G2
// with at, bt, ct from qap_at_tau.hpp and points in blst_point_encoding.hpp's form. G1 and G2
// are the standard generators (bellperson draws random ones; any generator gives valid
// parameters, and the verifier never sees it).
//
// The output is streamed in batches; at no point is more than one batch of points held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string_view>

#include "core/formats/r1cs.hpp"
#include "core/util/thread_pool.hpp"
#include "toxic_waste.hpp"

namespace zkp::bellperson_setup {

struct ParamsCounts {
  std::size_t ic = 0, h = 0, l = 0, a = 0, b = 0;  // b counts b_g1 and b_g2 alike
};

// Bytes of a file with these counts: 3 G1 + 3 G2 vk points, six u32 counts, the queries.
std::uint64_t params_file_bytes(const ParamsCounts& c);

// Told the name and seconds of each phase as it ends ("qap", "tables", "vk+ic", "h", "l", "a",
// "b_g1", "b_g2").
using PhaseReporter = std::function<void(std::string_view phase, double seconds)>;

// Writes the file to `out` and returns its counts. Throws std::invalid_argument for a circuit
// that is not BLS12-381, that has an aux variable in no constraint (bellperson's
// UnconstrainedVariable: its l point would be infinity), or whose counts overflow a u32;
// std::runtime_error if tau is a point of the domain (Z(tau) = 0) or the stream fails.
ParamsCounts write_params(const R1cs& circuit, const ToxicWaste& toxic, std::ostream& out, ThreadPool& pool,
                          const PhaseReporter& report = {});

}  // namespace zkp::bellperson_setup
