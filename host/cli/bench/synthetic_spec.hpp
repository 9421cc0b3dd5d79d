// `zkpipe bench --synthetic CURVE:LOG2`: which curve and size of generated key to bench
// (synthetic_key.hpp makes it). Parsed apart from the generator so the command line is
// checked, and tested, without the curve code.
#pragma once

#include <cstdint>
#include <string>

namespace zkp::cli::bench {

enum class SyntheticCurve { bn254, bls12_381 };

struct SyntheticSpec {
  SyntheticCurve curve = SyntheticCurve::bn254;
  uint32_t log2 = 0;  // the QAP domain has 2^log2 rows
};

// The smallest domain this bench generates (16 rows; fewer would time only overheads), and the
// largest: 2^24 is a BN254 key of 7.9 GB in memory (472 bytes a row, as 30.9 MB at 2^16), about
// 11 GB at the generation's peak.
inline constexpr uint32_t kMinSyntheticLog2 = 4;
inline constexpr uint32_t kMaxSyntheticLog2 = 24;

// "bn254:16" or "bls12-381:10"; throws UsageError naming `flag` and saying what is wrong
// (no ':', an unknown curve, LOG2 not a whole number in [kMinSyntheticLog2, kMaxSyntheticLog2]).
SyntheticSpec parse_synthetic_spec(const std::string& flag, const std::string& text);

// "bn254:16": the spec as the user writes it.
std::string to_string(const SyntheticSpec& spec);

}  // namespace zkp::cli::bench
