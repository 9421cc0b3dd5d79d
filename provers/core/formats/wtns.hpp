// Witnesses in snarkjs's .wtns layout, version 2 (snarkjs 0.7.6 wtns_utils.js):
//   section 1: u32 n8 | prime (n8 bytes) | u32 nWitness;  section 2: nWitness x n8-byte values.
// Values are standard form (not Montgomery), little-endian, indexed by wire (value 0 = 1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "core/formats/bytes.hpp"
#include "core/formats/curve.hpp"
#include "core/formats/mapped_file.hpp"

namespace zkp {

class Zkey;
class R1cs;

enum class WtnsSection : std::uint32_t { header = 1, values = 2 };

class Wtns;
// Parses a v2 witness and checks it: the prime is one of the supported curves' scalar primes
// (and `expected`'s when given), section 2 holds exactly nWitness x n8 bytes, and every value is
// below the prime. Throws FormatError.
Wtns read_wtns(ByteSource source, std::optional<Curve> expected = std::nullopt);

// A parsed witness. Owns its ByteSource (a file, or a host buffer it borrows); the views are
// valid for its lifetime, across moves.
class Wtns {
 public:
  Curve curve() const { return curve_; }
  std::uint32_t n8() const { return n8_; }
  ByteView prime() const { return prime_; }
  std::uint32_t size() const { return n_witness_; }  // nWitness
  ByteView values() const { return values_; }        // all values, back to back
  // Wire i's value, i < size() (unchecked, like std::span).
  ByteView value(std::uint32_t i) const {
    return values_.subspan(static_cast<std::size_t>(i) * n8_, n8_);
  }
  const std::string& name() const { return source_.name(); }

 private:
  friend Wtns read_wtns(ByteSource source, std::optional<Curve> expected);
  explicit Wtns(ByteSource source) : source_(std::move(source)) {}

  ByteSource source_;
  Curve curve_ = Curve::bn254;
  std::uint32_t n8_ = 0;
  ByteView prime_;
  std::uint32_t n_witness_ = 0;
  ByteView values_;
};

// Throws FormatError unless the witness fits the key: the same scalar field ("witness is over
// BLS12-381's scalar field, the key is for BN254") and one value per key wire ("witness has X
// values, the key expects Y").
void check_witness_matches(const Zkey& key, const Wtns& wtns);
// The same for a circuit: one value per r1cs wire, same prime.
void check_witness_matches(const R1cs& r1cs, const Wtns& wtns);

}  // namespace zkp
