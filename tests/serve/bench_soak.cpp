// bench_soak: does a long run leak (issue 17, item 4)? Many small proofs through the in-process
// C API host, then through `zkpipe serve` on a unix socket, with the resident memory (RSS, from
// /proc/PID/statm) and the open file descriptors (the entries of /proc/PID/fd) of the process
// that proves sampled every $ZKPIPE_SOAK_EVERY proofs (default 100): this process for the C
// API, the server's pid for serve. Prints one table per phase and a verdict:
//
//   RSS at the end within 5% of RSS at the warm-up point, and no more descriptors open at the
//   end than at the warm-up point.
//
// The warm-up point of the C API is proof 1,000 (a tenth of its 10,000): by then the
// allocator's arenas, the thread pools and the key's caches have their working size, and what
// grows after it grows with the number of proofs. The server keeps by design the results of
// its last 4,096 finished jobs (for a late Await) and its last 4,096 completions (for the
// dashboard; host/services/observe/retention.hpp), so its memory grows by a few KiB a proof until then
// (measured: +9 MiB over the first 4,096 one-proof jobs, flat after). Its warm-up point is
// therefore the first sample past both, proof 4,100, and the 1,000 proofs judged follow it. Exits 0 when both phases pass, 1 when one does not, 2 on an error. A
// benchmark, not a test (CI does not run it); docs/PERF.md has its figures.
//
//   $ZKPIPE_SOAK_CAPI_PROOFS   proofs through the C API (default 10000)
//   $ZKPIPE_SOAK_SERVE_PROOFS  proofs through `zkpipe serve` after its warm-up (default 1000)
//   $ZKPIPE_SOAK_ZKEY, $ZKPIPE_SOAK_WTNS  the key and witness (default: the committed
//                              samples/circuits/multiplier_bn128, one constraint)
//   $ZKPIPE_SOAK_SET           host overrides for both phases, space-separated
//   $ZKPIPE_SOAK_ZKPIPE        the zkpipe binary (default: the one this build made)
#include <zkpipe/zkpipe.h>

#include "services/observe/retention.hpp"
#include "serve_process.hpp"
#include "zkpipe/v1/prover.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

namespace v1 = zkpipe::v1;
namespace fs = std::filesystem;

// RSS at the end may exceed RSS at the warm-up point by this fraction (the bound).
constexpr double kRssTolerance = 0.05;
// The C API's warm-up point: the sample after this fraction of its proofs.
constexpr double kWarmupFraction = 0.1;
constexpr uint64_t kKiB = 1024;

std::string env(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}

uint64_t env_count(const char* name, uint64_t fallback) {
  const std::string v = env(name, std::to_string(fallback));
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
  if (*end != '\0' || n == 0) throw std::runtime_error(std::string(name) + "=" + v + " is not a positive integer");
  return n;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> host_overrides() {
  std::vector<std::string> o = {"prover=cpu", "log_level=warn"};
  std::istringstream more(env("ZKPIPE_SOAK_SET", ""));
  for (std::string s; more >> s;) o.push_back(s);
  return o;
}

// ---- sampling ------------------------------------------------------------------------------

struct Sample {
  uint64_t proofs = 0;
  uint64_t rss_kib = 0;
  uint64_t fds = 0;
};

// /proc/PID/statm's second field: resident pages.
uint64_t rss_kib(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/statm");
  uint64_t size = 0, resident = 0;
  if (!(in >> size >> resident)) throw std::runtime_error("cannot read /proc/" + std::to_string(pid) + "/statm");
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) / kKiB;
}

uint64_t open_fds(pid_t pid) {
  uint64_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/" + std::to_string(pid) + "/fd")) ++n;
  return n;
}

struct Phase {
  std::string name;
  std::vector<Sample> samples;
  size_t warmup = 0;  // index of the warm-up sample
};

// The first multiple of `every` at or past `n`.
uint64_t sample_at_or_after(uint64_t n, uint64_t every) { return (n + every - 1) / every * every; }

