// zkpipe bench --key K --witness W (or --synthetic CURVE:LOG2: a generated, INSECURE key and
// its witness, bench/synthetic_key.hpp): proofs/s and p50/p99 latency of real proofs on a host in
// this process, over a sweep of concurrency settings (workers per device x synthesis threads
// x jobs in flight), or against a `zkpipe serve` (--socket, --address: jobs in flight only),
// as a table on stdout and optionally JSON, CSV and an SVG chart. Every
// counted proof was verified before delivery (self_check on); a failed or unverified proof
// makes the bench fail, so a fast wrong engine cannot bench well. The parts live in bench/.
#include "services/command/command.hpp"
#include "services/command/options.hpp"

#include <zkpipe/sdk/error.hpp>

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "bench/local_runner.hpp"
#include "bench/synthetic_key.hpp"
#include "bench/synthetic_spec.hpp"
#include "net/module.hpp"  // --socket, --address: the runner comes from the net module
#include "bench/progress.hpp"
#include "bench/report.hpp"
#include "bench/svg_chart.hpp"
#include "bench/sweep.hpp"

namespace zkp::cli {

namespace {

// The version, the time and the machine, for the JSON report (a file read later says what
// measured it).
void describe_machine(bench::BenchInfo& info) {
  info.zkpipe_version = ZKPIPE_VERSION;
  info.started_unix_ms = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) == 0) info.host_name = name;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      info.cpu = line.substr(line.find(':') + 2);
      break;
    }
  }
  info.hardware_threads = std::thread::hardware_concurrency();
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) info.memory_bytes = static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
}

namespace po = boost::program_options;

constexpr const char* kUsage =
    "zkpipe bench (--key ZKEY --witness WTNS | --synthetic CURVE:LOG2) [--backend NAME] [--workers LIST] [--synthesis-threads LIST]\n"
    "             [--in-flight LIST] [--proofs N | --duration S] [--warmup N] [--json FILE] [--csv FILE]\n"
    "             [--svg FILE] [--socket PATH | --address HOST:PORT] [--config FILE] [key=value ...]";
constexpr int64_t kMaxConnectSeconds = 3600;
// Limits that keep a typo from asking for a day-long run; the host checks its own limits too.
constexpr uint32_t kMaxListValue = 1024;
constexpr int64_t kMaxProofs = 1'000'000;
constexpr uint64_t kDefaultProofs = 4;
constexpr double kMaxDurationS = 86'400;

void write_output(const std::string& flag, const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw sdk::Error(ZKP_ERR_INVALID_ARGUMENT, flag + ": cannot write " + path);
}

bench::Budget parse_budget(po::variables_map& v) {
  if (v.count("proofs") && v.count("duration")) throw UsageError("--proofs and --duration are alternatives; give one");
  bench::Budget budget;
  budget.proofs = kDefaultProofs;
  if (v.count("proofs")) {
    const int64_t n = v["proofs"].as<int64_t>();
    if (n < 1 || n > kMaxProofs) throw UsageError("--proofs must be in [1, " + std::to_string(kMaxProofs) + "]");
    budget.proofs = static_cast<uint64_t>(n);
  }
  if (v.count("duration")) {
    const std::chrono::milliseconds d =
        duration_flag("--duration", v["duration"].as<std::string>(), services::DurationUnit::seconds);
    const double s = std::chrono::duration<double>(d).count();
    if (!(s > 0 && s <= kMaxDurationS)) throw UsageError("--duration must be in (0, 86400] seconds");
    budget.proofs = 0;
    budget.duration_s = s;
  }
  const int64_t warmup = v["warmup"].as<int64_t>();
  if (warmup < 0 || warmup > kMaxProofs) throw UsageError("--warmup must be in [0, " + std::to_string(kMaxProofs) + "]");
  budget.warmup = static_cast<uint32_t>(warmup);
  return budget;
}

// The server's configuration is its own: a sweep of it from here would measure nothing.
void check_remote_flags(po::variables_map& v) {
  if (v.count("socket") && v.count("address")) throw UsageError("--socket and --address: one or the other");
  for (const char* flag : {"synthesis-threads", "backend"}) {
    if (v.count(flag)) {
      throw UsageError(std::string("--") + flag + " is the server's setting; against --socket or --address only --in-flight is swept");
    }
  }
  if (!v["workers"].defaulted()) {
    throw UsageError("--workers is the server's setting; against --socket or --address only --in-flight is swept");
  }
  if ((v.count("tls-ca") || v.count("tls-server-name")) && !v.count("address")) {
    throw UsageError("--tls-ca and --tls-server-name are for --address (the unix socket has no TLS)");
  }
  if (v.count("tls-server-name") && !v.count("tls-ca")) throw UsageError("--tls-server-name needs --tls-ca");
}

