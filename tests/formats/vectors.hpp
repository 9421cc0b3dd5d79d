// The committed snarkjs vectors (tests/vectors/data, samples/circuits) and what snarkjs 0.7.6
// itself reads from them, printed by tests/vectors/describe.mjs (zKey.exportJson, r1csfile
// readR1cs, wtns.exportJson). Regenerating the vectors keeps these numbers: they depend on the
// circuits, not on the ceremony's randomness.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/formats/bytes.hpp"
#include "core/formats/curve.hpp"

namespace zkp::test {

struct VectorInfo {
  const char* dir;
  std::uint32_t n8q;
  // zkey
  std::uint32_t n_vars, n_public, domain_size, n_coefficients;
  // r1cs
  std::uint32_t n_wires, n_outputs, n_pub_inputs, n_prv_inputs;
  std::uint64_t n_labels;
  std::uint32_t n_constraints;
  // wtns
  std::uint32_t n_witness;
};

inline const std::vector<VectorInfo>& all_vectors() {
  static const std::vector<VectorInfo> v = {
      // dir, n8q, nVars, nPublic, domainSize, #coefs, nWires, nOut, nPubIn, nPrvIn, nLabels,
      // nConstraints, nWitness
      {"chain_bn128", 32, 2003, 2, 2048, 4003, 2003, 1, 1, 1, 2005, 2000, 2003},
      {"chain_bls12381", 48, 2003, 2, 2048, 4003, 2003, 1, 1, 1, 2005, 2000, 2003},
      {"many_public_bn128", 32, 547, 34, 1024, 1857, 547, 2, 32, 1, 549, 513, 547},
      {"many_public_bls12381", 48, 547, 34, 1024, 1857, 547, 2, 32, 1, 549, 513, 547},
      {"poseidon_bn128", 32, 1554, 2, 2048, 1461, 1554, 1, 1, 1, 2309, 1551, 1554},
      {"poseidon_bls12381", 48, 1554, 2, 2048, 1461, 1554, 1, 1, 1, 2309, 1551, 1554},
      {"multiplier_bn128", 32, 4, 1, 4, 4, 4, 1, 0, 2, 4, 1, 4},
  };
  return v;
}

inline std::filesystem::path vector_dir(const VectorInfo& v) {
  const std::filesystem::path root = ZKPIPE_SOURCE_DIR;
  if (std::string(v.dir) == "multiplier_bn128") return root / "samples/circuits" / v.dir;
  return root / "tests/vectors/data" / v.dir;
}

inline Curve vector_curve(const VectorInfo& v) {
  return std::string(v.dir).ends_with("bls12381") ? Curve::bls12_381 : Curve::bn254;
}

inline std::vector<std::byte> read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::vector<char> c((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> out(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) out[i] = static_cast<std::byte>(c[i]);
  return out;
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Little-endian u32 overwrite, for mutating headers in place.
inline void put_u32(std::vector<std::byte>& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::byte>(v >> (8 * i));
}
inline void put_u64(std::vector<std::byte>& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<std::byte>(v >> (8 * i));
}

// File offset of section `id`'s 12-byte header in a binfile (walks the section table).
inline std::size_t section_header_at(const std::vector<std::byte>& b, std::uint32_t id) {
  std::size_t at = 12;
  while (at + 12 <= b.size()) {
    const std::uint32_t sid = load_u32le(b.data() + at);
    const std::uint64_t len = load_u64le(b.data() + at + 4);
    if (sid == id) return at;
    at += 12 + static_cast<std::size_t>(len);
  }
  return static_cast<std::size_t>(-1);
}

}  // namespace zkp::test
