// zkpipe verify VKEY_JSON PUBLIC_JSON PROOF_JSON: checks a Groth16 proof as
// `snarkjs groth16 verify` does (same argument order), with zkpipe's pairing. Exit status 0
// only for a valid proof; 1 for an invalid one or an unreadable/malformed file, with the
// reason (which point, which input, which file and field); 2 for a bad command line.
#include "command.hpp"
#include "options.hpp"

#include <iostream>

#include "core/formats/error.hpp"
#include "core/formats/groth16_json.hpp"
#include "core/formats/mapped_file.hpp"
#include "core/pairing/snarkjs_verify.hpp"

namespace zkp::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kUsage = "zkpipe verify VERIFICATION_KEY_JSON PUBLIC_JSON PROOF_JSON";

int run_verify(const std::vector<std::string>& args) {
  po::options_description specific("verify arguments");
  specific.add_options()
      ("vkey", po::value<std::string>()->value_name("VERIFICATION_KEY_JSON"), "snarkjs verification_key.json")
      ("public", po::value<std::string>()->value_name("PUBLIC_JSON"), "public.json: the public signals")
      ("proof", po::value<std::string>()->value_name("PROOF_JSON"), "proof.json");
  const ParsedArgs parsed = parse_command_line(args, specific, {"vkey", "public", "proof"});
  if (parsed.help) {
    std::cout << "Usage: " << kUsage << "\n\n" << specific << "\n";
    return kExitSuccess;
  }
  for (const char* name : {"vkey", "public", "proof"}) {
    if (!parsed.values.count(name)) throw UsageError("expected VERIFICATION_KEY_JSON PUBLIC_JSON PROOF_JSON");
  }
  if (!parsed.overrides.empty() || parsed.config_file) throw UsageError("verify takes exactly three files");

  const std::string vkey_path = parsed.values["vkey"].as<std::string>();
  const std::string public_path = parsed.values["public"].as<std::string>();
  const std::string proof_path = parsed.values["proof"].as<std::string>();
  const ByteSource vkey_file = ByteSource::from_file(vkey_path);
  const ByteSource public_file = ByteSource::from_file(public_path);
  const ByteSource proof_file = ByteSource::from_file(proof_path);

  const VerificationKey vk = read_vkey_json(as_text(vkey_file.bytes()), vkey_path);
  const std::vector<ByteVec> publics = read_public_json(as_text(public_file.bytes()), public_path, vk.curve);
  const Groth16Proof proof = read_proof_json(as_text(proof_file.bytes()), proof_path);
  const groth16::VerifyResult result = groth16::verify_snarkjs(vk, publics, proof);
  if (!result.ok()) {
    std::cout << "zkpipe verify: INVALID: " << result.message() << "\n";
    return kExitFailure;
  }
  std::cout << "zkpipe verify: OK\n";
  return kExitSuccess;
}

}  // namespace

ZKPIPE_COMMAND(verify, "verify: VKEY_JSON PUBLIC_JSON PROOF_JSON (snarkjs's argument order); exit 0 only if valid",
               kUsage, run_verify);

}  // namespace zkp::cli
