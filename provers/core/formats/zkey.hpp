// Groth16 proving keys in snarkjs's .zkey layout (snarkjs 0.7.6 zkey_utils.js, zkey_new.js).
// Only Groth16 (protocol 1); PLONK and FFLONK keys are refused by name.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "core/formats/bytes.hpp"
#include "core/formats/curve.hpp"
#include "core/formats/mapped_file.hpp"
#include "core/formats/point_validator.hpp"

namespace zkp {

// Section ids of a Groth16 zkey.
enum class ZkeySection : std::uint32_t {
  header = 1,          // u32 protocol
  groth16_header = 2,  // primes, sizes, alpha1 .. delta2
  ic = 3,              // nPublic + 1 G1
  coefficients = 4,    // A and B matrix entries (C is implied by A.w * B.w)
  a = 5,               // nVars G1
  b1 = 6,              // nVars G1
  b2 = 7,              // nVars G2
  c = 8,               // nVars - nPublic - 1 G1 (private wires only)
  h = 9,               // domainSize G1
  contributions = 10,  // ceremony transcript; not needed to prove, not checked
};

inline constexpr std::uint32_t kGroth16ProtocolId = 1;

// Section 2. Points are affine, coordinates n8q bytes little-endian in Montgomery form
// (x * 2^(8*n8q) mod q), all-zero = infinity. Every view points into the Zkey's bytes.
struct ZkeyHeader {
  Curve curve;
  std::uint32_t n8q;
  std::uint32_t n8r;
  ByteView q;
  ByteView r;
  std::uint32_t n_vars;            // wires, including the constant-1 wire 0
  std::uint32_t n_public;          // public outputs + public inputs, without wire 0
  std::uint32_t domain_size;       // power of two > nConstraints + nPublic
  ByteView alpha1, beta1, delta1;  // G1
  ByteView beta2, gamma2, delta2;  // G2
};

// One entry of section 4: `value` is the coefficient times R^2 mod r (R = 2^(8*n8r)), so one
// Montgomery multiplication by a standard-form witness value gives coefficient * w in
// Montgomery form (snarkjs zkey_utils.js writeFr2).
struct ZkeyCoefficient {
  std::uint32_t matrix;  // 0 = A, 1 = B
  std::uint32_t row;     // constraint index, < domainSize
  std::uint32_t wire;    // < nVars
  ByteView value;        // n8r bytes
};

// Section 4 as stored: u32 count, then count x {u32 matrix, u32 row, u32 wire, n8r value}.
class ZkeyCoefficients {
 public:
  ZkeyCoefficients() = default;
  ZkeyCoefficients(ByteView entries, std::uint32_t count, std::uint32_t n8r)
      : entries_(entries), count_(count), entry_bytes_(kFixedBytes + n8r) {}

  std::uint32_t size() const { return count_; }
  std::uint32_t entry_bytes() const { return entry_bytes_; }
  // The entries without the leading count, for provers that stream them.
  ByteView raw() const { return entries_; }
  // i < size(); unchecked, like std::span (read_zkey validated every entry).
  ZkeyCoefficient operator[](std::uint32_t i) const {
    const std::byte* p = entries_.data() + static_cast<std::size_t>(i) * entry_bytes_;
    return {load_u32le(p), load_u32le(p + 4), load_u32le(p + 8),
            ByteView(p + kFixedBytes, entry_bytes_ - kFixedBytes)};
  }

  static constexpr std::uint32_t kFixedBytes = 12;  // matrix, row, wire

 private:
  ByteView entries_;
  std::uint32_t count_ = 0;
  std::uint32_t entry_bytes_ = 0;
};

// The point sections, each exactly the size the header implies.
struct ZkeyPoints {
  ByteView ic;  // nPublic + 1 G1
  ByteView a;   // nVars G1
  ByteView b1;  // nVars G1
  ByteView b2;  // nVars G2
  ByteView c;   // nVars - nPublic - 1 G1, for wires nPublic+1 ..
  ByteView h;   // domainSize G1
};

class ThreadPool;

struct ZkeyReadOptions {
  // Curve-point checks, none by default (see point_validator.hpp).
  PointValidator validate_points;
  // Where the coefficient checks run (one per constraint entry: 2^25 at a 2^24 key, ~0.3 s on
  // one thread); null: the calling thread. The error names the first bad entry either way.
  ThreadPool* pool = nullptr;
};

class Zkey;
// Parses and checks a Groth16 zkey: container, protocol (1), curve (from q and r: BN254 or
// BLS12-381), every section's size against nVars / nPublic / domainSize, domainSize a power of
// two, and every coefficient (matrix 0 or 1, row < domainSize, wire < nVars, value < r).
// Throws FormatError naming the file, the section and expected vs found.
Zkey read_zkey(ByteSource source, const ZkeyReadOptions& options = {});

// The zkey header and section table at `path` (check_bin_layout), before the file is read
// whole: what is no zkey is refused without holding it in memory.
void check_zkey_layout(const std::filesystem::path& path);

// A parsed key. Owns its ByteSource; every view (header points, sections, coefficients) points
// into it and is valid for the Zkey's lifetime, across moves.
class Zkey {
 public:
  const ZkeyHeader& header() const { return header_; }
  const ZkeyPoints& points() const { return points_; }
  const ZkeyCoefficients& coefficients() const { return coefficients_; }
  const CurveInfo& curve() const { return curve_info(header_.curve); }
  const std::string& name() const { return source_.name(); }

  // ByteSource::discard on a range of this key's bytes (e.g. a point section that was copied
  // elsewhere): when the key was read from a file, the range reads as zeros afterwards.
  void discard(ByteView part) noexcept { source_.discard(part); }

 private:
  friend Zkey read_zkey(ByteSource source, const ZkeyReadOptions& options);
  explicit Zkey(ByteSource source) : source_(std::move(source)) {}

  ByteSource source_;
  ZkeyHeader header_{};
  ZkeyPoints points_;
  ZkeyCoefficients coefficients_;
};

}  // namespace zkp
