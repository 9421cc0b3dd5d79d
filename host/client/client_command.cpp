// zkpipe client [--socket PATH | --address HOST:PORT [--token-file F] [--tls-ca FILE]] COMMAND ...:
// a client of `zkpipe serve` (zkpipe.v1.Prover) for a shell user, so no gRPC tool is needed.
//
//   load KEY [--bellperson] [--witness-generator G]
//                                    load a key (warm if loaded already); prints its id; G: the
//                                    circuit's witness generator, a file in serve.generator_dirs
//   unload KEY_ID                    unload a key (refused while a job uses it)
//   keys                             the loaded keys, one a line
//   prove KEY WTNS... [--out DIR]    load KEY, prove one partition per witness, write DIR/proof.json
//                                    and DIR/public.json (proof_I.json, public_I.json for several)
//   submit KEY WTNS... [--priority N]  load KEY, submit, print the job id
//   (prove and submit take --key-id ID, a key loaded already, in place of KEY; --inputs: the
//   files are input.json texts, which the key's witness generator turns into witnesses)
//   await JOB_ID [--out DIR]         a job's completions as they come, one a line (proofs into DIR)
//   cancel JOB_ID                    cancel a job's queued partitions
//   status                           the server's Status
//   health                           serving or not
//   enqueue KEY WTNS... [--priority N] [--bellperson] [--paths]
//                                    a job for the fleet's job store (serve.queue_url); prints its
//                                    id. The witnesses travel as bytes, or with --paths as absolute
//                                    paths every worker must see (as KEY's path always is)
//   job-status JOB_ID [--wait S] [--out DIR]
//                                    the store's view of a job; --wait: until it is done (at most
//                                    S seconds); --out: its proofs into DIR
//
// Exit 0 on success, 1 when the server refuses or a partition fails (the gRPC status and
// message on stderr), 2 for a bad command line. The socket defaults to serve.socket's default.
#include "services/bearer_token.hpp"
#include "services/command/command.hpp"
#include "services/command/net_commands.hpp"
#include "services/command/options.hpp"
#include "services/output_files.hpp"

#include "connection.hpp"  // host/client: the connection libzkpipe_client makes too
#include "submit_job.hpp"  // and the way it submits

#include "zkpipe/v1/prover.grpc.pb.h"

#include <zkpipe/sdk/error.hpp>

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

