#include "bench/synthetic_spec.hpp"

#include "services/command/command.hpp"

#include <charconv>

namespace zkp::cli::bench {

namespace {

constexpr const char* kBn254 = "bn254";
constexpr const char* kBls12_381 = "bls12-381";

}  // namespace

SyntheticSpec parse_synthetic_spec(const std::string& flag, const std::string& text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) {
    throw UsageError(flag + ": '" + text + "' is not CURVE:LOG2 (for example bn254:16 or bls12-381:10)");
  }
  const std::string curve = text.substr(0, colon);
  const std::string log2 = text.substr(colon + 1);
  SyntheticSpec spec;
  if (curve == kBn254) {
    spec.curve = SyntheticCurve::bn254;
  } else if (curve == kBls12_381) {
    spec.curve = SyntheticCurve::bls12_381;
  } else {
    throw UsageError(flag + ": unknown curve '" + curve + "' (bn254 or bls12-381)");
  }
  uint32_t value = 0;
  const auto [ptr, ec] = std::from_chars(log2.data(), log2.data() + log2.size(), value);
  if (log2.empty() || ec != std::errc() || ptr != log2.data() + log2.size() || value < kMinSyntheticLog2 ||
      value > kMaxSyntheticLog2) {
    throw UsageError(flag + ": LOG2 '" + log2 + "' is not a whole number in [" + std::to_string(kMinSyntheticLog2) +
                     ", " + std::to_string(kMaxSyntheticLog2) + "] (the key has 2^LOG2 rows)");
  }
  spec.log2 = value;
  return spec;
}

std::string to_string(const SyntheticSpec& spec) {
  return std::string(spec.curve == SyntheticCurve::bn254 ? kBn254 : kBls12_381) + ":" + std::to_string(spec.log2);
}

}  // namespace zkp::cli::bench
