#include "services/names.hpp"

#include <array>

namespace zkp::services {

namespace {

constexpr std::array<CurveName, 2> kCurves{{
    {ZKP_CURVE_BN254, Curve::bn254, "bn128", "bn254"},
    {ZKP_CURVE_BLS12_381, Curve::bls12_381, "bls12381", "bls12_381"},
}};

struct KeyFormatName {
  zkp_key_format_t format;
  std::string_view name;
};

constexpr std::array<KeyFormatName, 2> kKeyFormats{{
    {ZKP_KEY_FORMAT_ZKEY, "zkey"},
    {ZKP_KEY_FORMAT_BELLPERSON, "bellperson"},
}};

constexpr std::string_view kUnknown = "unknown";

}  // namespace

std::span<const CurveName> curve_names() { return kCurves; }

const CurveName* find_curve(zkp_curve_t c) {
  for (const CurveName& row : kCurves) {
    if (row.abi == c) return &row;
  }
  return nullptr;
}

std::optional<zkp_curve_t> curve_from_name(std::string_view name) {
  for (const CurveName& row : kCurves) {
    if (name == row.snarkjs || name == row.fleet) return row.abi;
  }
  return std::nullopt;
}

std::optional<zkp_curve_t> curve_from_fleet_name(std::string_view name) {
  for (const CurveName& row : kCurves) {
    if (name == row.fleet) return row.abi;
  }
  return std::nullopt;
}

std::optional<Curve> formats_curve(zkp_curve_t c) {
  const CurveName* row = find_curve(c);
  if (row == nullptr) return std::nullopt;
  return row->curve;
}

std::string_view snarkjs_curve_name(zkp_curve_t c) {
  const CurveName* row = find_curve(c);
  return row != nullptr ? row->snarkjs : kUnknown;
}

std::string_view fleet_curve_name(zkp_curve_t c) {
  const CurveName* row = find_curve(c);
  return row != nullptr ? row->fleet : kUnknown;
}

std::string_view fleet_curve_choices() { return "bn254 or bls12_381"; }

std::optional<zkp_key_format_t> key_format_from_name(std::string_view name) {
  for (const KeyFormatName& row : kKeyFormats) {
    if (name == row.name) return row.format;
  }
  return std::nullopt;
}

std::string_view key_format_name(zkp_key_format_t f) {
  for (const KeyFormatName& row : kKeyFormats) {
    if (row.format == f) return row.name;
  }
  return kKeyFormats[0].name;
}

std::string_view key_format_choices() { return "zkey or bellperson"; }

}  // namespace zkp::services
