#include "core/formats/groth16_json.hpp"

#include <stdexcept>
#include <string>

#include "core/formats/decimal.hpp"
#include "core/formats/error.hpp"
#include "core/formats/json.hpp"
#include "core/formats/wtns.hpp"

namespace zkp {
namespace {

constexpr std::string_view kProtocol = "groth16";

// ---- writing -------------------------------------------------------------------------------

JsonValue str(std::string s) { return JsonValue(std::move(s)); }

JsonValue dec(const ByteVec& le, std::uint32_t n8) {
  if (le.size() != n8) {
    throw std::invalid_argument(
        detail::concat("field element of ", le.size(), " bytes, expected ", n8));
  }
  return str(le_to_decimal(le));
}

JsonValue pair(JsonValue a, JsonValue b) {
  return JsonValue(JsonArray{std::move(a), std::move(b)});
}

// snarkjs G1.toObject(toAffine(P)): [x, y, "1"], infinity [0, 1, 0].
JsonValue g1_json(const G1Affine& p, const CurveInfo& c) {
  if (p.infinity) return JsonValue(JsonArray{str("0"), str("1"), str("0")});
  return JsonValue(JsonArray{dec(p.x, c.n8q), dec(p.y, c.n8q), str("1")});
}

// G2 coordinates are Fq2 = c0 + c1*u, each written [c0, c1]; z = 1 is ["1", "0"].
JsonValue g2_json(const G2Affine& p, const CurveInfo& c) {
  if (p.infinity) {
    return JsonValue(
        JsonArray{pair(str("0"), str("0")), pair(str("1"), str("0")), pair(str("0"), str("0"))});
  }
  return JsonValue(JsonArray{pair(dec(p.x_c0, c.n8q), dec(p.x_c1, c.n8q)),
                             pair(dec(p.y_c0, c.n8q), dec(p.y_c1, c.n8q)),
                             pair(str("1"), str("0"))});
}

// ---- reading -------------------------------------------------------------------------------

class Reader {
 public:
  explicit Reader(std::string_view file) : file_(file) {}

  [[noreturn]] void fail(const std::string& path, std::string_view what) const {
    format_fail(file_, path.empty() ? std::string("top level") : path, ": ", what);
  }

  const JsonValue& member(const JsonValue& obj, std::string_view key,
                          const std::string& path) const {
    if (obj.kind() != JsonValue::Kind::object)
      fail(path, detail::concat("expected an object, found ", kind_name(obj.kind())));
    const JsonValue* v = obj.find(key);
    if (v == nullptr) fail(path, detail::concat("missing key \"", key, "\""));
    return *v;
  }

  const JsonArray& array(const JsonValue& v, std::size_t n, const std::string& path) const {
    if (v.kind() != JsonValue::Kind::array)
      fail(path, detail::concat("expected an array, found ", kind_name(v.kind())));
    if (n != kAnyLength && v.as_array().size() != n) {
      fail(path, detail::concat("expected ", n, " elements, found ", v.as_array().size()));
    }
    return v.as_array();
  }

  const std::string& string(const JsonValue& v, const std::string& path) const {
    if (v.kind() != JsonValue::Kind::string)
      fail(path, detail::concat("expected a string, found ", kind_name(v.kind())));
    return v.as_string();
  }

  // A decimal string < modulus, as modulus.size() little-endian bytes.
  ByteVec field(const JsonValue& v, ByteView modulus, std::string_view field_name,
                const std::string& path) const {
    const std::string& s = string(v, path);
    ByteVec out(modulus.size());
    const DecimalStatus st = decimal_to_le(s, out);
    if (st != DecimalStatus::ok)
      fail(path, detail::concat("\"", s.substr(0, 80), "\": ", describe(st)));
    if (!le_less(out, modulus))
      fail(path, detail::concat(s, " is not below ", field_name, " ", le_to_decimal(modulus)));
    return out;
  }

