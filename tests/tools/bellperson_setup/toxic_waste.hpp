// The toxic waste of a Groth16 setup, drawn from a KNOWN seed: anyone with the seed can forge
// proofs for parameters made from it. For tests and benchmarks only.
#pragma once

#include <cstdint>
#include <string>

#include "core/ff/bls12_381.hpp"

namespace zkp::bellperson_setup {

struct ToxicWaste {
  bls12_381::Fr tau, alpha, beta, gamma, delta;
};

// tau, alpha, beta, gamma, delta in that order, each Fr::random from one std::mt19937_64
// seeded with `seed`, so a seed names one setup on every platform (mt19937_64's output is fixed
// by the standard). Throws std::runtime_error if any is zero (gamma and delta are inverted;
// a zero tau, alpha or beta would make the setup degenerate) — probability ~2^-253.
ToxicWaste draw_toxic_waste(std::uint64_t seed);

// {"seed": "N", "tau": "…", "alpha": "…", "beta": "…", "gamma": "…", "delta": "…"}: decimal
// strings of the standard-form values, as snarkjs writes field elements.
std::string toxic_waste_json(const ToxicWaste& t, std::uint64_t seed);

}  // namespace zkp::bellperson_setup
