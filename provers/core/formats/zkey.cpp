#include "core/formats/zkey.hpp"

#include <exception>
#include <mutex>

#include "core/formats/binfile.hpp"
#include "core/formats/decimal.hpp"
#include "core/formats/error.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp {
namespace {

constexpr std::uint32_t kZkeyVersion = 1;

std::uint32_t id(ZkeySection s) { return static_cast<std::uint32_t>(s); }

// snarkjs zkey_constants.js: the protocols a zkey can hold, so a refusal can say which one it is.
std::string_view protocol_name(std::uint32_t p) {
  switch (p) {
    case 1: return "groth16";
    case 2: return "plonk";
    case 10: return "fflonk";
    default: return "unknown";
  }
}

bool is_power_of_two(std::uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

void read_protocol(const BinFile& bin) {
  const BinSection& s = bin.require(id(ZkeySection::header), "protocol");
  bin.expect_size(s, "protocol", 4, "one u32");
  const std::uint32_t protocol = load_u32le(s.data.data());
  if (protocol != kGroth16ProtocolId) {
    format_fail(bin.file(), section_label(s.id, "protocol"), ": protocol ", protocol, " (",
                protocol_name(protocol), ") is not supported; only ", kGroth16ProtocolId,
                " (groth16)");
  }
}

ZkeyHeader read_header(const BinFile& bin) {
  const BinSection& s = bin.require(id(ZkeySection::groth16_header), "groth16 header");
  ByteReader r = bin.reader(s, "groth16 header");
  ZkeyHeader h{};
  h.n8q = r.u32("n8q");
  h.q = r.take(h.n8q, "q");
  h.n8r = r.u32("n8r");
  h.r = r.take(h.n8r, "r");
  const std::optional<Curve> curve = curve_from_primes(h.q, h.r);
  if (!curve) {
    format_fail(bin.file(), section_label(s.id, "groth16 header"),
                ": unknown curve: q = ", le_to_decimal(h.q), " (", h.n8q,
                " bytes), r = ", le_to_decimal(h.r), " (", h.n8r,
                " bytes); supported: BN254, BLS12-381");
  }
  h.curve = *curve;
  const CurveInfo& c = curve_info(h.curve);
  h.n_vars = r.u32("nVars");
  h.n_public = r.u32("nPublic");
  h.domain_size = r.u32("domainSize");
  h.alpha1 = r.take(g1_bytes(c), "alpha1");
  h.beta1 = r.take(g1_bytes(c), "beta1");
  h.beta2 = r.take(g2_bytes(c), "beta2");
  h.gamma2 = r.take(g2_bytes(c), "gamma2");
  h.delta1 = r.take(g1_bytes(c), "delta1");
  h.delta2 = r.take(g2_bytes(c), "delta2");
  if (r.remaining() != 0) {
    format_fail(bin.file(), section_label(s.id, "groth16 header"), ": ", r.remaining(),
                " unexpected bytes after delta2 (offset ", r.offset(), ")");
  }
  if (!is_power_of_two(h.domain_size)) {
    format_fail(bin.file(), section_label(s.id, "groth16 header"), ": domainSize ", h.domain_size,
                " is not a power of two");
  }
  // Wire 0 (the constant 1) is neither public nor private, so nVars >= nPublic + 1; the C
  // section has nVars - nPublic - 1 points and would otherwise be negative.
  if (h.n_public >= h.n_vars) {
    format_fail(bin.file(), section_label(s.id, "groth16 header"), ": nPublic ", h.n_public,
                " must be below nVars ", h.n_vars, " (wire 0 is the constant 1)");
  }
  return h;
}

ByteView point_section(const BinFile& bin, ZkeySection which, std::string_view what,
                       std::uint64_t count, std::uint64_t point_bytes,
                       std::string_view count_name) {
  const BinSection& s = bin.require(id(which), what);
  bin.expect_size(s, what, count * point_bytes,
                  detail::concat(count_name, " ", count, " x ", point_bytes, "-byte points"));
  return s.data;
}

ZkeyCoefficients read_coefficients(const BinFile& bin, const ZkeyHeader& h, ThreadPool* pool) {
  constexpr std::string_view what = "coefficients";
  const BinSection& s = bin.require(id(ZkeySection::coefficients), what);
  ByteReader r = bin.reader(s, what);
  const std::uint32_t count = r.u32("coefficient count");
  const std::uint64_t entry = ZkeyCoefficients::kFixedBytes + std::uint64_t{h.n8r};
  bin.expect_size(s, what, 4 + count * entry,
                  detail::concat("4 + count ", count, " x ", entry, "-byte entries"));
  ZkeyCoefficients coefs(s.data.subspan(4), count, h.n8r);
  // Throws FormatError naming entry i and what is wrong with it.
  const auto check = [&](std::uint32_t i) {
    const ZkeyCoefficient e = coefs[i];
    auto bad = [&](auto&&... parts) {
      format_fail(bin.file(), section_label(s.id, what), ": entry ", i, " at offset ",
                  s.offset + 4 + i * entry, ": ", parts...);
    };
    if (e.matrix > 1) bad("matrix ", e.matrix, " is neither 0 (A) nor 1 (B)");
    if (e.row >= h.domain_size)
      bad("row ", e.row, " out of range (domainSize ", h.domain_size, ")");
    if (e.wire >= h.n_vars) bad("wire ", e.wire, " out of range (nVars ", h.n_vars, ")");
    if (!le_less(e.value, h.r)) bad("value is not below r");
  };
  constexpr std::uint32_t kGrain = 1u << 10;
  if (pool == nullptr || count <= kGrain) {
    for (std::uint32_t i = 0; i < count; ++i) check(i);
    return coefs;
  }
  // On the pool each chunk stops at its first bad entry; the error of the lowest one is thrown,
  // so it is the entry the serial loop would name, whichever chunk finished first.
  std::mutex m;
  std::uint32_t first_bad = count;
  std::exception_ptr error;
  pool->parallel_for(count, kGrain, [&](std::size_t begin, std::size_t end) {
    for (auto i = static_cast<std::uint32_t>(begin); i < end; ++i) {
      try {
        check(i);
      } catch (const FormatError&) {
        std::lock_guard lk(m);
        if (i < first_bad) {
          first_bad = i;
          error = std::current_exception();
        }
        return;
      }
    }
  });
  if (error) std::rethrow_exception(error);
  return coefs;
}

void check_points(const ZkeyReadOptions& options, const BinFile& bin, const ZkeyHeader& h,
                  const ZkeyPoints& p) {
  if (!options.validate_points) return;
  const CurveInfo& c = curve_info(h.curve);
  auto run = [&](PointGroup g, ByteView bytes, std::string_view what) {
    const std::uint64_t each = g == PointGroup::g1 ? g1_bytes(c) : g2_bytes(c);
    validate_points(options.validate_points,
                    PointBatch{h.curve, g, CoordEncoding::montgomery, bytes,
                               static_cast<std::size_t>(bytes.size() / each), what},
                    bin.file());
  };
  run(PointGroup::g1, h.alpha1, "section 2 (groth16 header) alpha1");
  run(PointGroup::g1, h.beta1, "section 2 (groth16 header) beta1");
  run(PointGroup::g1, h.delta1, "section 2 (groth16 header) delta1");
  run(PointGroup::g2, h.beta2, "section 2 (groth16 header) beta2");
  run(PointGroup::g2, h.gamma2, "section 2 (groth16 header) gamma2");
  run(PointGroup::g2, h.delta2, "section 2 (groth16 header) delta2");
  run(PointGroup::g1, p.ic, "section 3 (IC)");
  run(PointGroup::g1, p.a, "section 5 (A)");
  run(PointGroup::g1, p.b1, "section 6 (B1)");
  run(PointGroup::g2, p.b2, "section 7 (B2)");
  run(PointGroup::g1, p.c, "section 8 (C)");
  run(PointGroup::g1, p.h, "section 9 (H)");
}

}  // namespace

void check_zkey_layout(const std::filesystem::path& path) { check_bin_layout(path, "zkey", kZkeyVersion); }

Zkey read_zkey(ByteSource source, const ZkeyReadOptions& options) {
  Zkey key(std::move(source));
  const BinFile bin(key.source_.bytes(), key.source_.name(), "zkey", kZkeyVersion);
  read_protocol(bin);
  const ZkeyHeader h = read_header(bin);
  const CurveInfo& c = curve_info(h.curve);
  const std::uint64_t g1 = g1_bytes(c), g2 = g2_bytes(c);
  ZkeyPoints p;
  p.ic = point_section(bin, ZkeySection::ic, "IC", std::uint64_t{h.n_public} + 1, g1, "nPublic+1");
  p.a = point_section(bin, ZkeySection::a, "A", h.n_vars, g1, "nVars");
  p.b1 = point_section(bin, ZkeySection::b1, "B1", h.n_vars, g1, "nVars");
  p.b2 = point_section(bin, ZkeySection::b2, "B2", h.n_vars, g2, "nVars");
  p.c = point_section(bin, ZkeySection::c, "C", std::uint64_t{h.n_vars} - h.n_public - 1, g1,
                      "nVars-nPublic-1");
  p.h = point_section(bin, ZkeySection::h, "H", h.domain_size, g1, "domainSize");
  key.coefficients_ = read_coefficients(bin, h, options.pool);
  check_points(options, bin, h, p);
  key.header_ = h;
  key.points_ = p;
  return key;
}

}  // namespace zkp
