// Expected points from the oracle's det/msm.json and det/proof.json, as the ABI's proof bytes
// (affine, standard form, little-endian; infinity all zero).
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/formats/decimal.hpp"
#include "core/formats/json.hpp"
#include "test_data.hpp"

namespace zkp::test {

inline void append_decimal(const JsonValue& v, std::size_t n8, std::vector<std::uint8_t>& out) {
  std::vector<std::byte> le(n8);
  if (decimal_to_le(v.as_string(), le) != DecimalStatus::ok) throw std::runtime_error("bad decimal " + v.as_string());
  for (auto b : le) out.push_back(static_cast<std::uint8_t>(b));
}

// [x, y, z] with z "1" (affine) or "0" (infinity) → x|y bytes.
inline void append_g1(const JsonValue& p, std::size_t n8, std::vector<std::uint8_t>& out) {
  const auto& a = p.as_array();
  if (a[2].as_string() == "0") return out.resize(out.size() + 2 * n8, 0);
  append_decimal(a[0], n8, out);
  append_decimal(a[1], n8, out);
}

// [[x0, x1], [y0, y1], [z0, z1]] → x0|x1|y0|y1.
inline void append_g2(const JsonValue& p, std::size_t n8, std::vector<std::uint8_t>& out) {
  const auto& a = p.as_array();
  if (a[2].as_array()[0].as_string() == "0" && a[2].as_array()[1].as_string() == "0") {
    return out.resize(out.size() + 4 * n8, 0);
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) append_decimal(a[i].as_array()[j], n8, out);
}

inline const JsonValue& member(const JsonValue& o, const char* key) {
  const JsonValue* v = o.find(key);
  if (v == nullptr) throw std::runtime_error(std::string("missing ") + key);
  return *v;
}

inline JsonValue load_json(const std::filesystem::path& p) { return parse_json(read_text(p), p.string()); }

// proof.json → A|B|C bytes.
inline std::vector<std::uint8_t> proof_bytes(const std::filesystem::path& p, std::size_t n8q) {
  const JsonValue j = load_json(p);
  std::vector<std::uint8_t> out;
  append_g1(member(j, "pi_a"), n8q, out);
  append_g2(member(j, "pi_b"), n8q, out);
  append_g1(member(j, "pi_c"), n8q, out);
  return out;
}

// public.json → 32-byte scalars.
inline std::vector<std::uint8_t> public_bytes(const std::filesystem::path& p) {
  const JsonValue j = load_json(p);
  std::vector<std::uint8_t> out;
  for (const auto& v : j.as_array()) append_decimal(v, 32, out);
  return out;
}

}  // namespace zkp::test
