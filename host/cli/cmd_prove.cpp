// zkpipe prove ZKEY WTNS PROOF_JSON PUBLIC_JSON: one Groth16 proof through the configured
// prover (cpu unless --backend or the config says otherwise), written as snarkjs writes it.
// The positional form is rapidsnark's `prover`, so scripts that call rapidsnark drop in.
//
// --format rapidsnark writes the two files as rapidsnark's `prover` does (compact JSON, no
// "curve" key; host/services/rapidsnark_json.hpp) instead of snarkjs's layout.
//
// --witness-generator G.so --input INPUT_JSON proves from the circuit's input: the key is
// loaded with the generator (zkp_key_source_t.witness_generator) and the partition is the
// input (ZKP_WITNESS_INPUT_JSON), whose witness the host computes during synthesis.
//
// --key-format bellperson takes a bellperson parameter file instead of the zkey; with
// --r1cs C.r1cs the circom witness is synthesized in bellperson's numbering (the prover's r1cs
// option), and --bellperson-proof FILE also writes the proof as bellperson's 192 bytes.
//
// It runs the same pipeline as a long-lived service (host::Host: pacer, budget, workers,
// self-check), with one job of one partition; (r, s) always come from the OS CSPRNG.
#include "services/command/command.hpp"
#include "services/command/options.hpp"

#include <zkpipe/host/host.hpp>
#include <zkpipe/host/logging.hpp>
#include <zkpipe/sdk/error.hpp>

#include <malloc.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>

#include "core/bellperson/proof.hpp"
#include "core/formats/groth16_json.hpp"
#include "core/formats/mapped_file.hpp"
#include "core/formats/proof_bytes.hpp"
#include "core/groth16/proof_codec.hpp"
#include "services/rapidsnark_json.hpp"
#include "services/names.hpp"
#include "services/output_files.hpp"
#include "services/snarkjs_result.hpp"

namespace zkp::cli {

namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

constexpr const char* kUsage =
    "zkpipe prove [--backend NAME] [--gpu I] [--config FILE] [--format snarkjs|rapidsnark]\n"
    "             [--key-format zkey|bellperson] [--r1cs C.r1cs] [--bellperson-proof FILE]\n"
    "             ZKEY WTNS PROOF_JSON PUBLIC_JSON [key=value ...]\n"
    "       zkpipe prove --witness-generator G.so --input INPUT_JSON [options] ZKEY PROOF_JSON PUBLIC_JSON";
constexpr double kNsPerMs = 1e6;

// What the one partition produced, copied out of the completion record (valid only during
// the callback).
struct Outcome {
  zkp_status_t status = ZKP_ERR_INTERNAL;
  std::string message = "the partition never completed";
  zkp_curve_t curve = ZKP_CURVE_UNKNOWN;
  ByteVec proof;
  std::vector<ByteVec> publics;
  int32_t gpu_index = -1;
  uint64_t gpu_ns = 0, synthesis_ns = 0, total_ns = 0;
  bool self_checked = false;
};

void copy_outcome(const zkp_completion_t& r, Outcome& out) {
  out.status = r.status;
  out.message = r.message;
  out.curve = r.curve;
  out.gpu_index = r.gpu_index;
  out.gpu_ns = r.gpu_duration_ns;
  out.synthesis_ns = r.synthesis_ns;
  out.total_ns = r.total_ns;
  out.self_checked = (r.flags & ZKP_COMPLETION_SELF_CHECKED) != 0;
  if (r.status != ZKP_OK) return;
  const auto* proof = reinterpret_cast<const std::byte*>(r.proof);
  if (proof != nullptr) out.proof.assign(proof, proof + r.proof_size);
  out.publics = services::public_scalars(r.public_inputs, r.public_size);
}

Curve to_curve(zkp_curve_t c) {
  if (const std::optional<Curve> curve = services::formats_curve(c)) return *curve;
  throw sdk::Error(ZKP_ERR_INTERNAL, "the prover reported an unknown curve id " + std::to_string(c));
}

// zkpipe's proof bytes (zkp_prover.h) as bellperson's compressed encoding.
std::string bellperson_proof_bytes(Curve curve, const ByteVec& proof) {
  using E = bls12_381::Engine;
  constexpr std::size_t kBytes = groth16::kProofBytes<E>;
  if (curve != Curve::bls12_381 || proof.size() != kBytes) {
    throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, "--bellperson-proof needs a BLS12-381 proof");
  }
  const auto p = groth16::read_proof<E>(std::span<const uint8_t, kBytes>(reinterpret_cast<const uint8_t*>(proof.data()), kBytes));
  if (!p) throw sdk::Error(ZKP_ERR_INTERNAL, "the prover returned proof bytes that do not decode");
  std::string out(bellperson::kProofBytes, '\0');
  bellperson::write_proof(*p, std::span<std::uint8_t, bellperson::kProofBytes>(reinterpret_cast<std::uint8_t*>(out.data()), out.size()));
  return out;
}

