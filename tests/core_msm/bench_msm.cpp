// bench_msm: MSM time per point, G1 and G2 of BN254 and BLS12-381.
//
// Arguments of BM_Msm: log2 n, threads, scalar distribution (0 = uniform in [0, r),
// 1 = circom-like, see below), window bits (0 = the table in window.cpp). BM_WindowSweep runs
// sizes over c = 4..16 to rebuild that table. BM_Accumulation compares batch-affine buckets
// with XYZZ buckets (one thread, uniform scalars). Run on a quiet machine (check `uptime`):
//   bench_msm --benchmark_filter='BM_Msm<bn254::G1>' --benchmark_min_time=0.01
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <map>
#include <random>
#include <span>
#include <vector>

#include "core/ec/batch_normalize.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/msm/msm.hpp"
#include "core/msm/pippenger.hpp"
#include "core/msm/scalars.hpp"

namespace zkp::msm {
namespace {

// 2^log_n bases by a random walk over 16 steps (one addition per base), built once per group.
template <CurveParams C>
const std::vector<Base<C>>& bases(std::size_t log_n) {
  static std::map<std::size_t, std::vector<Base<C>>> cache;
  auto& v = cache[log_n];
  if (v.empty()) {
    std::mt19937_64 rng(42);
    std::array<Jacobian<C>, 16> step;
    for (auto& s : step) s = scalar_mul(Jacobian<C>::generator(), C::Scalar::random(rng).to_bigint());
    std::vector<Jacobian<C>> points(std::size_t{1} << log_n);
    Jacobian<C> p = Jacobian<C>::generator();
    for (auto& q : points) q = p += step[rng() % step.size()];
    std::vector<Affine<C>> affine(points.size());
    batch_to_affine<C>(points, affine);
    v.reserve(points.size());
    for (const auto& a : affine) v.push_back({a.x, a.y});
  }
  return v;
}

// Circom-like witness (an assumption, not a measured circuit): 45% zeros, 35% ones, 2% −1,
// 3% small (< 2^16), 15% uniform field elements.
template <CurveParams C>
std::vector<std::uint8_t> scalars(std::size_t n, int distribution) {
  using Fr = typename C::Scalar;
  std::mt19937_64 rng(7);
  std::vector<std::uint8_t> out(n * kScalarBytes);
  ScalarInt minus_one = Fr::kModulus;
  minus_one.sub_in_place(ScalarInt::from_u64(1));
  for (std::size_t i = 0; i < n; ++i) {
    ScalarInt s;
    if (distribution == 0) {
      s = Fr::random(rng).to_bigint();
    } else {
      const auto u = rng() % 100;
      if (u < 45) s = ScalarInt::from_u64(0);
      else if (u < 80) s = ScalarInt::from_u64(1);
      else if (u < 82) s = minus_one;
      else if (u < 85) s = ScalarInt::from_u64(rng() % 65536);
      else s = Fr::random(rng).to_bigint();
    }
    s.to_le_bytes(std::span<std::uint8_t, kScalarBytes>(out.data() + i * kScalarBytes, kScalarBytes));
  }
  return out;
}

template <CurveParams C>
void BM_Msm(benchmark::State& state) {
  const auto log_n = static_cast<std::size_t>(state.range(0));
  const std::size_t n = std::size_t{1} << log_n;
  const auto& b = bases<C>(log_n);
  const auto s = scalars<C>(n, static_cast<int>(state.range(2)));
  const Options opt{static_cast<std::size_t>(state.range(1)), static_cast<unsigned>(state.range(3))};
  for (auto _ : state) benchmark::DoNotOptimize(msm<C>(std::span<const Base<C>>(b), s, opt));
  state.counters["ns/point"] =
      benchmark::Counter(static_cast<double>(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Arguments: log2 n, accumulation (0 = batch-affine, 1 = XYZZ), window bits (0 = table).
template <CurveParams C>
void BM_Accumulation(benchmark::State& state) {
  const auto log_n = static_cast<std::size_t>(state.range(0));
  const std::size_t n = std::size_t{1} << log_n;
  const auto& b = bases<C>(log_n);
  const auto s = scalars<C>(n, 0);
  const ScalarPlan plan = plan_scalars(s, C::Scalar::kModulus, [](std::size_t) { return false; });
  const auto mode = state.range(1) == 0 ? detail::Accumulation::batch_affine : detail::Accumulation::xyzz;
  const unsigned c = state.range(2) != 0 ? static_cast<unsigned>(state.range(2)) : window_bits_for(n);
  for (auto _ : state) benchmark::DoNotOptimize(detail::Pippenger<C>(b, plan, WorkSplit{c, 1}, 1, mode).run());
  state.counters["ns/point"] =
      benchmark::Counter(static_cast<double>(n) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void accumulation_args(benchmark::internal::Benchmark* bm) {
  for (const int log_n : {8, 10, 12, 14, 16, 18})
    for (const int mode : {0, 1}) bm->Args({log_n, mode, 0});
  bm->ArgNames({"log_n", "xyzz", "c"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

void args(benchmark::internal::Benchmark* bm) {
  for (const int log_n : {14, 16, 18})
    for (const int dist : {0, 1})
      for (const int threads : {1, 2}) bm->Args({log_n, threads, dist, 0});
  bm->ArgNames({"log_n", "threads", "circom", "c"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

void sweep(benchmark::internal::Benchmark* bm) {
  for (const int log_n : {8, 10, 12, 14, 16, 18, 20})
    for (int c = 4; c <= 16; ++c) bm->Args({log_n, 1, 0, c});
  bm->ArgNames({"log_n", "threads", "circom", "c"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK_TEMPLATE(BM_Msm, bn254::G1)->Apply(args);
BENCHMARK_TEMPLATE(BM_Msm, bn254::G2)->Apply(args);
BENCHMARK_TEMPLATE(BM_Msm, bls12_381::G1)->Apply(args);
BENCHMARK_TEMPLATE(BM_Msm, bls12_381::G2)->Apply(args);
BENCHMARK_TEMPLATE(BM_Accumulation, bn254::G1)->Apply(accumulation_args);
BENCHMARK_TEMPLATE(BM_Accumulation, bn254::G2)->Apply(accumulation_args);
BENCHMARK_TEMPLATE(BM_Msm, bn254::G1)->Name("BM_WindowSweep<bn254::G1>")->Apply(sweep);
BENCHMARK_TEMPLATE(BM_Msm, bn254::G2)->Name("BM_WindowSweep<bn254::G2>")->Apply(sweep);

}  // namespace
}  // namespace zkp::msm

BENCHMARK_MAIN();
