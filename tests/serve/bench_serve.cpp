// bench_serve: what `zkpipe serve` costs a proof (issue 15, item 8): the same small proofs
// proved through the service over its unix socket and through the in-process C API host, in
// the same run, with the same host configuration, side by side.
//
//   capi/sequential      one job of one partition at a time: zkp_host_submit + zkp_host_wait
//   serve/Prove          one gRPC Prove (one witness) at a time
//   capi/in_flight       N jobs submitted at once, then zkp_host_wait for all of them
//   serve/Submit+Await   N gRPC Submit calls at once, then an Await stream per job
//
// Each iteration proves $ZKPIPE_BENCH_PROOFS proofs (default 32). The server is started once
// (`zkpipe serve` as a child process) and its key loaded outside the timing, as the C API
// host and its key are: both keep the key warm, which is what a service is for. Counters:
// proofs_per_s, per_proof_us (wall time / proofs); on the serve rows also overhead_us
// (per_proof_us minus the C API row of the same mode, measured earlier in the run) and
// time_ratio (serve per-proof time / C API per-proof time). The serve side does what the
// service always does per partition (the proof and public signals also as snarkjs JSON, a
// protobuf message, a unix-socket round trip), so the difference is the service's cost.
//
//   $ZKPIPE_BENCH_ZKPIPE  the zkpipe binary (default: the one this build made)
//   $ZKPIPE_BENCH_ZKEY, $ZKPIPE_BENCH_WTNS  the key and witness (default: the committed BN254
//                         vector tests/vectors/data/many_public_bn128, 513 constraints)
//   $ZKPIPE_BENCH_SET     host overrides for both sides, space-separated (workers_per_device=2 ...)
//   $ZKPIPE_BENCH_PROVER  the prover (default cpu). With sim and ZKPIPE_BENCH_SET="prover.gpu_ms=0
//                         prover.synthesis_ms=0" a proof costs nothing, and what is left is the
//                         host's and the service's own cost per proof (no proof to write as JSON)
#include <benchmark/benchmark.h>
#include <zkpipe/zkpipe.h>

#include "serve_process.hpp"
#include "zkpipe/v1/prover.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace v1 = zkpipe::v1;
namespace fs = std::filesystem;

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

