// bench_isolation: proofs/s and per-proof latency through the whole host (libzkpipe) with
// isolation = thread against isolation = process (issue 17, item 1), per size, side by side.
//
//   isolation/thread/2^k, isolation/process/2^k, isolation/process_ahead/2^k (isolation_synthesis = ahead)
//
// Each iteration is one job of $ZKPIPE_BENCH_PROOFS partitions (default 16), submitted and
// waited for; the host is created and the key loaded outside the timing (process isolation's
// start and key load are a one-off cost). Counters: proofs_per_s, and latency_ms, the mean time
// from submit to a partition's completion callback.
//
//   $ZKPIPE_BENCH_PROVER  the prover plugin, a name or a path (default cpu; cuda on a GPU host)
//   $ZKPIPE_BENCH_LOGS    comma-separated log2 sizes of a synthetic key (default "12"); the key's
//                         proofs do not verify, so prover.verify, key_check and self_check are off
//   $ZKPIPE_BENCH_ZKEY, $ZKPIPE_BENCH_WTNS  a real .zkey and .wtns instead (size "file")
//   $ZKPIPE_BENCH_SET     more host overrides, space-separated (workers_per_device=2 ...)
#include <benchmark/benchmark.h>
#include <zkpipe/zkpipe.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/pairing/bn254.hpp"
#include "synthetic_key.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::string env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}

template <class T>
T make() {
  T v{};
  v.header = ZKP_HEADER_INIT(T);
  return v;
}

void check(zkp_status_t s, const zkp_error_t& err, const char* what) {
  if (s != ZKP_OK) throw std::runtime_error(std::string(what) + ": " + err.message);
}

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A key and the witness of its partitions (an assignment, or .wtns bytes).
struct Input {
  std::vector<uint8_t> zkey, witness;
  zkp_witness_kind_t kind = ZKP_WITNESS_ASSIGNMENT;
  bool real = false;  // a real key: its proofs verify
};

Input synthetic(unsigned log_n) {
  const auto circuit = zkp::test::synthetic_circuit(log_n);
  const std::vector<std::byte> zkey = zkp::test::synthetic_zkey<zkp::bn254::Engine>(circuit);
  const auto w = zkp::test::synthetic_witness<zkp::bn254::Engine::Fr>(circuit);
  Input in;
  in.zkey.resize(zkey.size());
  std::memcpy(in.zkey.data(), zkey.data(), zkey.size());
  in.witness.resize(w.size() * ZKP_SCALAR_SIZE);
  std::memcpy(in.witness.data(), w.data(), in.witness.size());
  return in;
}

struct Latency {
  Clock::time_point submitted;
  std::atomic<int64_t> total_ns{0};
};

void prove(benchmark::State& state, const std::string& isolation, const Input& in) {
  // "process_ahead": isolation = process with isolation_synthesis = ahead (synthesize_into).
  const bool ahead = isolation == "process_ahead";
  std::vector<std::string> overrides = {"prover=" + env("ZKPIPE_BENCH_PROVER", "cpu"),
                                        "isolation=" + std::string(ahead ? "process" : isolation),
                                        "isolation_synthesis=" + std::string(ahead ? "ahead" : "inline"),
                                        "log_level=warn"};
  if (!in.real) overrides.insert(overrides.end(), {"prover.verify=false", "prover.key_check=none", "self_check=false"});
  std::istringstream more(env("ZKPIPE_BENCH_SET", ""));
  for (std::string s; more >> s;) overrides.push_back(s);
  std::vector<const char*> c;
  for (const std::string& s : overrides) c.push_back(s.c_str());
  zkp_error_t err = make<zkp_error_t>();
  zkp_host_t* host = nullptr;
  try {
    check(zkp_host_create(nullptr, c.data(), c.size(), &host, &err), err, "zkp_host_create");
    auto source = make<zkp_key_source_t>();
    source.data = in.zkey.data();
    source.size = in.zkey.size();
    uint64_t key = 0;
    check(zkp_host_load_key(host, &source, &key, &err), err, "zkp_host_load_key");
    const auto proofs = static_cast<uint32_t>(std::stoul(env("ZKPIPE_BENCH_PROOFS", "16")));
    std::vector<zkp_partition_t> parts(proofs, make<zkp_partition_t>());
    for (zkp_partition_t& p : parts) {
      p.witness = make<zkp_witness_t>();
      p.witness.kind = in.kind;
      p.witness.data = in.witness.data();
      p.witness.size = in.witness.size();
    }
    Latency latency;
    uint64_t done = 0;
    for (auto _ : state) {
      auto job = make<zkp_job_t>();
      job.key_id = key;
      job.partitions = parts.data();
      job.partition_count = proofs;
      job.gpu_index = -1;
      job.user_data = &latency;
      job.on_partition = [](void* user, const zkp_completion_t* done_one) {
        auto& l = *static_cast<Latency*>(user);
        if (done_one->status != ZKP_OK) std::fprintf(stderr, "bench_isolation: %s\n", done_one->message);
        l.total_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - l.submitted).count();
      };
      latency.submitted = Clock::now();
      uint64_t id = 0;
      check(zkp_host_submit(host, &job, &id, &err), err, "zkp_host_submit");
      check(zkp_host_wait(host, id, -1, &err), err, "zkp_host_wait");
      done += proofs;
    }
    state.counters["proofs_per_s"] = benchmark::Counter(static_cast<double>(done), benchmark::Counter::kIsRate);
    state.counters["latency_ms"] = static_cast<double>(latency.total_ns.load()) / 1e6 / static_cast<double>(done);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
  if (host != nullptr) zkp_host_destroy(host, ZKP_SHUTDOWN_DRAIN);
}

void register_all() {
  static std::vector<Input> inputs;  // outlive the benchmarks
  std::vector<std::string> names;
  if (const std::string zkey = env("ZKPIPE_BENCH_ZKEY", ""); !zkey.empty()) {
    Input in;
    in.zkey = read_file(zkey);
    in.witness = read_file(env("ZKPIPE_BENCH_WTNS", ""));
    in.kind = ZKP_WITNESS_WTNS_BUFFER;
    in.real = true;
    inputs.push_back(std::move(in));
    names.push_back("file");
  } else {
    std::istringstream logs(env("ZKPIPE_BENCH_LOGS", "12"));
    for (std::string k; std::getline(logs, k, ',');) {
      inputs.push_back(synthetic(static_cast<unsigned>(std::stoul(k))));
      names.push_back("2^" + k);
    }
  }
  inputs.shrink_to_fit();
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (const char* isolation : {"thread", "process", "process_ahead"}) {
      benchmark::RegisterBenchmark(("isolation/" + std::string(isolation) + "/" + names[i]).c_str(),
                                   [isolation, i](benchmark::State& s) { prove(s, isolation, inputs[i]); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
