#include "core/formats/wtns.hpp"

#include "core/formats/binfile.hpp"
#include "core/formats/decimal.hpp"
#include "core/formats/error.hpp"
#include "core/formats/r1cs.hpp"
#include "core/formats/zkey.hpp"

namespace zkp {
namespace {

constexpr std::uint32_t kWtnsVersion = 2;

std::uint32_t id(WtnsSection s) { return static_cast<std::uint32_t>(s); }

void check_same(std::string_view witness_name, Curve witness, std::string_view other_name,
                Curve other, std::string_view other_kind, std::uint64_t have, std::uint64_t want) {
  if (witness != other) {
    format_fail(witness_name, "witness is over ", curve_info(witness).name, "'s scalar field, the ",
                other_kind, " is for ", curve_info(other).name, " (", other_kind, " ", other_name,
                ")");
  }
  if (have != want) {
    format_fail(witness_name, "witness has ", have, " values, the ", other_kind, " expects ", want,
                " (", other_kind, " ", other_name, ")");
  }
}

}  // namespace

Wtns read_wtns(ByteSource source, std::optional<Curve> expected) {
  Wtns w(std::move(source));
  const BinFile bin(w.source_.bytes(), w.source_.name(), "wtns", kWtnsVersion);

  const BinSection& hs = bin.require(id(WtnsSection::header), "header");
  ByteReader r = bin.reader(hs, "header");
  w.n8_ = r.u32("n8");
  w.prime_ = r.take(w.n8_, "prime");
  w.n_witness_ = r.u32("nWitness");
  if (r.remaining() != 0) {
    format_fail(bin.file(), section_label(hs.id, "header"), ": ", r.remaining(),
                " unexpected bytes after nWitness (offset ", r.offset(), ")");
  }
  const std::optional<Curve> curve = curve_from_scalar_prime(w.prime_);
  if (!curve) {
    format_fail(bin.file(), section_label(hs.id, "header"), ": prime ", le_to_decimal(w.prime_),
                " is not the scalar field of BN254 or BLS12-381");
  }
  if (expected && *expected != *curve) {
    format_fail(bin.file(), section_label(hs.id, "header"), ": witness is over ",
                curve_info(*curve).name, "'s scalar field, expected ", curve_info(*expected).name);
  }
  w.curve_ = *curve;

  const BinSection& vs = bin.require(id(WtnsSection::values), "values");
  bin.expect_size(vs, "values", std::uint64_t{w.n_witness_} * w.n8_,
                  detail::concat("nWitness ", w.n_witness_, " x n8 ", w.n8_));
  w.values_ = vs.data;
  for (std::uint32_t i = 0; i < w.n_witness_; ++i) {
    if (!le_less(w.value(i), w.prime_)) {
      format_fail(bin.file(), section_label(vs.id, "values"), ": value ", i, " at offset ",
                  vs.offset + std::uint64_t{i} * w.n8_, " is not below the prime");
    }
  }
  return w;
}

void check_witness_matches(const Zkey& key, const Wtns& wtns) {
  check_same(wtns.name(), wtns.curve(), key.name(), key.header().curve, "key", wtns.size(),
             key.header().n_vars);
}

void check_witness_matches(const R1cs& r1cs, const Wtns& wtns) {
  check_same(wtns.name(), wtns.curve(), r1cs.name(), r1cs.header().curve, "circuit", wtns.size(),
             r1cs.header().n_wires);
}

}  // namespace zkp
