// The two pairing engines for typed tests, with their data-folder suffixes.
#pragma once

#include <string>

#include "core/pairing/bls12_381.hpp"
#include "core/pairing/bn254.hpp"

namespace zkp::test {

template <class E>
struct Suffix;
template <>
struct Suffix<bn254::Engine> {
  static constexpr const char* kValue = "bn128";
};
template <>
struct Suffix<bls12_381::Engine> {
  static constexpr const char* kValue = "bls12381";
};

// "chain7" → "chain7_bn128": the data folder of a circuit for this curve.
template <class E>
std::string vector_dir(const std::string& circuit) {
  return circuit + "_" + Suffix<E>::kValue;
}

}  // namespace zkp::test
