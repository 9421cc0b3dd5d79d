// bench_prove: whole Groth16 proofs and their stages, per curve and size, on the cpu core.
//
//   prove/<curve>/2^k        real snarkjs squaring-chain vectors from $ZKPIPE_BENCH_DIR (default
//                            /tmp/zkpipe-bench), folders chain<k>_<bn128|bls12381> with
//                            circuit.zkey and witness.wtns (docs/PERF-CPU.md says how they are
//                            made; too big to commit). Sizes without a folder are skipped.
//   synthetic/<curve>/2^k    the same shape built in memory (synthetic_key.hpp), any size,
//                            no files: for machines without the vectors.
//   odd_coset/<curve>/2^k    one of the three transform pipelines of the H step.
// A prove iteration is synthesis + H + five MSMs + epilogue; the counters give each stage's
// mean milliseconds. $ZKPIPE_BENCH_THREADS sets the thread count (default: every hardware
// thread); $ZKPIPE_BENCH_SYNTHETIC lists the synthetic sizes (default "16").
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "core/formats/wtns.hpp"
#include "core/formats/zkey.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/witness.hpp"
#include "core/pairing/bls12_381.hpp"
#include "core/pairing/bn254.hpp"
#include "synthetic_key.hpp"

namespace {

using namespace zkp;
namespace fs = std::filesystem;

unsigned bench_threads() {
  const char* t = std::getenv("ZKPIPE_BENCH_THREADS");
  return t != nullptr ? static_cast<unsigned>(std::strtoul(t, nullptr, 10)) : 0;
}

ThreadPool& pool() {
  static ThreadPool p(bench_threads());
  return p;
}

fs::path bench_dir() {
  const char* d = std::getenv("ZKPIPE_BENCH_DIR");
  return d != nullptr ? fs::path(d) : fs::path("/tmp/zkpipe-bench");
}

double ms(std::uint64_t ns) { return static_cast<double>(ns) / 1e6; }

template <PairingEngine E>
void run_proofs(benchmark::State& state, const groth16::ProvingKey<E>& key, const std::vector<typename E::Fr::Int>& w,
                double load_ms) {
  using Fr = typename E::Fr;
  std::mt19937_64 rng(1);
  groth16::StageTimes sum;
  for (auto _ : state) {
    groth16::StageTimes t;
    const auto syn = groth16::synthesize<E>(key, w, pool(), &t);
    const auto proof = groth16::prove<E>(key, groth16::prove_input(syn, pool()), Fr::random(rng), Fr::random(rng), pool(), &t);
    benchmark::DoNotOptimize(proof);
    sum.synthesis_ns += t.synthesis_ns;
    sum.ntt_ns += t.ntt_ns;
    sum.msm_a_ns += t.msm_a_ns;
    sum.msm_b1_ns += t.msm_b1_ns;
    sum.msm_b2_ns += t.msm_b2_ns;
    sum.msm_c_ns += t.msm_c_ns;
    sum.msm_h_ns += t.msm_h_ns;
    sum.epilogue_ns += t.epilogue_ns;
  }
  const auto avg = benchmark::Counter::kAvgIterations;
  state.counters["synth_ms"] = benchmark::Counter(ms(sum.synthesis_ns), avg);
  state.counters["ntt_ms"] = benchmark::Counter(ms(sum.ntt_ns), avg);
  state.counters["msmA_ms"] = benchmark::Counter(ms(sum.msm_a_ns), avg);
  state.counters["msmB1_ms"] = benchmark::Counter(ms(sum.msm_b1_ns), avg);
  state.counters["msmB2_ms"] = benchmark::Counter(ms(sum.msm_b2_ns), avg);
  state.counters["msmC_ms"] = benchmark::Counter(ms(sum.msm_c_ns), avg);
  state.counters["msmH_ms"] = benchmark::Counter(ms(sum.msm_h_ns), avg);
  state.counters["epi_ms"] = benchmark::Counter(ms(sum.epilogue_ns), avg);
  state.counters["keyload_ms"] = load_ms;
  state.counters["threads"] = pool().size();
}

template <PairingEngine E>
void bench_prove(benchmark::State& state, fs::path dir) {
  using Fr = typename E::Fr;
  const auto t0 = std::chrono::steady_clock::now();
  const groth16::ProvingKey<E> key(read_zkey(ByteSource::from_file(dir / "circuit.zkey")));
  const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const Wtns wtns = read_wtns(ByteSource::from_file(dir / "witness.wtns"));
  run_proofs<E>(state, key, groth16::load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name()), load_ms);
}

template <PairingEngine E>
void bench_synthetic(benchmark::State& state, unsigned log_n) {
  using Fr = typename E::Fr;
  const auto circuit = test::synthetic_circuit(log_n);
  auto bytes = test::synthetic_zkey<E>(circuit);
  const auto t0 = std::chrono::steady_clock::now();
  const groth16::ProvingKey<E> key(read_zkey(ByteSource::adopt(std::move(bytes), "synthetic.zkey")));
  const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  run_proofs<E>(state, key, test::synthetic_witness<Fr>(circuit), load_ms);
}

template <class Fr>
void bench_odd_coset(benchmark::State& state) {
  const NttDomain<Fr> d(static_cast<std::size_t>(state.range(0)));
  std::mt19937_64 rng(2);
  std::vector<Fr> a(d.size());
  for (auto& x : a) x = Fr::random(rng);
  for (auto _ : state) {
    odd_coset<Fr>(a, d, pool());
    benchmark::ClobberMemory();
  }
  state.counters["threads"] = pool().size();
}

void register_all() {
  for (int log_n : {14, 16, 18, 20, 22}) {
    for (const char* curve : {"bn128", "bls12381"}) {
      const fs::path dir = bench_dir() / ("chain" + std::to_string(log_n) + "_" + curve);
      if (!fs::exists(dir / "circuit.zkey") || !fs::exists(dir / "witness.wtns")) continue;
      const std::string name = std::string("prove/") + (curve[1] == 'n' ? "bn254" : "bls12_381") + "/2^" +
                               std::to_string(log_n);
      auto* b = curve[1] == 'n' ? benchmark::RegisterBenchmark(name.c_str(), bench_prove<bn254::Engine>, dir)
                                : benchmark::RegisterBenchmark(name.c_str(), bench_prove<bls12_381::Engine>, dir);
      b->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();
    }
  }
  const char* sizes = std::getenv("ZKPIPE_BENCH_SYNTHETIC");
  for (const char* p = sizes != nullptr ? sizes : "16"; *p != 0;) {
    char* end = nullptr;
    const auto log_n = static_cast<unsigned>(std::strtoul(p, &end, 10));
    if (end == p) break;
    p = *end != 0 ? end + 1 : end;
    const std::string k = "/2^" + std::to_string(log_n);
    benchmark::RegisterBenchmark(("synthetic/bn254" + k).c_str(), bench_synthetic<bn254::Engine>, log_n)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MeasureProcessCPUTime();
    benchmark::RegisterBenchmark(("synthetic/bls12_381" + k).c_str(), bench_synthetic<bls12_381::Engine>, log_n)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MeasureProcessCPUTime();
  }
  benchmark::RegisterBenchmark("odd_coset/bn254", bench_odd_coset<bn254::Fr>)
      ->DenseRange(14, 20, 2)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("odd_coset/bls12_381", bench_odd_coset<bls12_381::Fr>)
      ->DenseRange(14, 20, 2)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
