#include "core/formats/r1cs.hpp"

#include "core/formats/binfile.hpp"
#include "core/formats/decimal.hpp"
#include "core/formats/error.hpp"

namespace zkp {
namespace {

constexpr std::uint32_t kR1csVersion = 1;
constexpr std::uint64_t kLabelBytes = 8;

std::uint32_t id(R1csSection s) { return static_cast<std::uint32_t>(s); }

R1csHeader read_header(const BinFile& bin) {
  const BinSection& s = bin.require(id(R1csSection::header), "header");
  ByteReader r = bin.reader(s, "header");
  R1csHeader h{};
  h.n8 = r.u32("n8");
  h.prime = r.take(h.n8, "prime");
  h.n_wires = r.u32("nWires");
  h.n_pub_out = r.u32("nPubOut");
  h.n_pub_in = r.u32("nPubIn");
  h.n_prv_in = r.u32("nPrvIn");
  h.n_labels = r.u64("nLabels");
  h.n_constraints = r.u32("nConstraints");
  const std::string where = section_label(s.id, "header");
  if (r.remaining() != 0) {
    format_fail(bin.file(), where, ": ", r.remaining(), " unexpected bytes after nConstraints");
  }
  const std::optional<Curve> curve = curve_from_scalar_prime(h.prime);
  if (!curve) {
    format_fail(bin.file(), where, ": prime ", le_to_decimal(h.prime),
                " is not the scalar field of BN254 or BLS12-381");
  }
  h.curve = *curve;
  const std::uint64_t named = 1ull + h.n_pub_out + h.n_pub_in + h.n_prv_in;
  if (named > h.n_wires) {
    format_fail(bin.file(), where, ": 1 + nPubOut + nPubIn + nPrvIn = ", named, " exceeds nWires ",
                h.n_wires);
  }
  return h;
}

}  // namespace

R1csConstraint R1cs::constraint(std::uint32_t i) const {
  const std::uint64_t term_bytes = 4ull + header_.n8;
  std::size_t at = static_cast<std::size_t>(offsets_[i]);
  auto next = [&] {
    const std::uint32_t n = load_u32le(constraints_.data() + at);
    const std::size_t len = static_cast<std::size_t>(n * term_bytes);
    LinearCombination lc(constraints_.subspan(at + 4, len), n, header_.n8);
    at += 4 + len;
    return lc;
  };
  R1csConstraint c;
  c.a = next();
  c.b = next();
  c.c = next();
  return c;
}

R1cs read_r1cs(ByteSource source) {
  R1cs cs(std::move(source));
  const BinFile bin(cs.source_.bytes(), cs.source_.name(), "r1cs", kR1csVersion);
  if (bin.find(id(R1csSection::custom_gates_list)) ||
      bin.find(id(R1csSection::custom_gates_uses))) {
    format_fail(bin.file(),
                "uses custom gates (sections 4/5, circom --O2 with PLONK gates); "
                "Groth16 cannot prove them");
  }
  const R1csHeader h = read_header(bin);

  const BinSection& cs2 = bin.require(id(R1csSection::constraints), "constraints");
  ByteReader r = bin.reader(cs2, "constraints");
  // Each constraint takes at least 12 bytes (three empty combinations): bound the count before
  // reserving the index.
  if (h.n_constraints > r.remaining() / 12) {
    format_fail(bin.file(), section_label(cs2.id, "constraints"), ": nConstraints ",
                h.n_constraints, " cannot fit in ", r.remaining(), " bytes");
  }
  cs.offsets_.reserve(h.n_constraints);
  const std::uint64_t term_bytes = 4ull + h.n8;
  static constexpr std::string_view kMatrix[] = {"A", "B", "C"};
  for (std::uint32_t i = 0; i < h.n_constraints; ++i) {
    cs.offsets_.push_back(r.position());
    for (std::string_view m : kMatrix) {
      const std::uint64_t lc_at = r.offset();
      const std::uint32_t n = r.u32("term count");
      const ByteView terms = r.take(n * term_bytes, "terms");
      for (std::uint32_t t = 0; t < n; ++t) {
        const std::byte* p = terms.data() + t * term_bytes;
        const std::uint32_t wire = load_u32le(p);
        auto bad = [&](auto&&... parts) {
          format_fail(bin.file(), section_label(cs2.id, "constraints"), ": constraint ", i, " ", m,
                      " term ", t, " (combination at offset ", lc_at, "): ", parts...);
        };
        if (wire >= h.n_wires) bad("wire ", wire, " out of range (nWires ", h.n_wires, ")");
        if (!le_less(ByteView(p + 4, h.n8), h.prime)) bad("coefficient is not below the prime");
      }
    }
  }
  if (r.remaining() != 0) {
    format_fail(bin.file(), section_label(cs2.id, "constraints"), ": ", r.remaining(),
                " unexpected bytes after constraint ", h.n_constraints);
  }
  cs.constraints_ = cs2.data;

  const BinSection& ls = bin.require(id(R1csSection::wire_labels), "wire labels");
  bin.expect_size(ls, "wire labels", std::uint64_t{h.n_wires} * kLabelBytes,
                  detail::concat("nWires ", h.n_wires, " x u64"));
  cs.labels_ = ls.data;
  cs.header_ = h;
  return cs;
}

}  // namespace zkp
