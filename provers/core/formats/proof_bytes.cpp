#include "core/formats/proof_bytes.hpp"

#include "core/formats/error.hpp"

namespace zkp {

namespace {

constexpr std::uint64_t kCoordinatesPerProof = 8;  // A: x, y; B: x.c0, x.c1, y.c0, y.c1; C: x, y

// Cuts `count` coordinates off the front of `rest`; all-zero coordinates mean infinity.
bool take(ByteView& rest, std::uint32_t n8, std::initializer_list<ByteVec*> coords) {
  bool zero = true;
  for (ByteVec* c : coords) {
    const ByteView piece = rest.first(n8);
    c->assign(piece.begin(), piece.end());
    zero = zero && all_zero(piece);
    rest = rest.subspan(n8);
  }
  return zero;
}

void put(ByteVec& out, std::uint32_t n8, std::initializer_list<const ByteVec*> coords, bool infinity) {
  for (const ByteVec* c : coords) {
    if (infinity) {
      out.insert(out.end(), n8, std::byte{0});
      continue;
    }
    if (c->size() != n8) throw FormatError(detail::concat("proof coordinate of ", c->size(), " bytes, expected ", n8));
    out.insert(out.end(), c->begin(), c->end());
  }
}

}  // namespace

std::uint64_t proof_byte_size(Curve curve) { return kCoordinatesPerProof * curve_info(curve).n8q; }

Groth16Proof proof_from_bytes(Curve curve, ByteView bytes, std::string_view name) {
  const CurveInfo& info = curve_info(curve);
  if (bytes.size() != proof_byte_size(curve)) {
    format_fail(name, "a ", info.name, " proof is ", proof_byte_size(curve), " bytes, got ", bytes.size());
  }
  Groth16Proof p;
  p.curve = curve;
  ByteView rest = bytes;
  p.a.infinity = take(rest, info.n8q, {&p.a.x, &p.a.y});
  p.b.infinity = take(rest, info.n8q, {&p.b.x_c0, &p.b.x_c1, &p.b.y_c0, &p.b.y_c1});
  p.c.infinity = take(rest, info.n8q, {&p.c.x, &p.c.y});
  return p;
}

ByteVec proof_to_bytes(const Groth16Proof& p) {
  const std::uint32_t n8 = curve_info(p.curve).n8q;
  ByteVec out;
  out.reserve(proof_byte_size(p.curve));
  put(out, n8, {&p.a.x, &p.a.y}, p.a.infinity);
  put(out, n8, {&p.b.x_c0, &p.b.x_c1, &p.b.y_c0, &p.b.y_c1}, p.b.infinity);
  put(out, n8, {&p.c.x, &p.c.y}, p.c.infinity);
  return out;
}

}  // namespace zkp
