// The two curves snarkjs proves over, identified the way snarkjs does: by their primes.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/formats/bytes.hpp"

namespace zkp {

enum class Curve { bn254, bls12_381 };

struct CurveInfo {
  Curve curve;
  std::string_view name;          // for messages: "BN254", "BLS12-381"
  std::string_view snarkjs_name;  // proof.json / vkey.json "curve": "bn128", "bls12381"
  std::uint32_t n8q;              // bytes per base-field element (zkey n8q)
  std::uint32_t n8r;              // bytes per scalar (zkey n8r, wtns/r1cs n8)
  ByteView q;                     // base-field prime, n8q bytes little-endian
  ByteView r;                     // scalar-field prime (group order), n8r bytes little-endian
};

const CurveInfo& curve_info(Curve c);

// Affine point sizes as snarkjs stores them: x|y, each coordinate n8q bytes (G2:
// x.c0|x.c1|y.c0|y.c1).
inline std::uint64_t g1_bytes(const CurveInfo& c) { return 2ull * c.n8q; }
inline std::uint64_t g2_bytes(const CurveInfo& c) { return 4ull * c.n8q; }

// The curve whose base prime is `q` and scalar prime is `r` (both little-endian, any length).
std::optional<Curve> curve_from_primes(ByteView q, ByteView r);
// The curve whose scalar prime is `r`: .wtns and .r1cs record only the field they live in.
std::optional<Curve> curve_from_scalar_prime(ByteView r);
// "bn128" / "bls12381" as written in snarkjs JSON.
std::optional<Curve> curve_from_snarkjs_name(std::string_view name);

}  // namespace zkp
