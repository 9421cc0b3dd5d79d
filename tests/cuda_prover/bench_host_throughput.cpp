// bench_host_throughput: proofs per second through the whole host (libzkpipe: admission,
// synthesis, the GPU queue, the workers, the completion thread) with a prover plugin, for
// `worker_overlap` on and off side by side in one run (interleaved, A B A B ...), as a ratio.
//
//   bench_host_throughput PLUGIN [--curve bn254|bls12_381|both] [--logs 18,20] [--proofs 48]
//                         [--reps 3] [--workers 2] [--synthesis-threads 0] [--set key=value]...
//
// Keys and witnesses are synthetic (tests/groth16/synthetic_key.hpp): the proofs do not verify,
// so the prover's verify and the host's self_check are off, which leaves exactly the proving
// work. Partitions are assignments (ZKP_WITNESS_ASSIGNMENT), so synthesis runs as in a real job.
// Prints one line per (curve, size, setting, rep) and the median ratio per (curve, size).
#include <zkpipe/zkpipe.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/pairing/bls12_381.hpp"
#include "core/pairing/bn254.hpp"
#include "synthetic_key.hpp"

namespace {

using namespace zkp;
using Clock = std::chrono::steady_clock;

struct Args {
  std::string plugin;
  std::string curve = "both";
  std::vector<unsigned> logs = {18, 20};
  unsigned proofs = 48, reps = 3, workers = 2, synthesis_threads = 0;
  std::vector<std::string> sets;
};

template <class T>
T make() {
  T v{};
  v.header = ZKP_HEADER_INIT(T);
  return v;
}

[[noreturn]] void die(const std::string& what, const zkp_error_t& err) {
  std::fprintf(stderr, "bench_host_throughput: %s: %s (%s)\n", what.c_str(), err.message, zkp_status_name(err.status));
  std::exit(1);
}

// One host with `overlap`, the key loaded; proofs/s over `a.proofs` partitions of one job.
double run_once(const Args& a, const std::vector<std::byte>& zkey, const std::vector<std::uint8_t>& witness,
                bool overlap) {
  std::vector<std::string> overrides = {"prover=" + a.plugin,
                                        "prover.verify=false",
                                        "prover.key_check=none",
                                        "self_check=false",
                                        "log_level=warn",
                                        "workers_per_device=" + std::to_string(a.workers),
                                        std::string("worker_overlap=") + (overlap ? "true" : "false")};
  if (a.synthesis_threads != 0) overrides.push_back("synthesis_threads=" + std::to_string(a.synthesis_threads));
  for (const std::string& s : a.sets) overrides.push_back(s);
  std::vector<const char*> c_overrides;
  for (const std::string& s : overrides) c_overrides.push_back(s.c_str());
  zkp_error_t err = make<zkp_error_t>();
  zkp_host_t* host = nullptr;
  if (zkp_host_create(nullptr, c_overrides.data(), c_overrides.size(), &host, &err) != ZKP_OK) die("create", err);
  auto source = make<zkp_key_source_t>();
  source.data = zkey.data();
  source.size = zkey.size();
  std::uint64_t key_id = 0;
  if (zkp_host_load_key(host, &source, &key_id, &err) != ZKP_OK) die("load_key", err);

  std::vector<zkp_partition_t> parts(a.proofs, make<zkp_partition_t>());
  for (zkp_partition_t& p : parts) {
    p.witness = make<zkp_witness_t>();
    p.witness.kind = ZKP_WITNESS_ASSIGNMENT;
    p.witness.data = witness.data();
    p.witness.size = witness.size();
  }
  auto summary = make<zkp_job_summary_t>();
  auto job = make<zkp_job_t>();
  job.on_job = [](void* user, const zkp_job_summary_t* s) { *static_cast<zkp_job_summary_t*>(user) = *s; };
  job.user_data = &summary;
  job.key_id = key_id;
  job.partitions = parts.data();
  job.partition_count = static_cast<std::uint32_t>(parts.size());
  job.gpu_index = -1;
  const auto t0 = Clock::now();
  std::uint64_t job_id = 0;
  if (zkp_host_submit(host, &job, &job_id, &err) != ZKP_OK) die("submit", err);
  if (zkp_host_wait(host, job_id, -1, &err) != ZKP_OK) die("wait", err);
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (summary.succeeded != a.proofs) {
    std::fprintf(stderr, "bench_host_throughput: %u of %u partitions failed\n", summary.failed, a.proofs);
    std::exit(1);
  }
  zkp_host_destroy(host, ZKP_SHUTDOWN_DRAIN);
  return a.proofs / seconds;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <PairingEngine E>
void bench_curve(const Args& a, const char* name) {
  for (unsigned log_n : a.logs) {
    const auto circuit = test::synthetic_circuit(log_n);
    const std::vector<std::byte> zkey = test::synthetic_zkey<E>(circuit);
    const auto w = test::synthetic_witness<typename E::Fr>(circuit);
    std::vector<std::uint8_t> witness(w.size() * ZKP_SCALAR_SIZE);
    std::memcpy(witness.data(), w.data(), witness.size());
    std::vector<double> on, off;
    for (unsigned rep = 0; rep < a.reps; ++rep) {
      for (const bool overlap : {false, true}) {
        const double per_s = run_once(a, zkey, witness, overlap);
        (overlap ? on : off).push_back(per_s);
        std::printf("host %-9s 2^%-2u worker_overlap=%-5s rep %u: %.2f proofs/s (%u proofs, %u workers/device)\n", name,
                    log_n, overlap ? "true" : "false", rep, per_s, a.proofs, a.workers);
        std::fflush(stdout);
      }
    }
    std::printf("host %-9s 2^%-2u median: overlap off %.2f, on %.2f proofs/s, on/off %.3f\n", name, log_n, median(off),
                median(on), median(on) / median(off));
    std::fflush(stdout);
  }
}

std::vector<unsigned> parse_logs(const std::string& text) {
  std::vector<unsigned> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t comma = std::min(text.find(',', pos), text.size());
    out.push_back(static_cast<unsigned>(std::stoul(text.substr(pos, comma - pos))));
    pos = comma + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (argc < 2 || argv[1][0] == '-') {
    std::fprintf(stderr, "usage: bench_host_throughput PLUGIN [--curve C] [--logs 18,20] [--proofs N] [--reps R] "
                         "[--workers W] [--synthesis-threads T] [--set key=value]...\n");
    return 2;
  }
  a.plugin = argv[1];
  for (int i = 2; i < argc; ++i) {
    const std::string k = argv[i];
    const auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench_host_throughput: %s needs a value\n", k.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (k == "--curve") a.curve = next();
    else if (k == "--logs") a.logs = parse_logs(next());
    else if (k == "--proofs") a.proofs = static_cast<unsigned>(std::stoul(next()));
    else if (k == "--reps") a.reps = static_cast<unsigned>(std::stoul(next()));
    else if (k == "--workers") a.workers = static_cast<unsigned>(std::stoul(next()));
    else if (k == "--synthesis-threads") a.synthesis_threads = static_cast<unsigned>(std::stoul(next()));
    else if (k == "--set") a.sets.push_back(next());
    else {
      std::fprintf(stderr, "bench_host_throughput: unknown argument %s\n", k.c_str());
      return 2;
    }
  }
  if (a.curve == "bn254" || a.curve == "both") bench_curve<bn254::Engine>(a, "BN254");
  if (a.curve == "bls12_381" || a.curve == "both") bench_curve<bls12_381::Engine>(a, "BLS12-381");
  return 0;
}