// Runs `prove(n)` (proves n proofs, throws on a failure) until `total` proofs, sampling `pid`
// every `every` proofs, and prints each sample as it is taken; the sample at `warmup_at` (a
// multiple of `every`) is the warm-up point.
Phase run_phase(const std::string& name, pid_t pid, uint64_t total, uint64_t every, uint64_t warmup_at,
                const std::function<void(uint64_t)>& prove) {
  Phase phase{name, {}, 0};
  std::printf("\n%s: %llu proofs, pid %d, sampled every %llu (warm-up point: proof %llu)\n", name.c_str(),
              static_cast<unsigned long long>(total), static_cast<int>(pid), static_cast<unsigned long long>(every),
              static_cast<unsigned long long>(warmup_at));
  std::printf("%10s %12s %6s\n", "proofs", "rss_kib", "fds");
  phase.samples.push_back({0, rss_kib(pid), open_fds(pid)});
  std::printf("%10d %12llu %6llu\n", 0, static_cast<unsigned long long>(phase.samples.back().rss_kib),
              static_cast<unsigned long long>(phase.samples.back().fds));
  for (uint64_t done = 0; done < total;) {
    const uint64_t n = std::min(every, total - done);
    prove(n);
    done += n;
    phase.samples.push_back({done, rss_kib(pid), open_fds(pid)});
    if (done <= warmup_at) phase.warmup = phase.samples.size() - 1;
    std::printf("%10llu %12llu %6llu%s\n", static_cast<unsigned long long>(done),
                static_cast<unsigned long long>(phase.samples.back().rss_kib),
                static_cast<unsigned long long>(phase.samples.back().fds), done == warmup_at ? "  <- warm-up" : "");
    std::fflush(stdout);
  }
  return phase;
}

// Prints the phase's verdict; true when it passes.
bool verdict(const Phase& p) {
  const Sample& warm = p.samples[p.warmup];
  const Sample& end = p.samples.back();
  const double growth = (static_cast<double>(end.rss_kib) - static_cast<double>(warm.rss_kib)) /
                        static_cast<double>(warm.rss_kib);
  const bool rss_ok = growth <= kRssTolerance;
  const bool fds_ok = end.fds <= warm.fds;
  std::printf("%s: RSS %llu KiB at the warm-up point (proof %llu), %llu KiB at the end (proof %llu): %+.2f%% (%s, "
              "bound +%.0f%%); fds %llu then %llu (%s)\n",
              p.name.c_str(), static_cast<unsigned long long>(warm.rss_kib),
              static_cast<unsigned long long>(warm.proofs), static_cast<unsigned long long>(end.rss_kib),
              static_cast<unsigned long long>(end.proofs), growth * 100, rss_ok ? "ok" : "LEAK?",
              kRssTolerance * 100, static_cast<unsigned long long>(warm.fds),
              static_cast<unsigned long long>(end.fds), fds_ok ? "ok" : "GREW");
  return rss_ok && fds_ok;
}

// ---- the C API ----------------------------------------------------------------------------

template <class T>
T make() {
  T v{};
  v.header = ZKP_HEADER_INIT(T);
  return v;
}

void check(zkp_status_t s, const zkp_error_t& err, const char* what) {
  if (s != ZKP_OK) throw std::runtime_error(std::string(what) + ": " + err.message);
}

