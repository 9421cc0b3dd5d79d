#include "services/rapidsnark_json.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "core/formats/decimal.hpp"
#include "core/formats/groth16_json.hpp"
#include "core/formats/proof_bytes.hpp"

namespace zkp::rapidsnark {
namespace {

constexpr std::string_view kNoSignals = "[]";  // not rapidsnark's "null": snarkjs reads this
constexpr std::uint64_t kPublicBytesPerSignal = 82;  // rapidsnark's PublicBufferMinSize
constexpr std::uint64_t kPublicBytesFixed = 4;

// The eight coordinates of a proof in file order: A.x A.y B.x.c0 B.x.c1 B.y.c0 B.y.c1 C.x C.y.
using Coordinates = std::array<std::string, 8>;

void quoted(std::string& out, std::string_view text) {
  out += '"';
  out += text;
  out += '"';
}

// [x,y,"1"], or snarkjs's infinity.
void g1(std::string& out, const std::string& x, const std::string& y, bool infinity) {
  out += '[';
  quoted(out, infinity ? "0" : x);
  out += ',';
  quoted(out, infinity ? "1" : y);
  out += infinity ? ",\"0\"]" : ",\"1\"]";
}

void g2(std::string& out, const std::string* c, bool infinity) {
  if (infinity) {
    out += R"([["0","0"],["1","0"],["0","0"]])";
    return;
  }
  out += "[[";
  quoted(out, c[0]);
  out += ',';
  quoted(out, c[1]);
  out += "],[";
  quoted(out, c[2]);
  out += ',';
  quoted(out, c[3]);
  out += R"(],["1","0"]])";
}

std::string write(const Coordinates& c, bool a_inf, bool b_inf, bool c_inf) {
  std::string out = R"({"pi_a":)";
  g1(out, c[0], c[1], a_inf);
  out += R"(,"pi_b":)";
  g2(out, &c[2], b_inf);
  out += R"(,"pi_c":)";
  g1(out, c[6], c[7], c_inf);
  out += R"(,"protocol":"groth16"})";
  return out;
}

}  // namespace

std::string proof_json(Curve curve, ByteView proof) {
  const Groth16Proof p = proof_from_bytes(curve, proof, "proof");
  const Coordinates c{le_to_decimal(p.a.x),    le_to_decimal(p.a.y),    le_to_decimal(p.b.x_c0),
                      le_to_decimal(p.b.x_c1), le_to_decimal(p.b.y_c0), le_to_decimal(p.b.y_c1),
                      le_to_decimal(p.c.x),    le_to_decimal(p.c.y)};
  return write(c, p.a.infinity, p.b.infinity, p.c.infinity);
}

std::string public_json(std::span<const ByteVec> signals) {
  if (signals.empty()) return std::string(kNoSignals);
  std::string out = "[";
  for (std::size_t i = 0; i < signals.size(); ++i) {
    if (i > 0) out += ',';
    quoted(out, le_to_decimal(signals[i]));
  }
  out += ']';
  return out;
}

std::string public_json(ByteView scalars, std::uint32_t scalar_bytes) {
  std::vector<ByteVec> signals;
  for (std::size_t off = 0; scalar_bytes > 0 && off + scalar_bytes <= scalars.size(); off += scalar_bytes) {
    const ByteView s = scalars.subspan(off, scalar_bytes);
    signals.emplace_back(s.begin(), s.end());
  }
  return public_json(signals);
}

std::uint64_t proof_capacity(Curve curve) {
  // q is no power of ten, so q - 1, the largest coordinate, has as many digits as q.
  Coordinates widest;
  widest.fill(le_to_decimal(curve_info(curve).q));
  return write(widest, false, false, false).size() + 1;
}

std::uint64_t public_capacity(std::uint64_t n_public) {
  return std::max<std::uint64_t>(n_public * kPublicBytesPerSignal + kPublicBytesFixed, kNoSignals.size() + 1);
}

}  // namespace zkp::rapidsnark
