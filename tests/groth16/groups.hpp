// The two pairing engines for typed tests, with their data-folder suffixes.
#pragma once

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

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

// Every folder for this curve under the committed data roots (tests/groth16/data and
// tests/vectors/data, ZKPIPE_VECTORS_DATA_DIR) that holds all of `files`, sorted.
template <class E>
std::vector<std::filesystem::path> vector_dirs(const std::filesystem::path& root_a, const std::filesystem::path& root_b,
                                               std::initializer_list<const char*> files) {
  std::vector<std::filesystem::path> out;
  const std::string suffix = std::string("_") + Suffix<E>::kValue;
  for (const std::filesystem::path& root : {root_a, root_b}) {
    if (!std::filesystem::exists(root)) continue;
    for (const auto& d : std::filesystem::directory_iterator(root)) {
      const std::string name = d.path().filename().string();
      if (name.size() <= suffix.size() || !name.ends_with(suffix)) continue;
      if (std::all_of(files.begin(), files.end(), [&](const char* f) { return std::filesystem::exists(d.path() / f); })) {
        out.push_back(d.path());
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace zkp::test