// Each round submits its proofs as one-partition jobs at once, then waits for all of them, as a
// service would (several jobs in flight, each its own completion).
Phase capi_phase(const std::string& zkey_path, const std::string& wtns, uint64_t total, uint64_t every) {
  const std::vector<std::string> overrides = host_overrides();
  std::vector<const char*> c;
  for (const std::string& s : overrides) c.push_back(s.c_str());
  zkp_error_t err = make<zkp_error_t>();
  zkp_host_t* raw = nullptr;
  check(zkp_host_create(nullptr, c.data(), c.size(), &raw, &err), err, "zkp_host_create");
  const std::unique_ptr<zkp_host_t, void (*)(zkp_host_t*)> host(raw, [](zkp_host_t* h) {
    zkp_host_destroy(h, ZKP_SHUTDOWN_DRAIN);
  });
  auto source = make<zkp_key_source_t>();
  source.path = zkey_path.c_str();
  uint64_t key = 0;
  check(zkp_host_load_key(host.get(), &source, &key, &err), err, "zkp_host_load_key");
  auto part = make<zkp_partition_t>();
  part.witness = make<zkp_witness_t>();
  part.witness.kind = ZKP_WITNESS_WTNS_BUFFER;
  part.witness.data = wtns.data();
  part.witness.size = wtns.size();
  uint64_t failures = 0;  // written on the completion thread only, read after zkp_host_wait
  auto job = make<zkp_job_t>();
  job.key_id = key;
  job.partitions = &part;
  job.partition_count = 1;
  job.gpu_index = -1;
  job.user_data = &failures;
  job.on_partition = [](void* user, const zkp_completion_t* done) {
    if (done->status != ZKP_OK) {
      if (++*static_cast<uint64_t*>(user) == 1) std::fprintf(stderr, "bench_soak: %s\n", done->message);
    }
  };
  const uint64_t warmup_at = sample_at_or_after(static_cast<uint64_t>(static_cast<double>(total) * kWarmupFraction), every);
  return run_phase("C API", getpid(), total, every, std::max(every, warmup_at), [&](uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t id = 0;
      check(zkp_host_submit(host.get(), &job, &id, &err), err, "zkp_host_submit");
    }
    check(zkp_host_wait(host.get(), 0, -1, &err), err, "zkp_host_wait");
    if (failures != 0) throw std::runtime_error(std::to_string(failures) + " proofs failed");
  });
}

// ---- `zkpipe serve` -------------------------------------------------------------------------

// One Prove call (one witness) at a time: the whole request path of the service each proof;
// `judged` proofs after the warm-up (past what the server keeps by design).
Phase serve_phase(const std::string& zkey_path, const std::string& wtns, uint64_t judged, uint64_t every) {
  const uint64_t kept = std::max<uint64_t>(zkp::observe::kKeepFinishedJobs, zkp::observe::kRecentCompletionsKept);
  const uint64_t warmup_at = sample_at_or_after(kept + 1, every);
  zkp::test::serve::ServeProcess server(env("ZKPIPE_SOAK_ZKPIPE", ZKPIPE_BENCH_CLI), host_overrides(), zkey_path);
  v1::JobRequest request;
  request.set_key_id(server.key_id());
  request.set_gpu_index(-1);
  request.add_witnesses(wtns);
  return run_phase("zkpipe serve", server.pid(), warmup_at + judged, every, warmup_at, [&](uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) {
      grpc::ClientContext context;
      v1::ProveResponse response;
      zkp::test::serve::check_call(server.stub().Prove(&context, request, &response), "Prove");
      if (response.partitions_size() != 1 || response.partitions(0).status() != ZKP_OK) {
        throw std::runtime_error("Prove returned no proof");
      }
    }
  });
}

}  // namespace

int main() {
  try {
    const std::string dir = ZKPIPE_SOAK_CIRCUIT;
    const std::string zkey = fs::absolute(env("ZKPIPE_SOAK_ZKEY", dir + "/circuit.zkey")).string();
    const std::string wtns = read_file(env("ZKPIPE_SOAK_WTNS", dir + "/witness.wtns"));
    const uint64_t every = env_count("ZKPIPE_SOAK_EVERY", 100);
    const Phase capi = capi_phase(zkey, wtns, env_count("ZKPIPE_SOAK_CAPI_PROOFS", 10000), every);
    const Phase serve = serve_phase(zkey, wtns, env_count("ZKPIPE_SOAK_SERVE_PROOFS", 1000), every);
    std::printf("\nverdict (%s)\n", zkey.c_str());
    const bool capi_ok = verdict(capi);
    const bool serve_ok = verdict(serve);
    std::printf("%s\n", capi_ok && serve_ok ? "no leak: both phases within the bounds" : "LEAK: a phase is out of bounds");
    return capi_ok && serve_ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_soak: %s\n", e.what());
    return 2;
  }
}
