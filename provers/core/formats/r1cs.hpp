// Constraint systems in circom's .r1cs layout, version 1 (r1csfile 0.0.48):
//   1: u32 n8 | prime | u32 nWires | u32 nPubOut | u32 nPubIn | u32 nPrvIn | u64 nLabels |
//      u32 nConstraints
//   2: nConstraints x (A, B, C), each a linear combination: u32 nTerms, nTerms x {u32 wire,
//      n8-byte coefficient in standard form}
//   3: nWires x u64 label id
// Wire 0 is the constant 1, then outputs, public inputs, private inputs, internal wires.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/formats/bytes.hpp"
#include "core/formats/curve.hpp"
#include "core/formats/mapped_file.hpp"

namespace zkp {

enum class R1csSection : std::uint32_t {
  header = 1,
  constraints = 2,
  wire_labels = 3,
  custom_gates_list = 4,  // PLONK custom gates: refused, Groth16 cannot prove them
  custom_gates_uses = 5,
};

struct R1csHeader {
  Curve curve;
  std::uint32_t n8;
  ByteView prime;
  std::uint32_t n_wires;
  std::uint32_t n_pub_out;
  std::uint32_t n_pub_in;
  std::uint32_t n_prv_in;
  std::uint64_t n_labels;
  std::uint32_t n_constraints;
};

struct R1csTerm {
  std::uint32_t wire;
  ByteView coefficient;  // n8 bytes, standard form, < prime
};

// A view of one stored linear combination (already validated by read_r1cs).
class LinearCombination {
 public:
  LinearCombination() = default;
  LinearCombination(ByteView terms, std::uint32_t n_terms, std::uint32_t n8)
      : terms_(terms), n_terms_(n_terms), n8_(n8) {}

  std::uint32_t size() const { return n_terms_; }
  // i < size(); unchecked, like std::span (the parser validated every term).
  R1csTerm operator[](std::uint32_t i) const {
    const std::byte* p = terms_.data() + static_cast<std::size_t>(i) * (4 + n8_);
    return {load_u32le(p), ByteView(p + 4, n8_)};
  }

 private:
  ByteView terms_;
  std::uint32_t n_terms_ = 0;
  std::uint32_t n8_ = 0;
};

struct R1csConstraint {
  LinearCombination a, b, c;  // satisfied when (A.w) * (B.w) == C.w
};

class R1cs;
// Parses and checks a v1 r1cs: header size, prime (BN254 or BLS12-381 scalar field), wire counts
// consistent (1 + outputs + inputs <= nWires), every term's wire < nWires and coefficient <
// prime, section 2 consumed exactly, one label per wire, no custom gates. Throws FormatError.
R1cs read_r1cs(ByteSource source);

// A parsed circuit. Owns its ByteSource; constraints are decoded on access from an index of
// their offsets (8 bytes per constraint, rather than 3 decoded combinations).
class R1cs {
 public:
  const R1csHeader& header() const { return header_; }
  std::uint32_t size() const { return header_.n_constraints; }
  // i < size(); unchecked, like std::span.
  R1csConstraint constraint(std::uint32_t i) const;
  // The circom label id of a wire (the .sym file maps it to a signal name); wire < n_wires.
  std::uint64_t wire_label(std::uint32_t wire) const {
    return load_u64le(labels_.data() + static_cast<std::size_t>(wire) * 8);
  }
  const std::string& name() const { return source_.name(); }

 private:
  friend R1cs read_r1cs(ByteSource source);
  explicit R1cs(ByteSource source) : source_(std::move(source)) {}

  ByteSource source_;
  R1csHeader header_{};
  ByteView constraints_;                // section 2
  std::vector<std::uint64_t> offsets_;  // start of constraint i inside constraints_
  ByteView labels_;                     // section 3
};

}  // namespace zkp