// Against a server one placeholder value each for workers and synthesis threads: the runner
// reports the server's workers, and 0 threads (the server does not say).
std::vector<bench::Point> parse_plan(po::variables_map& v, bool remote, uint32_t configured_threads) {
  const std::vector<uint32_t> workers =
      remote ? std::vector<uint32_t>{1} : bench::parse_list("--workers", v["workers"].as<std::string>(), kMaxListValue);
  std::vector<uint32_t> threads{remote ? 0 : configured_threads};
  if (v.count("synthesis-threads")) {
    threads = bench::parse_list("--synthesis-threads", v["synthesis-threads"].as<std::string>(), kMaxListValue);
  }
  const std::vector<uint32_t> in_flight = bench::parse_list("--in-flight", v["in-flight"].as<std::string>(), kMaxListValue);
  return bench::make_plan(workers, threads, in_flight);
}

// A failed or unverified proof makes the numbers meaningless: say which, exit 1.
bool all_valid(const std::vector<bench::PointResult>& results) {
  uint64_t failed = 0, unverified = 0;
  std::string first_failure;
  for (const bench::PointResult& r : results) {
    failed += r.failed;
    unverified += r.latency_ns.size() - r.verified;
    if (first_failure.empty()) first_failure = r.first_failure;
  }
  if (failed > 0) std::cerr << "zkpipe bench: " << failed << " proof(s) failed, the first: " << first_failure << "\n";
  if (unverified > 0) {
    std::cerr << "zkpipe bench: " << unverified << " proof(s) were not verified (the prover did not, and self_check could not)\n";
  }
  if (failed == 0 && unverified == 0) return true;
  std::cerr << "zkpipe bench: the numbers above do not measure valid proofs\n";
  return false;
}

// Generates the key, says on stderr that it is INSECURE and how long it took, and records both.
bench::BenchInput make_synthetic_input(const bench::SyntheticSpec& spec, bench::BenchInfo& info) {
  bench::SyntheticKey key = bench::make_synthetic_key(spec, 0);
  info.key = "synthetic " + bench::to_string(spec) + " (INSECURE: known toxic waste, seed " +
             std::to_string(bench::kSyntheticSeed) + ")";
  info.witness = "synthetic (squaring chain from " + std::to_string(bench::kSyntheticChainStart) + ")";
  info.keygen_s = key.seconds;
  info.keygen_threads = key.threads;
  std::cerr << "zkpipe bench: synthetic " << bench::to_string(spec) << " key generated in " << key.seconds << " s on "
            << key.threads << " thread(s): " << key.constraints << " constraints, " << key.n_vars << " wires, domain "
            << key.domain_size << ", " << key.zkey.size() << " bytes. INSECURE (known tau): for benchmarks only\n";
  bench::BenchInput input;
  input.key_image = std::move(key.zkey);
  input.assignment = std::move(key.assignment);
  return input;
}