void check(const grpc::Status& s, const char* what) {
  if (!s.ok()) {
    throw std::runtime_error(std::string(what) + ": [" + std::to_string(static_cast<int>(s.error_code())) + "] " +
                             s.error_message());
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

uint32_t proofs_per_iteration() { return static_cast<uint32_t>(std::stoul(env("ZKPIPE_BENCH_PROOFS", "32"))); }

// The host overrides both sides use, key=value.
std::vector<std::string> host_overrides() {
  std::vector<std::string> o = {"prover=" + env("ZKPIPE_BENCH_PROVER", "cpu"), "log_level=warn"};
  std::istringstream more(env("ZKPIPE_BENCH_SET", ""));
  for (std::string s; more >> s;) o.push_back(s);
  return o;
}

struct Inputs {
  std::string zkey_path, wtns;
};

const Inputs& inputs() {
  static const Inputs in = [] {
    Inputs i;
    i.zkey_path = fs::absolute(env("ZKPIPE_BENCH_ZKEY", ZKPIPE_BENCH_VECTOR "/circuit.zkey")).string();
    i.wtns = read_file(env("ZKPIPE_BENCH_WTNS", ZKPIPE_BENCH_VECTOR "/witness.wtns"));
    return i;
  }();
  return in;
}

// Per-proof seconds of the C API rows, by mode, for the serve rows' ratios.
std::map<std::string, double>& baseline() {
  static std::map<std::string, double> b;
  return b;
}

void report(benchmark::State& state, const std::string& side, const std::string& mode, uint64_t proofs,
            double seconds) {
  const double per_proof = seconds / static_cast<double>(proofs);
  state.counters["proofs_per_s"] = static_cast<double>(proofs) / seconds;
  state.counters["per_proof_us"] = per_proof * 1e6;
  if (side == "capi") {
    baseline()[mode] = per_proof;
  } else if (auto it = baseline().find(mode); it != baseline().end()) {
    state.counters["overhead_us"] = (per_proof - it->second) * 1e6;
    state.counters["time_ratio"] = per_proof / it->second;
  }
}

// ---- the in-process C API host ------------------------------------------------------------

void capi(benchmark::State& state, bool in_flight) {
  const std::string mode = in_flight ? "in_flight" : "sequential";
  std::vector<std::string> overrides = host_overrides();
  std::vector<const char*> c;
  for (const std::string& s : overrides) c.push_back(s.c_str());
  zkp_error_t err = make<zkp_error_t>();
  zkp_host_t* host = nullptr;
  try {
    check(zkp_host_create(nullptr, c.data(), c.size(), &host, &err), err, "zkp_host_create");
    const std::string zkey = read_file(inputs().zkey_path);
    auto source = make<zkp_key_source_t>();
    source.data = zkey.data();
    source.size = zkey.size();
    uint64_t key = 0;
    check(zkp_host_load_key(host, &source, &key, &err), err, "zkp_host_load_key");
    auto part = make<zkp_partition_t>();
    part.witness = make<zkp_witness_t>();
    part.witness.kind = ZKP_WITNESS_WTNS_BUFFER;
    part.witness.data = inputs().wtns.data();
    part.witness.size = inputs().wtns.size();
    int failures = 0;
    auto job = make<zkp_job_t>();
    job.key_id = key;
    job.partitions = &part;
    job.partition_count = 1;
    job.gpu_index = -1;
    job.user_data = &failures;
    job.on_partition = [](void* user, const zkp_completion_t* done) {
      if (done->status != ZKP_OK) {
        ++*static_cast<int*>(user);  // completions come one at a time, on the completion thread
        std::fprintf(stderr, "bench_serve: %s\n", done->message);
      }
    };
    const uint32_t n = proofs_per_iteration();
    uint64_t proofs = 0;
    double seconds = 0;
    for (auto _ : state) {
      const auto start = std::chrono::steady_clock::now();
      for (uint32_t i = 0; i < n; ++i) {
        uint64_t id = 0;
        check(zkp_host_submit(host, &job, &id, &err), err, "zkp_host_submit");
        if (!in_flight) check(zkp_host_wait(host, id, -1, &err), err, "zkp_host_wait");
      }
      if (in_flight) check(zkp_host_wait(host, 0, -1, &err), err, "zkp_host_wait");
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      proofs += n;
    }
    if (failures != 0) throw std::runtime_error(std::to_string(failures) + " proofs failed");
    report(state, "capi", mode, proofs, seconds);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
  if (host != nullptr) zkp_host_destroy(host, ZKP_SHUTDOWN_DRAIN);
}

// ---- `zkpipe serve` on a unix socket -------------------------------------------------------

// `zkpipe serve` on a unix socket (serve_process.hpp) with the same host overrides, and the
// job every serve row sends.
class Server {
 public:
  Server()
      : process_(env("ZKPIPE_BENCH_ZKPIPE", ZKPIPE_BENCH_CLI), host_overrides(), inputs().zkey_path) {}

  v1::Prover::Stub& stub() { return process_.stub(); }
  v1::JobRequest job() const {
    v1::JobRequest request;
    request.set_key_id(process_.key_id());
    request.set_gpu_index(-1);
    request.add_witnesses(inputs().wtns);
    return request;
  }

 private:
  zkp::test::serve::ServeProcess process_;
};

std::unique_ptr<Server>& server() {
  static std::unique_ptr<Server> s;
  return s;
}

void serve(benchmark::State& state, bool in_flight) {
  const std::string mode = in_flight ? "in_flight" : "sequential";
  try {
    if (!server()) server() = std::make_unique<Server>();
    Server& srv = *server();
    const v1::JobRequest request = srv.job();
    const uint32_t n = proofs_per_iteration();
    uint64_t proofs = 0;
    double seconds = 0;
    for (auto _ : state) {
      const auto start = std::chrono::steady_clock::now();
      if (!in_flight) {
        for (uint32_t i = 0; i < n; ++i) {
          grpc::ClientContext context;
          v1::ProveResponse response;
          check(srv.stub().Prove(&context, request, &response), "Prove");
          if (response.partitions_size() != 1) throw std::runtime_error("Prove returned no result");
        }
      } else {
        std::vector<uint64_t> jobs;
        for (uint32_t i = 0; i < n; ++i) {
          grpc::ClientContext context;
          v1::SubmitResponse response;
          check(srv.stub().Submit(&context, request, &response), "Submit");
          jobs.push_back(response.job_id());
        }
        for (const uint64_t id : jobs) {
          grpc::ClientContext context;
          v1::AwaitRequest await;
          await.set_job_id(id);
          auto reader = srv.stub().Await(&context, await);
          int ok = 0;
          for (v1::PartitionResult r; reader->Read(&r);) {
            if (r.status() != 0) throw std::runtime_error("job " + std::to_string(id) + ": " + r.message());
            ++ok;
          }
          check(reader->Finish(), "Await");
          if (ok != 1) throw std::runtime_error("Await returned " + std::to_string(ok) + " results, 1 expected");
        }
      }
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      proofs += n;
    }
    report(state, "serve", mode, proofs, seconds);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

void register_all() {
  // The C API row of a mode runs before its serve row, so the serve row has its baseline.
  for (const bool in_flight : {false, true}) {
    benchmark::RegisterBenchmark(in_flight ? "capi/in_flight" : "capi/sequential",
                                 [in_flight](benchmark::State& s) { capi(s, in_flight); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(in_flight ? "serve/Submit+Await" : "serve/Prove",
                                 [in_flight](benchmark::State& s) { serve(s, in_flight); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  server().reset();
  return 0;
}