namespace zkp::cli {

namespace {

namespace v1 = zkpipe::v1;
using client::CallOutcome;
using client::Connection;
using client::submit_witness_job;
using client::WitnessJob;

constexpr const char* kUsage =
    "zkpipe client [--socket PATH | --address HOST:PORT] [--token-file F] [--tls-ca FILE] "
    "load|unload|keys|prove|submit|await|cancel|status|health|enqueue|job-status ...";
constexpr const char* kHelp =
    "  load KEY [--bellperson] [--witness-generator G]\n"
    "                                     load a key (warm if loaded already); prints its id. G: the\n"
    "                                     circuit's witness generator, a file in serve.generator_dirs\n"
    "  unload KEY_ID                      unload a key (refused while a job uses it)\n"
    "  keys                               the loaded keys, one a line\n"
    "  prove KEY WTNS... [--out DIR]      prove one partition per witness; DIR/proof.json, public.json\n"
    "                                     (proof_I.json, public_I.json for several witnesses)\n"
    "  submit KEY WTNS... [--priority N]  submit; prints the job id\n"
    "                                     (prove, submit: --key-id ID, a loaded key, for KEY;\n"
    "                                     --inputs: the files are input.json, for a key with a generator)\n"
    "  await JOB_ID [--out DIR]           the job's completions, one a line (proofs into DIR)\n"
    "  cancel JOB_ID                      cancel the job's queued partitions\n"
    "  status                             the server's status\n"
    "  health                             serving or not\n"
    "  enqueue KEY WTNS... [--priority N] [--bellperson] [--paths]\n"
    "                                     a job for the server's job store (serve.queue_url), proved by\n"
    "                                     `zkpipe worker`s; prints its id. --paths: send the witnesses'\n"
    "                                     absolute paths (every worker must see them), not their bytes\n"
    "  job-status JOB_ID [--wait S] [--out DIR]\n"
    "                                     the job store's view of the job; --wait: until it is done (S\n"
    "                                     seconds at most; exit 1 if not, or if a partition failed);\n"
    "                                     --out: its proofs into DIR\n"
    "--socket PATH (default: serve.socket's default) or --address HOST:PORT (TCP: with\n"
    "--token-file F holding the bearer token; --tls-ca FILE: TLS, trusting the certificates\n"
    "in FILE (PEM: the CA, or a self-signed server certificate itself); --tls-server-name N:\n"
    "the name the certificate must hold, when not the address's host); --connect-timeout S\n"
    "(10): how long to wait for the server. S, --wait's too: seconds, or 500ms, 2m, 1h; 30 days at most.\n";

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw UsageError("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

uint64_t number_arg(const std::string& text, const char* what) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
    throw UsageError(std::string(what) + " '" + text + "' is not a number");
  }
  return std::stoull(text);
}

// A failed call: the gRPC status on stderr, exit 1.
int failed(const char* call, const grpc::Status& s) {
  std::cerr << "zkpipe client: " << call << ": [" << static_cast<int>(s.error_code()) << "] " << s.error_message() << "\n";
  return kExitFailure;
}

// Options after the command's positionals: --NAME VALUE pairs (and flags) taken out of `args`.
struct Rest {
  std::vector<std::string> positional;
  std::string out = ".";
  bool out_set = false;  // --out given
  int32_t priority = 0;
  bool bellperson = false;
  std::optional<uint64_t> key_id;  // --key-id: a loaded key instead of KEY's path
  bool paths = false;              // enqueue --paths
  std::string witness_generator;   // load, prove, submit: --witness-generator G (a file on the server)
  bool inputs = false;             // prove, submit: the files are input.json texts, not .wtns
  std::optional<std::chrono::milliseconds> wait;  // job-status --wait
};

Rest split(const std::vector<std::string>& args, size_t from) {
  Rest r;
  for (size_t i = from; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&] {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      return args[++i];
    };
    if (a == "--out") {
      r.out = value();
      r.out_set = true;
    }
    else if (a == "--priority") r.priority = static_cast<int32_t>(std::stol(value()));
    else if (a == "--bellperson") r.bellperson = true;
    else if (a == "--key-id") r.key_id = number_arg(value(), "--key-id");
    else if (a == "--paths") r.paths = true;
    else if (a == "--witness-generator") r.witness_generator = value();
    else if (a == "--inputs") r.inputs = true;
    else if (a == "--wait") r.wait = duration_flag("--wait", value(), services::DurationUnit::seconds);
    else if (a.rfind("--", 0) == 0) throw UsageError("unknown option " + a);
    else r.positional.push_back(a);
  }
  return r;
}

void print_result(const v1::PartitionResult& r) {
  std::printf("job %llu partition %u: %s", static_cast<unsigned long long>(r.job_id()), r.partition(), r.status_name().c_str());
  if (r.status() == 0) {
    std::printf(" on device %d (worker %u): device %.1f ms, synthesis %.1f ms, queue %.1f ms, total %.1f ms\n",
                r.gpu_index(), r.worker(), static_cast<double>(r.gpu_duration_ns()) / 1e6,
                static_cast<double>(r.synthesis_ns()) / 1e6, static_cast<double>(r.queue_wait_ns()) / 1e6,
                static_cast<double>(r.total_ns()) / 1e6);
  } else {
    std::printf(": %s\n", r.message().c_str());
  }
  std::fflush(stdout);
}

// Writes the proof of `r` into `dir` (proof.json/public.json, or _I for one of several).
void write_proof(const std::string& dir, const v1::PartitionResult& r, bool several) {
  if (r.status() != 0 || r.proof_json().empty()) return;
  std::string suffix;
  if (several) {
    suffix = "_";
    suffix += std::to_string(r.partition());
  }
  services::write_files_together(
      {{dir + "/proof" + suffix + ".json", r.proof_json()}, {dir + "/public" + suffix + ".json", r.public_json()}});
}

bool load(const Connection& c, const std::string& path, const Rest& rest, v1::LoadKeyResponse* out, int* rc) {
  v1::LoadKeyRequest request;
  request.set_path(path);
  request.set_format(rest.bellperson ? v1::KEY_FORMAT_BELLPERSON : v1::KEY_FORMAT_ZKEY);
  request.set_witness_generator(rest.witness_generator);
  const grpc::Status s = c.stub().LoadKey(c.context().get(), request, out);
  if (!s.ok()) *rc = failed("LoadKey", s);
  return s.ok();
}

