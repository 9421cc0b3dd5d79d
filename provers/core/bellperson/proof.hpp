// bellperson's proof bytes (src/groth16/proof.rs, Proof::write / read_many): 192 bytes,
//   A  zcash compressed G1 (48) | B  compressed G2 (96) | C  compressed G1 (48)
// (core/ec/zcash_encoding.hpp). What Filecoin puts on chain, and what supraseal's callers get.
// zkpipe's own proof bytes at the ABI are core/groth16/proof_codec.hpp's (uncompressed, LE).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "core/ec/encoding.hpp"
#include "core/ec/zcash_encoding.hpp"
#include "core/pairing/verify.hpp"

namespace zkp::bellperson {

using Proof = groth16::Proof<bls12_381::Engine>;

inline constexpr std::size_t kProofBytes =
    2 * zcash::kCompressedBytes<bls12_381::G1> + zcash::kCompressedBytes<bls12_381::G2>;
static_assert(kProofBytes == 192);

// Any points, infinity included (encoded with the infinity flag, which read_proof refuses).
void write_proof(const Proof& proof, std::span<std::uint8_t, kProofBytes> out);

struct ProofReadResult {
  PointStatus status = PointStatus::ok;
  const char* where = "";  // "A", "B" or "C": the first point that failed, in that order

  bool ok() const { return status == PointStatus::ok; }
  std::string message() const;  // "B: point not in the prime-order subgroup"
};

// Decompresses A, B, C, each checked to be in its prime-order subgroup; a point at infinity is
// refused (at_infinity), as bellperson's reader does. Writes `out` only on success.
ProofReadResult read_proof(std::span<const std::uint8_t, kProofBytes> in, Proof& out);

}  // namespace zkp::bellperson