  // z must be "1" (affine, as snarkjs writes) or "0" with x = 0, y = 1 (snarkjs's infinity).
  bool is_infinity(const JsonValue& x, const JsonValue& y, const JsonValue& z,
                   const std::string& path) const {
    const std::string& zs = string(z, path + "[2]");
    if (zs == "1") return false;
    if (zs == "0" && string(x, path + "[0]") == "0" && string(y, path + "[1]") == "1") return true;
    fail(path + "[2]",
         detail::concat(
             "z = \"", zs.substr(0, 80),
             "\": only affine points (z = \"1\") or infinity [\"0\", \"1\", \"0\"] are accepted"));
  }

  G1Affine g1(const JsonValue& v, const CurveInfo& c, const std::string& path) const {
    const JsonArray& a = array(v, 3, path);
    G1Affine p;
    if (is_infinity(a[0], a[1], a[2], path)) {
      p.infinity = true;
      p.x.assign(c.n8q, std::byte{0});
      p.y.assign(c.n8q, std::byte{0});
      return p;
    }
    p.x = field(a[0], c.q, "q", path + "[0]");
    p.y = field(a[1], c.q, "q", path + "[1]");
    return p;
  }

  G2Affine g2(const JsonValue& v, const CurveInfo& c, const std::string& path) const {
    const JsonArray& a = array(v, 3, path);
    const JsonArray& x = array(a[0], 2, path + "[0]");
    const JsonArray& y = array(a[1], 2, path + "[1]");
    const JsonArray& z = array(a[2], 2, path + "[2]");
    G2Affine p;
    const std::string zc0 = string(z[0], path + "[2][0]"), zc1 = string(z[1], path + "[2][1]");
    if (zc0 == "0" && zc1 == "0" && string(x[0], path + "[0][0]") == "0" &&
        string(x[1], path + "[0][1]") == "0" && string(y[0], path + "[1][0]") == "1" &&
        string(y[1], path + "[1][1]") == "0") {
      p.infinity = true;
      for (ByteVec* b : {&p.x_c0, &p.x_c1, &p.y_c0, &p.y_c1}) b->assign(c.n8q, std::byte{0});
      return p;
    }
    if (zc0 != "1" || zc1 != "0") {
      fail(path + "[2]",
           "only affine points (z = [\"1\", \"0\"]) or snarkjs's infinity are accepted");
    }
    p.x_c0 = field(x[0], c.q, "q", path + "[0][0]");
    p.x_c1 = field(x[1], c.q, "q", path + "[0][1]");
    p.y_c0 = field(y[0], c.q, "q", path + "[1][0]");
    p.y_c1 = field(y[1], c.q, "q", path + "[1][1]");
    return p;
  }

  Curve curve(const JsonValue& root) const {
    const std::string& name = string(member(root, "curve", ""), "curve");
    const std::optional<Curve> c = curve_from_snarkjs_name(name);
    if (!c)
      fail("curve", detail::concat("unknown curve \"", name.substr(0, 80),
                                   "\" (expected \"bn128\" or \"bls12381\")"));
    return *c;
  }

  void protocol(const JsonValue& root) const {
    const std::string& p = string(member(root, "protocol", ""), "protocol");
    if (p != kProtocol)
      fail("protocol",
           detail::concat("expected \"", kProtocol, "\", found \"", p.substr(0, 80), "\""));
  }

  static constexpr std::size_t kAnyLength = static_cast<std::size_t>(-1);

