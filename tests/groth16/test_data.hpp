// The committed vectors under tests/groth16/data/ (see data/README.md): snarkjs 0.7.6 keys,
// witnesses, and det/ — snarkjs's own prover re-run with r = s = 0, every intermediate dumped
// as little-endian standard-form scalars.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/formats/bytes.hpp"

namespace zkp::test {

inline std::filesystem::path data_dir() { return ZKPIPE_GROTH16_DATA_DIR; }

inline std::vector<std::byte> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(chars.size());
  for (std::size_t i = 0; i < chars.size(); ++i) out[i] = static_cast<std::byte>(chars[i]);
  return out;
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + p.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A det/*.bin dump: standard-form little-endian scalars.
template <class Fr>
std::vector<Fr> read_scalars(const std::filesystem::path& p) {
  const auto bytes = read_file(p);
  std::vector<Fr> out(bytes.size() / Fr::kBytes);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::array<std::uint8_t, Fr::kBytes> b;
    std::memcpy(b.data(), bytes.data() + i * Fr::kBytes, Fr::kBytes);
    const auto v = Fr::from_bytes(b);
    if (!v) throw std::runtime_error(p.string() + ": value not below r");
    out[i] = *v;
  }
  return out;
}

}  // namespace zkp::test
