// Pairing and Groth16-verification timings for both curves (run by hand; not a ctest test):
//   build-*/bin/bench_pairing [--benchmark_filter=...]
// Single-threaded; inputs are random group elements / a hand-built Groth16 instance with two
// public inputs (pairing_test_support.hpp).
#include <benchmark/benchmark.h>

#include <vector>

#include "core/pairing/verify.hpp"
#include "pairing_test_support.hpp"

namespace zkp {
namespace {

template <PairingEngine E>
PairingInput<E> random_pair() {
  using Fr = typename E::Fr;
  return {test::mul_gen<typename E::G1>(Fr::random(test::rng())), test::mul_gen<typename E::G2>(Fr::random(test::rng()))};
}

template <PairingEngine E>
void BM_Pairing(benchmark::State& state) {
  const auto in = random_pair<E>();
  for (auto _ : state) benchmark::DoNotOptimize(pairing<E>(in.p, in.q));
}

template <PairingEngine E>
void BM_MillerLoop(benchmark::State& state) {
  const PairingInput<E> in[] = {random_pair<E>()};
  for (auto _ : state) benchmark::DoNotOptimize(multi_miller_loop<E>(in));
}

template <PairingEngine E>
void BM_FinalExponentiation(benchmark::State& state) {
  const PairingInput<E> in[] = {random_pair<E>()};
  const auto f = multi_miller_loop<E>(in);
  for (auto _ : state) benchmark::DoNotOptimize(final_exponentiation<E>(f));
}

// Π of state.range(0) pairings: one shared Miller loop, one final exponentiation.
template <PairingEngine E>
void BM_MultiPairing(benchmark::State& state) {
  std::vector<PairingInput<E>> in;
  for (int i = 0; i < state.range(0); ++i) in.push_back(random_pair<E>());
  for (auto _ : state) benchmark::DoNotOptimize(multi_pairing<E>(in));
}

// The full check with an unprepared key: key and proof point checks, ΣIC, 4-pair product.
template <PairingEngine E>
void BM_Groth16Verify(benchmark::State& state) {
  const auto inst = test::make_instance<E>(2);
  for (auto _ : state) {
    const auto r = groth16::verify<E>(inst.vk, inst.publics, inst.proof);
    if (!r.ok()) state.SkipWithError(r.message().c_str());
  }
}

// With a prepared key (checked once, e(α₁, β₂) stored): proof checks, ΣIC, 3-pair product.
template <PairingEngine E>
void BM_Groth16VerifyPrepared(benchmark::State& state) {
  const auto inst = test::make_instance<E>(2);
  groth16::PreparedVerifyingKey<E> pvk;
  if (!groth16::prepare<E>(inst.vk, pvk).ok()) state.SkipWithError("prepare failed");
  for (auto _ : state) {
    const auto r = groth16::verify<E>(pvk, inst.publics, inst.proof);
    if (!r.ok()) state.SkipWithError(r.message().c_str());
  }
}

BENCHMARK_TEMPLATE(BM_Pairing, bn254::Engine)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_MillerLoop, bn254::Engine)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_FinalExponentiation, bn254::Engine)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_MultiPairing, bn254::Engine)->Arg(4)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Groth16Verify, bn254::Engine)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Groth16VerifyPrepared, bn254::Engine)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Pairing, bls12_381::Engine)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_MillerLoop, bls12_381::Engine)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_FinalExponentiation, bls12_381::Engine)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_MultiPairing, bls12_381::Engine)->Arg(4)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Groth16Verify, bls12_381::Engine)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_Groth16VerifyPrepared, bls12_381::Engine)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace zkp

BENCHMARK_MAIN();
