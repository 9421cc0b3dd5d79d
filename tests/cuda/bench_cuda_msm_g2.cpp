// bench_cuda_msm_g2: G2 MSM on the GPU with the bases resident, both curves.
//
//   bench_cuda_msm_g2 [--min-log 16] [--max-log 22] [--reps 3] [--curve bn254|bls12_381|both] [--csv FILE]
//
// Bases are k_i·G2 made on the GPU (device_points_g2.cu), scalars random full-width. Per
// size and plan (F = 1 and F = W, c from the cost model): setup, then the median of --reps
// device-scalar runs (CUDA events) with the per-stage split. At the smallest size the
// result is checked against the CPU's G2 MSM, elsewhere the two plans against each other.
// At the largest size it also times two MSMs in flight at once through enqueue_device /
// finish against the same two one after the other (what the prover's overlap gains).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuda/msm/msm.hpp"
#include "cuda/util/buffers.hpp"
#include "cuda/util/device_guard.hpp"
#include "cuda/util/stream.hpp"
#include "bench_support.hpp"
#include "device_points.hpp"
#include "core/msm/msm.hpp"

namespace zkp::cuda::bench {
namespace {

constexpr int kGpu = 0;

struct Row {
  std::string curve;
  unsigned log_n;
  msm::Plan plan;
  double setup_s, dev_ms;
  msm::PhaseTimes phases;
  bool checked;
};

template <CurveParams C>
void run_curve(const std::string& name, const Args& args, std::vector<Row>& rows) {
  using Clock = std::chrono::steady_clock;
  const std::size_t max_n = std::size_t{1} << args.max_log;
  auto t0 = Clock::now();
  const auto bases = test::device_random_bases<C>(kGpu, max_n, 0x62000000u + args.max_log);
  std::printf("# %s G2: %zu bases made on the GPU in %.1f s\n", name.c_str(), max_n,
              std::chrono::duration<double>(Clock::now() - t0).count());
  std::fflush(stdout);

  DeviceGuard guard(kGpu);
  std::mt19937_64 rng(42);
  const auto host_scalars = random_scalars(max_n, rng);
  Stream copy;
  DeviceBuffer<std::uint8_t> scalars(host_scalars.size());
  scalars.upload(std::span<const std::uint8_t>(host_scalars), copy.get());
  copy.synchronize();

  for (unsigned log_n = args.min_log; log_n <= args.max_log; log_n += 2) {
    const std::size_t n = std::size_t{1} << log_n;
    const std::span<const zkp::msm::Base<C>> b(bases.data(), n);
    zkp::Affine<C> reference;
    bool have_reference = false;
    std::vector<Msm<C>> engines;
    std::vector<double> single_ms;
    for (const msm::Config& config : {msm::Config{0, 1}, msm::Config{0, 0}}) {
      t0 = Clock::now();
      Msm<C> engine(kGpu, b, config);
      const double setup = std::chrono::duration<double>(Clock::now() - t0).count();
      const zkp::Affine<C> result = engine.run_device(scalars.data(), n);  // warm-up
      Event start, stop;
      std::vector<double> dev;
      for (unsigned r = 0; r < args.reps; ++r) {
        start.record(engine.stream());
        const auto res = engine.run_device(scalars.data(), n);
        stop.record(engine.stream());
        stop.synchronize();
        dev.push_back(stop.elapsed_ms_since(start));
        if (!(res == result)) throw std::runtime_error("result changed between runs: a race");
      }
      bool checked = false;
      if (!have_reference) {
        reference = result;
        have_reference = true;
        if (log_n == args.min_log) {
          const auto cpu = zkp::msm::msm<C>(b, std::span<const std::uint8_t>(host_scalars.data(), n * zkp::msm::kScalarBytes),
                                            zkp::msm::Options{std::max(1u, std::thread::hardware_concurrency()), 0});
          if (!(cpu == result)) throw std::runtime_error(name + ": GPU G2 MSM differs from the CPU at 2^" + std::to_string(log_n));
          checked = true;
        }
      } else {
        if (!(result == reference)) throw std::runtime_error(name + ": G2 plans disagree at 2^" + std::to_string(log_n));
        checked = true;
      }
      const msm::PhaseTimes phases = engine.last_phase_times();
      rows.push_back({name, log_n, engine.plan(), setup, median(dev), phases, checked});
      single_ms.push_back(median(dev));
      const Row& row = rows.back();
      std::printf("%-9s G2 2^%-2u c=%-2u W=%-2u F=%-2u G=%-2u setup %6.2f s | dev %9.2f ms | digits %.2f sort %.2f acc %.2f pieces %.2f reduce %.2f%s\n",
                  name.c_str(), log_n, row.plan.c, row.plan.windows, row.plan.copies, row.plan.groups, row.setup_s, row.dev_ms,
                  phases.digits_ms, phases.sort_ms, phases.accumulate_ms, phases.pieces_ms, phases.reduce_ms,
                  row.checked ? "" : " (unchecked)");
      std::fflush(stdout);
      engines.push_back(std::move(engine));
    }
    if (log_n == args.max_log) {
      // Both plans' engines in flight at once, behind one producer stream.
      Stream producer;
      std::vector<double> both;
      for (unsigned r = 0; r < args.reps; ++r) {
        const auto start = Clock::now();
        for (auto& e : engines) e.enqueue_device(scalars.data(), n, producer.get());
        for (auto& e : engines)
          if (!(e.finish() == reference)) throw std::runtime_error(name + ": overlapped G2 MSM differs");
        both.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
      }
      std::printf("%-9s G2 2^%-2u two MSMs overlapped (F=1 and F=W): %.2f ms wall vs %.2f ms one after the other\n",
                  name.c_str(), log_n, median(both), single_ms[0] + single_ms[1]);
      std::fflush(stdout);
    }
  }
}

void write_csv(const std::string& path, const std::vector<Row>& rows) {
  std::ofstream out(path);
  out << "curve,log_n,c,windows,copies,groups,setup_s,dev_ms,digits_ms,sort_ms,accumulate_ms,pieces_ms,reduce_ms,checked\n";
  for (const Row& r : rows)
    out << r.curve << ',' << r.log_n << ',' << r.plan.c << ',' << r.plan.windows << ',' << r.plan.copies << ','
        << r.plan.groups << ',' << r.setup_s << ',' << r.dev_ms << ',' << r.phases.digits_ms << ',' << r.phases.sort_ms
        << ',' << r.phases.accumulate_ms << ',' << r.phases.pieces_ms << ',' << r.phases.reduce_ms << ','
        << (r.checked ? 1 : 0) << '\n';
}

}  // namespace
}  // namespace zkp::cuda::bench

int main(int argc, char** argv) {
  using namespace zkp::cuda::bench;
  try {
    const Args args = parse_args(argc, argv, defaults(16, 22, 3));
    std::vector<Row> rows;
    if (args.curve == "both" || args.curve == "bn254") run_curve<zkp::bn254::G2>("bn254", args, rows);
    if (args.curve == "both" || args.curve == "bls12_381") run_curve<zkp::bls12_381::G2>("bls12_381", args, rows);
    if (!args.csv.empty()) write_csv(args.csv, rows);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_cuda_msm_g2: %s\n", e.what());
    return 1;
  }
  return 0;
}