 private:
  std::string_view file_;
};

void append_g1(ByteVec& out, const G1Affine& p) {
  out.insert(out.end(), p.x.begin(), p.x.end());
  out.insert(out.end(), p.y.begin(), p.y.end());
}
void append_g2(ByteVec& out, const G2Affine& p) {
  for (const ByteVec* b : {&p.x_c0, &p.x_c1, &p.y_c0, &p.y_c1})
    out.insert(out.end(), b->begin(), b->end());
}

// Hands points to the validator in its packed layout (infinity = all zero, as in a zkey).
void validate_g1(const JsonReadOptions& o, Curve c, std::span<const G1Affine> ps,
                 std::string_view what, std::string_view file) {
  if (!o.validate_points) return;
  ByteVec packed;
  for (const G1Affine& p : ps) append_g1(packed, p);
  validate_points(o.validate_points,
                  PointBatch{c, PointGroup::g1, CoordEncoding::standard, packed, ps.size(), what},
                  file);
}
void validate_g2(const JsonReadOptions& o, Curve c, const G2Affine& p, std::string_view what,
                 std::string_view file) {
  if (!o.validate_points) return;
  ByteVec packed;
  append_g2(packed, p);
  validate_points(o.validate_points,
                  PointBatch{c, PointGroup::g2, CoordEncoding::standard, packed, 1, what}, file);
}

std::uint32_t small_uint(const Reader& r, const JsonValue& v, const std::string& path) {
  if (v.kind() != JsonValue::Kind::number)
    r.fail(path, detail::concat("expected a number, found ", kind_name(v.kind())));
  const std::string& t = v.as_number_text();
  std::byte le[4]{};
  if (decimal_to_le(t, le) != DecimalStatus::ok)
    r.fail(path, detail::concat(t.substr(0, 80), " is not an integer in 0 .. 2^32-1"));
  return load_u32le(le);
}

}  // namespace

std::string write_proof_json(const Groth16Proof& proof) {
  const CurveInfo& c = curve_info(proof.curve);
  // Key order of groth16_prove.js: pi_a, pi_b, pi_c, then protocol and curve appended.
  JsonObject o;
  o.emplace_back("pi_a", g1_json(proof.a, c));
  o.emplace_back("pi_b", g2_json(proof.b, c));
  o.emplace_back("pi_c", g1_json(proof.c, c));
  o.emplace_back("protocol", str(std::string(kProtocol)));
  o.emplace_back("curve", str(std::string(c.snarkjs_name)));
  return write_json_snarkjs(JsonValue(std::move(o)));
}

std::string write_public_json(std::span<const ByteVec> signals) {
  JsonArray a;
  a.reserve(signals.size());
  for (const ByteVec& s : signals) a.push_back(str(le_to_decimal(s)));
  return write_json_snarkjs(JsonValue(std::move(a)));
}

std::string write_vkey_json(const VerificationKey& vk, const AlphaBeta12& alphabeta_12) {
  const CurveInfo& c = curve_info(vk.curve);
  if (vk.ic.size() != std::uint64_t{vk.n_public} + 1) {
    throw std::invalid_argument(
        detail::concat("verifying key with ", vk.ic.size(), " IC points for nPublic ", vk.n_public));
  }
  // Fq12 → [c0, c1], Fq6 → [c0, c1, c2], Fq2 → [c0, c1]: snarkjs's Gt.toObject nesting.
  JsonArray gt;
  for (std::size_t half = 0; half < 2; ++half) {
    JsonArray fq6;
    for (std::size_t k = 0; k < 3; ++k) {
      const std::size_t i = 6 * half + 2 * k;
      fq6.push_back(pair(dec(alphabeta_12[i], c.n8q), dec(alphabeta_12[i + 1], c.n8q)));
    }
    gt.emplace_back(std::move(fq6));
  }
  JsonArray ic;
  for (const G1Affine& p : vk.ic) ic.push_back(g1_json(p, c));
  // Key order of zkey_export_verificationkey.js (IC is assigned last).
  JsonObject o;
  o.emplace_back("protocol", str(std::string(kProtocol)));
  o.emplace_back("curve", str(std::string(c.snarkjs_name)));
  o.emplace_back("nPublic", JsonValue(JsonNumber{std::to_string(vk.n_public)}));
  o.emplace_back("vk_alpha_1", g1_json(vk.alpha1, c));
  o.emplace_back("vk_beta_2", g2_json(vk.beta2, c));
  o.emplace_back("vk_gamma_2", g2_json(vk.gamma2, c));
  o.emplace_back("vk_delta_2", g2_json(vk.delta2, c));
  o.emplace_back("vk_alphabeta_12", JsonValue(std::move(gt)));
  o.emplace_back("IC", JsonValue(std::move(ic)));
  return write_json_snarkjs(JsonValue(std::move(o)));
}

std::vector<ByteVec> public_signals(const Wtns& wtns, std::uint32_t n_public) {
  if (n_public >= wtns.size()) {
    format_fail(wtns.name(), "witness has ", wtns.size(), " values, too few for ", n_public,
                " public signals");
  }
  std::vector<ByteVec> out;
  for (std::uint32_t i = 1; i <= n_public; ++i) {
    const ByteView v = wtns.value(i);
    out.emplace_back(v.begin(), v.end());
  }
  return out;
}

Groth16Proof read_proof_json(std::string_view text, std::string_view file,
                             const JsonReadOptions& options) {
  const JsonValue root = parse_json(text, file);
  const Reader r(file);
  r.protocol(root);
  Groth16Proof p;
  const bool named = root.kind() == JsonValue::Kind::object && root.find("curve") != nullptr;
  p.curve = !named && options.curve_if_absent ? *options.curve_if_absent : r.curve(root);
  const CurveInfo& c = curve_info(p.curve);
  p.a = r.g1(r.member(root, "pi_a", ""), c, "pi_a");
  p.b = r.g2(r.member(root, "pi_b", ""), c, "pi_b");
  p.c = r.g1(r.member(root, "pi_c", ""), c, "pi_c");
  validate_g1(options, p.curve, std::span(&p.a, 1), "pi_a", file);
  validate_g2(options, p.curve, p.b, "pi_b", file);
  validate_g1(options, p.curve, std::span(&p.c, 1), "pi_c", file);
  return p;
}

std::vector<ByteVec> read_public_json(std::string_view text, std::string_view file, Curve curve) {
  const JsonValue root = parse_json(text, file);
  const Reader r(file);
  const JsonArray& a = r.array(root, Reader::kAnyLength, "");
  std::vector<ByteVec> out;
  out.reserve(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    out.push_back(r.field(a[i], curve_info(curve).r, "r", detail::concat("[", i, "]")));
  }
  return out;
}

VerificationKey read_vkey_json(std::string_view text, std::string_view file,
                               const JsonReadOptions& options) {
  const JsonValue root = parse_json(text, file);
  const Reader r(file);
  r.protocol(root);
  VerificationKey vk;
  vk.curve = r.curve(root);
  const CurveInfo& c = curve_info(vk.curve);
  vk.n_public = small_uint(r, r.member(root, "nPublic", ""), "nPublic");
  vk.alpha1 = r.g1(r.member(root, "vk_alpha_1", ""), c, "vk_alpha_1");
  vk.beta2 = r.g2(r.member(root, "vk_beta_2", ""), c, "vk_beta_2");
  vk.gamma2 = r.g2(r.member(root, "vk_gamma_2", ""), c, "vk_gamma_2");
  vk.delta2 = r.g2(r.member(root, "vk_delta_2", ""), c, "vk_delta_2");
  const JsonArray& ic = r.array(r.member(root, "IC", ""), Reader::kAnyLength, "IC");
  if (ic.size() != std::uint64_t{vk.n_public} + 1) {
    r.fail("IC", detail::concat(ic.size(), " points, but nPublic ", vk.n_public, " needs ",
                                std::uint64_t{vk.n_public} + 1));
  }
  for (std::size_t i = 0; i < ic.size(); ++i)
    vk.ic.push_back(r.g1(ic[i], c, detail::concat("IC[", i, "]")));
  validate_g1(options, vk.curve, std::span(&vk.alpha1, 1), "vk_alpha_1", file);
  validate_g2(options, vk.curve, vk.beta2, "vk_beta_2", file);
  validate_g2(options, vk.curve, vk.gamma2, "vk_gamma_2", file);
  validate_g2(options, vk.curve, vk.delta2, "vk_delta_2", file);
  validate_g1(options, vk.curve, vk.ic, "IC", file);
  return vk;
}

}  // namespace zkp