int run_bench(const std::vector<std::string>& args) {
  po::options_description specific("bench options");
  specific.add_options()
      ("key,k", po::value<std::string>()->value_name("ZKEY"), "proving key (.zkey); required unless --synthetic")
      ("witness,w", po::value<std::string>()->value_name("WTNS"),
       "witness (.wtns) every proof proves; required unless --synthetic")
      ("synthetic", po::value<std::string>()->value_name("CURVE:LOG2"),
       "instead of --key/--witness: generate an INSECURE known-tau key of 2^LOG2 rows (a squaring chain) "
       "and its witness in memory; CURVE bn254 or bls12-381, e.g. bn254:16")
      ("backend,b", po::value<std::string>()->value_name("NAME"), "prover plugin (cpu, cuda, a path); same as prover=NAME")
      ("workers", po::value<std::string>()->default_value("1,2")->value_name("LIST"),
       "workers_per_device values to sweep, comma-separated")
      ("synthesis-threads", po::value<std::string>()->value_name("LIST"),
       "synthesis_threads values to sweep; default: the configuration's one value")
      ("in-flight", po::value<std::string>()->default_value("4")->value_name("LIST"),
       "jobs (one proof each) kept submitted at once, comma-separated")
      ("proofs,n", po::value<int64_t>()->value_name("N"), "measured proofs per point (default 4)")
      ("duration", po::value<std::string>()->value_name("S"),
       "instead of --proofs: submit for S seconds per point (or 500ms, 2m, 1h)")
      ("warmup", po::value<int64_t>()->default_value(1)->value_name("N"),
       "proofs per point run before the clock starts, excluded from the results")
      ("json", po::value<std::string>()->value_name("FILE"), "also write the results as JSON")
      ("csv", po::value<std::string>()->value_name("FILE"), "also write the results as CSV (a header, a row per point)")
      ("svg", po::value<std::string>()->value_name("FILE"), "also write a chart: throughput and p50/p99 per point")
      ("socket", po::value<std::string>()->value_name("PATH"),
       "bench a `zkpipe serve` on this unix socket instead of a host in this process (sweeps --in-flight only)")
      ("address", po::value<std::string>()->value_name("HOST:PORT"),
       "bench a `zkpipe serve` at this TCP address (sweeps --in-flight only)")
      ("token-file", po::value<std::string>()->value_name("F"),
       "with --address: the bearer token the server requires over TCP, from this file")
      ("tls-ca", po::value<std::string>()->value_name("FILE"),
       "with --address: TLS, trusting the certificates in FILE (PEM)")
      ("tls-server-name", po::value<std::string>()->value_name("N"),
       "with --tls-ca: the name the server's certificate must hold, when not the address's host")
      ("connect-timeout", po::value<std::string>()->default_value("10")->value_name("S"),
       "with --socket or --address: how long to wait for the server");
  ParsedArgs parsed = parse_command_line(args, specific);
  if (parsed.help) {
    print_command_help(std::cout, kUsage, specific);
    return kExitSuccess;
  }
  require_key_value_overrides(parsed);
  po::variables_map& v = parsed.values;
  std::optional<bench::SyntheticSpec> synthetic;
  if (v.count("synthetic")) {
    if (v.count("key") || v.count("witness")) throw UsageError("--synthetic replaces --key and --witness; give one or the other");
    synthetic = bench::parse_synthetic_spec("--synthetic", v["synthetic"].as<std::string>());
  } else {
    if (!v.count("key")) throw UsageError("--key is required (the proving key to bench), or --synthetic CURVE:LOG2");
    if (!v.count("witness")) throw UsageError("--witness is required (the witness every proof proves)");
  }
  const bench::Budget budget = parse_budget(v);
  const bool remote = v.count("socket") || v.count("address");
  if (remote) check_remote_flags(v);
  // A server loads keys by path; a key that lives in this process's memory cannot reach it.
  if (remote && synthetic) throw UsageError("--synthetic benches a host in this process; not with --socket or --address");
  const std::chrono::milliseconds connect_timeout =
      duration_flag("--connect-timeout", v["connect-timeout"].as<std::string>(), services::DurationUnit::seconds);
  if (connect_timeout > std::chrono::seconds(kMaxConnectSeconds)) {
    throw UsageError("--connect-timeout must be in [0, 3600] seconds");
  }
  if (v.count("backend")) parsed.overrides.push_back("prover=" + v["backend"].as<std::string>());
  host::Config config = load_config(parsed);
  const std::vector<bench::Point> plan = parse_plan(v, remote, config.synthesis_threads);

  const auto origin = std::chrono::steady_clock::now();
  bench::BenchInfo info;
  info.target = "local";
  info.warmup = budget.warmup;
  describe_machine(info);
  bench::BenchInput input;
  if (synthetic) {
    input = make_synthetic_input(*synthetic, info);
  } else {
    info.key = input.key_path = v["key"].as<std::string>();
    info.witness = input.witness_path = v["witness"].as<std::string>();
  }
  std::function<bench::PointResult(const bench::Point&, const bench::Budget&, const bench::ProofTick&)> run_point;
  std::function<std::string()> prover_name;
  std::unique_ptr<bench::LocalRunner> local;
  std::unique_ptr<bench::RemoteRunner> served;
  if (remote) {
#ifdef ZKPIPE_HAVE_SERVE
    info.target = v.count("socket") ? "unix:" + v["socket"].as<std::string>() : v["address"].as<std::string>();
    bench::RemoteTarget target{info.target, "", "", "", std::chrono::ceil<std::chrono::seconds>(connect_timeout)};
    if (v.count("token-file")) target.token_file = v["token-file"].as<std::string>();
    if (v.count("tls-ca")) target.tls_ca_file = v["tls-ca"].as<std::string>();
    if (v.count("tls-server-name")) target.tls_server_name = v["tls-server-name"].as<std::string>();
    served = net::load_module().open_bench_runner(target, input.key_path, input.witness_path, origin);
    run_point = [&](const auto& p, const auto& b, const auto& t) { return served->run(p, b, t); };
    prover_name = [&] { return served->prover_name(); };
#else
    throw UsageError("--socket and --address need zkpipe serve, which this build lacks (no gRPC)");
#endif
  }
  if (!remote) {
    local = std::make_unique<bench::LocalRunner>(std::move(config), std::move(input), origin);
    run_point = [&](const auto& p, const auto& b, const auto& t) { return local->run(p, b, t); };
    prover_name = [&] { return local->prover_name(); };
  }
  bench::Progress progress(::isatty(STDERR_FILENO) == 1, plan.size(), budget.proofs);
  std::vector<bench::PointResult> results;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    results.push_back(run_point(plan[i], budget, [&](uint64_t done) {
      progress.proof_done(i, plan[i], done, std::chrono::duration<double>(std::chrono::steady_clock::now() - origin).count());
    }));
    progress.point_done(i, results.back());
  }
  progress.finish();
  info.prover = prover_name();

  std::cout << bench::format_table(info, results);
  if (v.count("json")) write_output("--json", v["json"].as<std::string>(), bench::format_json(info, results));
  if (v.count("csv")) write_output("--csv", v["csv"].as<std::string>(), bench::format_csv(results));
  if (v.count("svg")) write_output("--svg", v["svg"].as<std::string>(), bench::format_svg(info, results));
  return all_valid(results) ? kExitSuccess : kExitFailure;
}

}  // namespace

ZKPIPE_COMMAND(bench, "bench real proofs (--key and --witness, or --synthetic) over a concurrency sweep: table, JSON, CSV, SVG",
               kUsage, run_bench);

}  // namespace zkp::cli
