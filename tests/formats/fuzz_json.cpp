// Fuzz entry point: the JSON parser and writer, and the three snarkjs readers.
// Property: whatever parses, writes back to text that parses to the same written text.
#include <cstdlib>
#include <string>

#include "core/formats/groth16_json.hpp"
#include "core/formats/json.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  zkp::fuzz::refuse_only_with_format_error([&] {
    const std::string once = zkp::write_json_snarkjs(zkp::parse_json(text, "fuzz.json"));
    if (zkp::write_json_snarkjs(zkp::parse_json(once, "rewritten.json")) != once) std::abort();
  });
  zkp::fuzz::refuse_only_with_format_error([&] {
    const zkp::Groth16Proof p = zkp::read_proof_json(text, "fuzz.json");
    if (zkp::write_proof_json(zkp::read_proof_json(zkp::write_proof_json(p), "rewritten.json")) !=
        zkp::write_proof_json(p)) {
      std::abort();
    }
  });
  zkp::fuzz::refuse_only_with_format_error([&] { (void)zkp::read_vkey_json(text, "fuzz.json"); });
  zkp::fuzz::refuse_only_with_format_error(
      [&] { (void)zkp::read_public_json(text, "fuzz.json", zkp::Curve::bn254); });
  return 0;
}
