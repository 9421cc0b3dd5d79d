// zkpipe verify VKEY_JSON PUBLIC_JSON PROOF_JSON: checks a Groth16 proof as
// `snarkjs groth16 verify` does (same argument order), with zkpipe's pairing. It reads the
// proof.json of snarkjs and of zkpipe ("curve" key) and of rapidsnark (no "curve" key: the
// verification key's curve). Exit status, each with the reason on stdout or stderr (which
// point, which input, which file and field):
//   0 the proof is valid;
//   1 the proof is invalid (well-formed files, but the equation or a point check fails);
//   2 a bad command line;
//   3 a file that cannot be read or is malformed (not JSON, a missing key, a number >= p).
#include "services/command/command.hpp"
#include "services/command/options.hpp"

#include <iostream>

#include "core/formats/error.hpp"
#include "core/formats/groth16_json.hpp"
#include "core/formats/mapped_file.hpp"
#include "core/pairing/snarkjs_verify.hpp"

namespace zkp::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kUsage = "zkpipe verify VERIFICATION_KEY_JSON PUBLIC_JSON PROOF_JSON";
constexpr const char* kExitCodes =
    "Exit status: 0 the proof is valid, 1 the proof is invalid, 2 a bad command line,\n"
    "3 a file that cannot be read or is malformed.\n"
    "PROOF_JSON may be snarkjs's, zkpipe's or rapidsnark's (no \"curve\" key: the key's curve).\n";

// The files as the verifier sees them; throws FormatError or IoError (exit 3).
struct Inputs {
  VerificationKey vk;
  std::vector<ByteVec> publics;
  Groth16Proof proof;
};

Inputs read_inputs(const std::string& vkey_path, const std::string& public_path, const std::string& proof_path) {
  const ByteSource vkey_file = ByteSource::from_file(vkey_path);
  const ByteSource public_file = ByteSource::from_file(public_path);
  const ByteSource proof_file = ByteSource::from_file(proof_path);
  Inputs in;
  in.vk = read_vkey_json(as_text(vkey_file.bytes()), vkey_path);
  JsonReadOptions options;
  options.curve_if_absent = in.vk.curve;
  in.proof = read_proof_json(as_text(proof_file.bytes()), proof_path, options);
  // On the proof's curve: a proof of the other curve than the key's is an invalid proof (the
  // pairing check reports the mismatch), not a malformed public.json.
  in.publics = read_public_json(as_text(public_file.bytes()), public_path, in.proof.curve);
  return in;
}

int run_verify(const std::vector<std::string>& args) {
  po::options_description specific("verify arguments");
  specific.add_options()
      ("vkey", po::value<std::string>()->value_name("VERIFICATION_KEY_JSON"), "snarkjs verification_key.json")
      ("public", po::value<std::string>()->value_name("PUBLIC_JSON"), "public.json: the public signals")
      ("proof", po::value<std::string>()->value_name("PROOF_JSON"), "proof.json");
  const ParsedArgs parsed = parse_command_line(args, specific, {"vkey", "public", "proof"});
  if (parsed.help) {
    std::cout << "Usage: " << kUsage << "\n\n" << specific << "\n" << kExitCodes;
    return kExitSuccess;
  }
  for (const char* name : {"vkey", "public", "proof"}) {
    if (!parsed.values.count(name)) throw UsageError("expected VERIFICATION_KEY_JSON PUBLIC_JSON PROOF_JSON");
  }
  if (!parsed.overrides.empty() || parsed.config_file) throw UsageError("verify takes exactly three files");

  Inputs in;
  try {
    in = read_inputs(parsed.values["vkey"].as<std::string>(), parsed.values["public"].as<std::string>(),
                     parsed.values["proof"].as<std::string>());
  } catch (const FormatError& e) {
    std::cerr << "zkpipe verify: malformed input: " << e.what() << "\n";
    return kExitMalformed;
  } catch (const IoError& e) {
    std::cerr << "zkpipe verify: cannot read: " << e.what() << "\n";
    return kExitMalformed;
  }
  const groth16::VerifyResult result = groth16::verify_snarkjs(in.vk, in.publics, in.proof);
  if (!result.ok()) {
    std::cout << "zkpipe verify: INVALID: " << result.message() << "\n";
    return kExitFailure;
  }
  std::cout << "zkpipe verify: OK\n";
  return kExitSuccess;
}

}  // namespace

ZKPIPE_COMMAND(verify, "verify: VKEY_JSON PUBLIC_JSON PROOF_JSON (snarkjs's order); exit 0 valid, 1 invalid, 3 malformed",
               kUsage, run_verify);

}  // namespace zkp::cli
