// Decode speed of bellperson queries (decode_query): points per second for G1 and G2 under each
// PointCheck, on 1 thread and on every hardware thread. Run by hand:
//   build/bin/bench_bellperson_decode [--benchmark_filter=G2]
// items_per_second is points/s. The 32 GiB PoRep file holds ~2^27 h, ~1.3·10^8 l and a,
// ~3.3·10^7 b_g1 and b_g2 points: total time = count / rate.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "core/bellperson/params.hpp"
#include "core/util/thread_pool.hpp"
#include "params_writer.hpp"

namespace zkp::bellperson::test {
namespace {

constexpr std::size_t kPoints = 4096;

template <class C>
const std::vector<std::uint8_t>& encoded() {
  static const std::vector<std::uint8_t> bytes = [] {
    std::vector<std::uint8_t> out;
    for (const auto& p : multiples<C>(kPoints)) put_point(out, p);
    return out;
  }();
  return bytes;
}

template <class C>
void BM_Decode(benchmark::State& state) {
  const auto check = static_cast<PointCheck>(state.range(0));
  ThreadPool pool(static_cast<unsigned>(state.range(1)));
  const auto& bytes = encoded<C>();
  const ByteView raw(reinterpret_cast<const std::byte*>(bytes.data()), bytes.size());
  std::vector<msm::Base<C>> out(kPoints);
  for (auto _ : state) {
    decode_query<C>(raw, out, check, pool, "bench", "q");
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kPoints));
  state.SetLabel(check == PointCheck::canonical  ? "canonical"
                 : check == PointCheck::on_curve ? "on_curve"
                                                 : "subgroup");
}

void Args(benchmark::internal::Benchmark* b) {
  const auto all = static_cast<std::int64_t>(ThreadPool::hardware_threads());
  for (auto check : {PointCheck::canonical, PointCheck::on_curve, PointCheck::subgroup}) {
    b->Args({static_cast<std::int64_t>(check), 1});
    if (all > 1) b->Args({static_cast<std::int64_t>(check), all});
  }
  b->ArgNames({"check", "threads"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(BM_Decode<G1>)->Apply(Args);
BENCHMARK(BM_Decode<G2>)->Apply(Args);

}  // namespace
}  // namespace zkp::bellperson::test