// Await's results as they come (printed), written into `out` once all are in; the exit code.
int await_results(const Connection& c, uint64_t job_id, const std::string& out) {
  v1::AwaitRequest request;
  request.set_job_id(job_id);
  auto context = c.context();
  auto reader = c.stub().Await(context.get(), request);
  std::vector<v1::PartitionResult> results;
  int rc = kExitSuccess;
  for (v1::PartitionResult r; reader->Read(&r);) {
    print_result(r);
    results.push_back(r);
    if (r.status() != 0) rc = kExitFailure;
  }
  if (const grpc::Status s = reader->Finish(); !s.ok()) return failed("Await", s);
  for (const v1::PartitionResult& r : results) write_proof(out, r, results.size() > 1);
  return rc;
}

int run_command(const Connection& c, const std::string& command, const Rest& rest) {
  const std::vector<std::string>& p = rest.positional;
  int rc = kExitSuccess;
  auto need = [&](size_t at_least, size_t at_most, const char* usage) {
    if (p.size() < at_least || p.size() > at_most) throw UsageError(std::string("usage: zkpipe client ") + usage);
  };
  if (command == "load") {
    need(1, 1, "load KEY [--bellperson]");
    v1::LoadKeyResponse key;
    if (!load(c, p[0], rest, &key, &rc)) return rc;
    std::printf("%llu\n", static_cast<unsigned long long>(key.key().key_id()));
    std::fprintf(stderr, "zkpipe client: key %llu %s from %s\n", static_cast<unsigned long long>(key.key().key_id()),
                 key.already_loaded() ? "was loaded (warm)" : "loaded", key.key().path().c_str());
  } else if (command == "unload") {
    need(1, 1, "unload KEY_ID");
    v1::UnloadKeyRequest request;
    request.set_key_id(number_arg(p[0], "KEY_ID"));
    v1::UnloadKeyResponse response;
    if (const grpc::Status s = c.stub().UnloadKey(c.context().get(), request, &response); !s.ok()) return failed("UnloadKey", s);
  } else if (command == "keys") {
    need(0, 0, "keys");
    v1::ListKeysResponse keys;
    if (const grpc::Status s = c.stub().ListKeys(c.context().get(), v1::ListKeysRequest(), &keys); !s.ok()) {
      return failed("ListKeys", s);
    }
    for (const v1::KeyInfo& k : keys.keys()) {
      std::printf("%llu %s %s n_vars=%u n_public=%u jobs=%llu\n", static_cast<unsigned long long>(k.key_id()),
                  k.path().c_str(), k.curve().c_str(), k.n_vars(), k.n_public(),
                  static_cast<unsigned long long>(k.jobs_submitted()));
    }
  } else if (command == "prove" || command == "submit") {
    // With --key-id every positional is a witness; else the first is the key's path.
    const size_t first_witness = rest.key_id ? 0 : 1;
    need(first_witness + 1, SIZE_MAX,
         command == "prove" ? "prove KEY|--key-id ID WTNS... [--out DIR]" : "submit KEY|--key-id ID WTNS... [--priority N]");
    uint64_t key_id = rest.key_id.value_or(0);
    if (!rest.key_id) {
      v1::LoadKeyResponse key;
      if (!load(c, p[0], rest, &key, &rc)) return rc;
      key_id = key.key().key_id();
    }
    std::vector<std::string> witnesses;
    WitnessJob job;
    job.header.set_key_id(key_id);
    job.header.set_gpu_index(-1);
    job.header.set_priority(rest.priority);
    job.header.set_inputs(rest.inputs);
    for (auto w = p.begin() + static_cast<std::ptrdiff_t>(first_witness); w != p.end(); ++w) witnesses.push_back(slurp(*w));
    for (const std::string& w : witnesses) job.witnesses.emplace_back(w);
    if (command == "submit" || client::goes_by_stream(job)) {
      // A large job is proved as SubmitStream + Await (host/client/submit_job.hpp says why).
      v1::SubmitResponse response;
      if (const CallOutcome sent = submit_witness_job(c, job, &response); !sent.status.ok()) return failed(sent.call, sent.status);
      if (command == "submit") {
        std::printf("%llu\n", static_cast<unsigned long long>(response.job_id()));
        return kExitSuccess;
      }
      return await_results(c, response.job_id(), rest.out);
    }
    const v1::JobRequest request = client::unary_request(job);
    v1::ProveResponse response;
    if (const grpc::Status s = c.stub().Prove(c.context().get(), request, &response); !s.ok()) return failed("Prove", s);
    for (const v1::PartitionResult& r : response.partitions()) {
      print_result(r);
      write_proof(rest.out, r, response.partitions_size() > 1);
    }
  } else if (command == "await") {
    need(1, 1, "await JOB_ID [--out DIR]");
    rc = await_results(c, number_arg(p[0], "JOB_ID"), rest.out);
  } else if (command == "cancel") {
    need(1, 1, "cancel JOB_ID");
    v1::CancelRequest request;
    request.set_job_id(number_arg(p[0], "JOB_ID"));
    v1::CancelResponse response;
    if (const grpc::Status s = c.stub().Cancel(c.context().get(), request, &response); !s.ok()) return failed("Cancel", s);
  } else if (command == "status") {
    need(0, 0, "status");
    v1::StatusResponse st;
    if (const grpc::Status s = c.stub().Status(c.context().get(), v1::StatusRequest(), &st); !s.ok()) return failed("Status", s);
    const v1::Stats& x = st.stats();
    std::printf("zkpipe %s: prover %s%s, pacer %s (%s), up %.1f s\n", st.version().c_str(), st.prover().c_str(),
                st.simulated() ? " (simulated)" : "", st.pacer().c_str(), st.pacer_status().c_str(),
                static_cast<double>(st.uptime_ms()) / 1e3);
    std::printf("jobs: %llu submitted, %llu finished, %u open; partitions: %llu succeeded, %llu failed\n",
                static_cast<unsigned long long>(x.jobs_submitted()), static_cast<unsigned long long>(x.jobs_finished()),
                st.jobs_open(), static_cast<unsigned long long>(x.partitions_succeeded()),
                static_cast<unsigned long long>(x.partitions_failed()));
    std::printf("queue: %u pending, %u synthesizing, %u waiting, %u proving; budget %llu of %llu bytes (peak %llu)\n",
                x.pending(), x.synthesizing(), x.waiting(), x.proving(), static_cast<unsigned long long>(x.budget_used_bytes()),
                static_cast<unsigned long long>(x.budget_total_bytes()), static_cast<unsigned long long>(x.budget_peak_bytes()));
    for (const v1::Device& d : st.devices()) {
      std::printf("device %u: %s, %llu proved, busy %.1f ms, memory %llu free of %llu\n", d.gpu_index(), d.name().c_str(),
                  static_cast<unsigned long long>(d.partitions_proved()), static_cast<double>(d.busy_ns()) / 1e6,
                  static_cast<unsigned long long>(d.memory_free_bytes()), static_cast<unsigned long long>(d.memory_bytes()));
    }
    std::printf("keys loaded: %u\n", st.keys_loaded());
  } else if (command == "enqueue") {
    need(2, SIZE_MAX, "enqueue KEY WTNS... [--priority N] [--bellperson] [--paths]");
    v1::EnqueueRequest request;
    request.set_key_path(std::filesystem::absolute(p[0]).string());
    request.set_format(rest.bellperson ? v1::KEY_FORMAT_BELLPERSON : v1::KEY_FORMAT_ZKEY);
    request.set_priority(rest.priority);
    for (size_t k = 1; k < p.size(); ++k) {
      if (rest.paths) request.add_witness_paths(std::filesystem::absolute(p[k]).string());
      else request.add_witnesses(slurp(p[k]));
    }
    v1::EnqueueResponse response;
    if (const grpc::Status s = c.stub().Enqueue(c.context().get(), request, &response); !s.ok()) return failed("Enqueue", s);
    std::printf("%llu\n", static_cast<unsigned long long>(response.job_id()));
  } else if (command == "job-status") {
    need(1, 1, "job-status JOB_ID [--wait S] [--out DIR]");
    v1::JobStatusRequest request;
    request.set_job_id(number_arg(p[0], "JOB_ID"));
    const auto deadline = std::chrono::steady_clock::now() + rest.wait.value_or(std::chrono::milliseconds(0));
    v1::JobStatusResponse st;
    for (;;) {
      st.Clear();
      if (const grpc::Status s = c.stub().JobStatus(c.context().get(), request, &st); !s.ok()) return failed("JobStatus", s);
      if (!rest.wait || st.done() || std::chrono::steady_clock::now() >= deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the store's NOTIFY is the C API's, not gRPC's
    }
    std::printf("job %llu: %s, %u partition(s): %u succeeded, %u failed, %u leased; priority %d\n",
                static_cast<unsigned long long>(st.job_id()), st.done() ? "done" : "not done", st.partitions(), st.succeeded(),
                st.failed(), st.leased(), st.priority());
    if (rest.out_set && st.done()) {
      request.set_results(true);
      st.Clear();
      if (const grpc::Status s = c.stub().JobStatus(c.context().get(), request, &st); !s.ok()) return failed("JobStatus", s);
      for (const v1::QueueResult& r : st.results()) {
        std::printf("job %llu partition %u: %s%s%s (worker %s, %.1f ms)\n", static_cast<unsigned long long>(st.job_id()),
                    r.partition(), r.status_name().c_str(), r.message().empty() ? "" : ": ", r.message().c_str(),
                    r.worker().c_str(), static_cast<double>(r.prove_ns()) / 1e6);
        if (r.status() != 0 || r.proof_json().empty()) continue;
        const std::string suffix = st.results_size() > 1 ? "_" + std::to_string(r.partition()) : "";
        services::write_files_together({{rest.out + "/proof" + suffix + ".json", r.proof_json()},
                                        {rest.out + "/public" + suffix + ".json", r.public_json()}});
      }
    }
    if (rest.wait && (!st.done() || st.failed() != 0)) rc = kExitFailure;
  } else if (command == "health") {
    need(0, 0, "health");
    v1::HealthResponse h;
    if (const grpc::Status s = c.stub().Health(c.context().get(), v1::HealthRequest(), &h); !s.ok()) return failed("Health", s);
    std::printf("serving %s, version %s\n", h.serving() ? "yes" : "no", h.version().c_str());
    return h.serving() ? kExitSuccess : kExitFailure;
  } else {
    throw UsageError("unknown client command '" + command + "'\n" + kHelp);
  }
  return rc;
}

int run_client(const std::vector<std::string>& args) {
  std::string socket, address, token_file, tls_ca, tls_server_name;
  std::chrono::milliseconds connect_timeout = std::chrono::seconds(10);
  size_t i = 0;
  for (; i < args.size() && args[i].rfind("--", 0) == 0; ++i) {
    const std::string& a = args[i];
    if (a == "--help") {
      std::cout << "Usage: " << kUsage << "\n" << kHelp;
      return kExitSuccess;
    }
    if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
    if (a == "--socket") socket = args[++i];
    else if (a == "--address") address = args[++i];
    else if (a == "--token-file") token_file = args[++i];
    else if (a == "--tls-ca") tls_ca = args[++i];
    else if (a == "--tls-server-name") tls_server_name = args[++i];
    else if (a == "--connect-timeout") connect_timeout = duration_flag(a, args[++i], services::DurationUnit::seconds);
    else throw UsageError("unknown option " + a + " (before the command: --socket, --address, --token-file, --tls-ca, --tls-server-name, "
                           "--connect-timeout)");
  }
  if (!socket.empty() && !address.empty()) throw UsageError("--socket and --address: one or the other");
  if ((!tls_ca.empty() || !tls_server_name.empty()) && address.empty()) {
    throw UsageError("--tls-ca and --tls-server-name are for --address (the unix socket has no TLS)");
  }
  if (!tls_server_name.empty() && tls_ca.empty()) throw UsageError("--tls-server-name needs --tls-ca");
  if (i >= args.size()) throw UsageError(std::string("no command\nUsage: ") + kUsage + "\n" + kHelp);
  std::string token;
  if (!token_file.empty()) {
    try {
      token = services::read_token_file(token_file, "--token-file");
    } catch (const sdk::Error& e) {
      throw UsageError(e.what());
    }
  }
  client::ConnectionSettings settings;
  settings.target = address.empty() ? "unix:" + (socket.empty() ? services::default_socket() : socket) : address;
  settings.token = token;
  settings.tls_ca_file = tls_ca;
  settings.tls_server_name = tls_server_name;
  const Connection c(std::move(settings));
  const Rest rest = split(args, i + 1);  // usage errors before any waiting
  c.connect(connect_timeout);
  return run_command(c, args[i], rest);
}

}  // namespace

ZKPIPE_COMMAND(client, net::kClientSummary, kUsage, run_client);

}  // namespace zkp::cli