int run_prove(const std::vector<std::string>& args) {
  po::options_description specific("prove options");
  specific.add_options()
      ("backend,b", po::value<std::string>()->value_name("NAME"), "prover plugin (cpu, cuda, a path); same as prover=NAME")
      ("gpu,g", po::value<int32_t>()->default_value(-1)->value_name("I"), "run on device I; -1: the least busy")
      ("format", po::value<std::string>()->default_value("snarkjs")->value_name("FORMAT"),
       "how proof.json and public.json are written: snarkjs (snarkjs groth16 prove's bytes) or rapidsnark "
       "(rapidsnark prover's: compact, no \"curve\" key)")
      ("key-format", po::value<std::string>()->default_value("zkey")->value_name("FORMAT"),
       "the key file's format: zkey (snarkjs) or bellperson (Filecoin parameters, BLS12-381)")
      ("r1cs", po::value<std::string>()->value_name("C.r1cs"),
       "the circuit: every witness is checked against it; a bellperson key needs it to prove a .wtns")
      ("bellperson-proof", po::value<std::string>()->value_name("FILE"),
       "also write the proof as bellperson's compressed 192 bytes (BLS12-381)")
      ("input", po::value<std::string>()->value_name("INPUT_JSON"),
       "the circuit's input instead of a witness: --witness-generator computes the witness")
      ("witness-generator", po::value<std::string>()->value_name("G.so"),
       "the circuit's witness generator (zkpipe witness build), for --input")
      ("zkey", po::value<std::string>()->value_name("ZKEY"), "proving key (.zkey, or bellperson parameters)")
      ("witness", po::value<std::string>()->value_name("WTNS"), "witness (.wtns)")
      ("proof", po::value<std::string>()->value_name("PROOF_JSON"), "where to write proof.json")
      ("public", po::value<std::string>()->value_name("PUBLIC_JSON"), "where to write public.json");
  ParsedArgs parsed = parse_command_line(args, specific, {"zkey", "witness", "proof", "public"});
  if (parsed.help) {
    print_command_help(std::cout, kUsage, specific);
    return kExitSuccess;
  }
  const bool from_input = parsed.values.count("input") != 0;
  if (from_input != (parsed.values.count("witness-generator") != 0)) {
    throw UsageError("--input and --witness-generator go together");
  }
  if (from_input) {
    // ZKEY PROOF_JSON PUBLIC_JSON: the three positionals fill the first three slots, and the
    // fourth slot took the first key=value override, if there is one: it goes back to them.
    std::map<std::string, po::variable_value>& values = parsed.values;  // the base's mutable operator[]
    if (values.count("public")) {
      const std::string fourth = values.at("public").as<std::string>();
      if (fourth.find('=') == std::string::npos) throw UsageError("with --input: expected ZKEY PROOF_JSON PUBLIC_JSON");
      parsed.overrides.insert(parsed.overrides.begin(), fourth);
      values.erase("public");
    }
    if (!values.count("proof")) throw UsageError("with --input: expected ZKEY PROOF_JSON PUBLIC_JSON");
    values["public"] = values.at("proof");
    values["proof"] = values.at("witness");
    values.erase("witness");
  }
  for (const char* name : {"zkey", "proof", "public"}) {
    if (!parsed.values.count(name)) throw UsageError("expected ZKEY WTNS PROOF_JSON PUBLIC_JSON");
  }
  if (!from_input && !parsed.values.count("witness")) throw UsageError("expected ZKEY WTNS PROOF_JSON PUBLIC_JSON");
  require_key_value_overrides(parsed);
  if (parsed.values.count("backend")) parsed.overrides.push_back("prover=" + parsed.values["backend"].as<std::string>());
  if (parsed.values.count("r1cs")) parsed.overrides.push_back("prover.r1cs=" + parsed.values["r1cs"].as<std::string>());
  const std::string key_format_text = parsed.values["key-format"].as<std::string>();
  const std::optional<zkp_key_format_t> key_format = services::key_format_from_name(key_format_text);
  if (!key_format) {
    throw UsageError("--key-format is " + std::string(services::key_format_choices()) + ", not '" + key_format_text + "'");
  }
  const std::string format = parsed.values["format"].as<std::string>();
  if (format != "snarkjs" && format != "rapidsnark") {
    throw UsageError("--format is snarkjs or rapidsnark, not '" + format + "'");
  }
  const std::string zkey = parsed.values["zkey"].as<std::string>();
  const std::string wtns = from_input ? std::string() : parsed.values["witness"].as<std::string>();
  // The input's bytes (a regular file, read whole: FileContents refuses a FIFO or device).
  std::optional<FileContents> input_json;
  if (from_input) input_json.emplace(parsed.values["input"].as<std::string>());
  const std::string generator = from_input ? parsed.values["witness-generator"].as<std::string>() : std::string();

  // One proof, then exit: what a stage frees goes back to the OS at once instead of waiting in
  // glibc's arenas for a reuse that, with each thread allocating from its own arena, often
  // comes in another one, so the next stage's buffers add to it. Measured on a whole prove
  // (BN254, docs/PERF.md, second pass): peak RSS 6.5, 6.7 and 16.6 MB lower at 2^16, 2^18 and
  // 2^20, for 0.03-0.14 s more system time and no more wall time. A long-running host (serve,
  // worker, a library caller) keeps glibc's defaults: it reuses what it frees.
#ifdef __GLIBC__
  mallopt(M_TRIM_THRESHOLD, 0);
#endif
  host::Host host(load_config(parsed));
  auto source = sdk::make_struct<zkp_key_source_t>();
  source.path = zkey.c_str();
  source.format = *key_format;
  if (from_input) source.witness_generator = generator.c_str();
  const uint64_t key_id = host.load_key(source);

  auto part = sdk::make_struct<zkp_partition_t>();
  part.witness = sdk::make_struct<zkp_witness_t>();
  if (from_input) {
    part.witness.kind = ZKP_WITNESS_INPUT_JSON;
    part.witness.data = input_json->bytes().data();
    part.witness.size = input_json->bytes().size();
  } else {
    part.witness.kind = ZKP_WITNESS_WTNS_FILE;
    part.witness.path = wtns.c_str();
  }
  Outcome outcome;
  auto job = sdk::make_struct<zkp_job_t>();
  job.key_id = key_id;
  job.partitions = &part;
  job.partition_count = 1;
  job.gpu_index = parsed.values["gpu"].as<int32_t>();
  // `outcome` is read after wait(), which returns once the callback has.
  host.wait(host.submit(job, [&outcome](const zkp_completion_t& r) { copy_outcome(r, outcome); }), -1);
  host.shutdown(ZKP_SHUTDOWN_DRAIN);

  if (outcome.status != ZKP_OK) throw sdk::Error(outcome.status, outcome.message);
  if (outcome.proof.empty()) {
    throw sdk::Error(ZKP_ERR_UNSUPPORTED, "prover '" + host.prover_name() + "' produced no proof bytes (simulated?)");
  }
  const Curve curve = to_curve(outcome.curve);
  const bool rapidsnark_layout = format == "rapidsnark";
  // All together or none (services/output_files.hpp): never a new proof beside old public signals.
  std::vector<services::OutputFile> outputs{
      {parsed.values["proof"].as<std::string>(),
       rapidsnark_layout ? rapidsnark::proof_json(curve, outcome.proof)
                         : write_proof_json(proof_from_bytes(curve, outcome.proof, "proof"))},
      {parsed.values["public"].as<std::string>(),
       rapidsnark_layout ? rapidsnark::public_json(outcome.publics) : write_public_json(outcome.publics)}};
  if (parsed.values.count("bellperson-proof")) {
    outputs.push_back({parsed.values["bellperson-proof"].as<std::string>(), bellperson_proof_bytes(curve, outcome.proof)});
  }
  services::write_files_together(outputs);
  if (!outcome.self_checked) {
    // Neither the prover (prover.verify) nor the host (self_check) checked this proof: a key or
    // witness that is wrong gives a proof that does not verify, and nothing here noticed.
    const std::string warning = "the proof in " + parsed.values["proof"].as<std::string>() +
                                " was NOT CHECKED (neither the prover, prover.verify, nor the host, self_check, "
                                "verified it): it may not verify";
    host::log().warn("prove: {}", warning);
    std::fprintf(stderr, "zkpipe prove: WARNING: %s\n", warning.c_str());
  }
  std::fprintf(stderr, "zkpipe prove: %s proof on %s device %d: proving %.1f ms, synthesis %.1f ms, total %.1f ms%s\n",
               std::string(curve_info(curve).name).c_str(), host.prover_name().c_str(), outcome.gpu_index,
               static_cast<double>(outcome.gpu_ns) / kNsPerMs, static_cast<double>(outcome.synthesis_ns) / kNsPerMs,
               static_cast<double>(outcome.total_ns) / kNsPerMs, outcome.self_checked ? ", verified" : "");
  return kExitSuccess;
}

}  // namespace

ZKPIPE_COMMAND(prove, "prove: ZKEY WTNS -> proof.json public.json (snarkjs format, rapidsnark's argument order)",
               kUsage, run_prove);

}  // namespace zkp::cli
