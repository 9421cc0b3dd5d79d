// bench_cuda_msm: G1 MSM on the GPU with the bases resident, against sppark's published
// numbers on the same H200, and against the arithmetic floor.
//
//   bench_cuda_msm [--min-log 16] [--max-log 24] [--reps 5] [--curve bn254|bls12_381|both] [--csv FILE] [--sweep]
//
// For each curve, bases are made on the GPU (k_i·G, device_points.cu), scalars are random
// full-width 256-bit values. Times are CUDA events on the MSM's stream, median of --reps
// after one warm-up: "dev" with the scalars already on the GPU, "host" including their
// upload from pinned memory. Every configuration's result is checked against the first
// configuration at that size, and at 2^16 against the CPU MSM.
//
// The floor: the multiply-adds an MSM cannot avoid over the chip's IMAD rate. Mixed
// additions n·W·(8M + 2S) plus ≈ 3.4 full additions (12M + 2S) per bucket, each product
// 4k² + k IMAD for k 32-bit limbs (cuda/ff/fp.cuh), over 64 IMAD per clock per SM.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
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
#include "throughput.hpp"
#include "core/msm/msm.hpp"

namespace zkp::cuda::bench {
namespace {

constexpr int kGpu = 0;
constexpr unsigned kScalarSets = 2;        // alternate scalar sets between repetitions

// sppark on this H200, bases resident (the lead's measurement), ms by log2 n.
const std::map<std::string, std::map<unsigned, double>> kSppark = {
    {"bls12_381", {{20, 21.8}, {22, 54.4}, {24, 155.0}}},
    {"bn254", {{20, 12.7}, {22, 27.5}, {24, 79.2}}},
};

template <CurveParams C>
double floor_ms(const msm::Plan& plan, std::size_t n, const Chip& chip) {
  constexpr double k = 2.0 * C::Field::kLimbs;  // 32-bit limbs
  const double imad_per_product = 4 * k * k + k;
  const double products = double(n) * plan.windows * 10 + double(plan.buckets()) * 3.4 * 14;
  return products * imad_per_product / chip.imad_per_s() * 1e3;
}

struct Row {
  std::string curve;
  unsigned log_n;
  msm::Plan plan;
  double setup_s, dev_ms, host_ms, floor;
  msm::PhaseTimes phases;
  bool checked;
};

template <CurveParams C>
void run_curve(const std::string& name, const Args& args, const Chip& chip, std::vector<Row>& rows) {
  using Clock = std::chrono::steady_clock;
  const std::size_t max_n = std::size_t{1} << args.max_log;
  {
    constexpr double k = 2.0 * C::Field::kLimbs;
    const double imad_per_product = 4 * k * k + k;
    const test::Throughput t = test::measure_throughput<C>(kGpu);
    std::printf("# %s arithmetic alone: %.3g Fq products/s (%.0f%% of IMAD peak), %.3g madds/s (%.0f%% at 10 products each)\n",
                name.c_str(), t.products_per_s, 100 * t.products_per_s * imad_per_product / chip.imad_per_s(),
                t.madds_per_s, 100 * t.madds_per_s * 10 * imad_per_product / chip.imad_per_s());
    if (t.f64_products_per_s > 0) {
      std::printf("# %s FP64-pipe product (cuda/ff/fp_f64.cuh): %.3g Fq products/s alone (%.2fx IMAD's), "
                  "%.3g with two chains of each kind per thread (%.2fx IMAD's)\n",
                  name.c_str(), t.f64_products_per_s, t.f64_products_per_s / t.products_per_s,
                  t.mixed_products_per_s, t.mixed_products_per_s / t.products_per_s);
    }
  }
  auto t0 = Clock::now();
  const auto bases = test::device_random_bases<C>(kGpu, max_n, 0x5eed0000u + args.max_log);
  std::printf("# %s: %zu bases made on the GPU in %.1f s\n", name.c_str(), max_n,
              std::chrono::duration<double>(Clock::now() - t0).count());
  std::fflush(stdout);

  DeviceGuard guard(kGpu);
  std::mt19937_64 rng(42);
  std::vector<PinnedBuffer<std::uint8_t>> host_scalars;
  std::vector<DeviceBuffer<std::uint8_t>> dev_scalars;
  Stream copy;
  for (unsigned s = 0; s < kScalarSets; ++s) {
    const auto v = random_scalars(max_n, rng);
    host_scalars.emplace_back(v.size());
    std::memcpy(host_scalars.back().data(), v.data(), v.size());
    dev_scalars.emplace_back(v.size());
    dev_scalars.back().upload(std::span<const std::uint8_t>(v), copy.get());
  }
  copy.synchronize();

  std::vector<unsigned> logs;
  for (unsigned l : {16u, 20u, 22u, 24u})
    if (l >= args.min_log && l <= args.max_log) logs.push_back(l);
  for (unsigned log_n : logs) {
    const std::size_t n = std::size_t{1} << log_n;
    const std::span<const zkp::msm::Base<C>> b(bases.data(), n);
    std::vector<msm::Config> configs = {{0, 1}, {0, 0}};
    if (args.sweep && log_n == args.max_log) {
      for (unsigned c : {16u, 18u}) configs.push_back({c, 1});
      for (unsigned c : {20u, 21u, 23u}) configs.push_back({c, 0});
    }
    std::vector<zkp::Affine<C>> reference(kScalarSets);
    bool have_reference = false;
    for (const msm::Config& config : configs) {
      t0 = Clock::now();
      Msm<C> engine(kGpu, b, config);
      const double setup = std::chrono::duration<double>(Clock::now() - t0).count();
      Event start, stop;
      std::vector<zkp::Affine<C>> results(kScalarSets);
      for (unsigned s = 0; s < kScalarSets; ++s) results[s] = engine.run_device(dev_scalars[s].data(), n);  // warm-up
      std::vector<double> dev, host;
      msm::PhaseTimes phases;
      for (unsigned r = 0; r < args.reps; ++r) {
        const unsigned s = r % kScalarSets;
        start.record(engine.stream());
        const auto res = engine.run_device(dev_scalars[s].data(), n);
        stop.record(engine.stream());
        stop.synchronize();
        dev.push_back(stop.elapsed_ms_since(start));
        phases = engine.last_phase_times();
        if (!(res == results[s])) throw std::runtime_error("result changed between runs: a race");
        start.record(engine.stream());
        const auto res2 = engine.run(std::span<const std::uint8_t>(host_scalars[s].data(), n * zkp::msm::kScalarBytes));
        stop.record(engine.stream());
        stop.synchronize();
        host.push_back(stop.elapsed_ms_since(start));
        if (!(res2 == results[s])) throw std::runtime_error("host-scalar run differs from device-scalar run");
      }
      bool checked = false;
      if (!have_reference) {
        reference = results;
        have_reference = true;
        if (log_n == 16) {
          for (unsigned s = 0; s < kScalarSets; ++s) {
            const auto cpu = zkp::msm::msm<C>(b, std::span<const std::uint8_t>(host_scalars[s].data(), n * 32),
                                              zkp::msm::Options{std::max(1u, std::thread::hardware_concurrency()), 0});
            if (!(cpu == results[s])) throw std::runtime_error(name + ": GPU MSM differs from the CPU MSM at 2^16");
          }
          checked = true;
        }
      } else {
        for (unsigned s = 0; s < kScalarSets; ++s)
          if (!(results[s] == reference[s])) throw std::runtime_error(name + ": configurations disagree at 2^" + std::to_string(log_n));
        checked = true;
      }
      rows.push_back({name, log_n, engine.plan(), setup, median(dev), median(host), floor_ms<C>(engine.plan(), n, chip), phases, checked});
      const Row& row = rows.back();
      const auto sp = kSppark.at(name).find(log_n);
      char sppark[32] = "   -    ";
      if (sp != kSppark.at(name).end()) std::snprintf(sppark, sizeof sppark, "%6.1f ms", sp->second);
      std::printf("%-9s 2^%-2u c=%-2u W=%-2u F=%-2u G=%-2u setup %6.2f s | dev %8.2f ms  host %8.2f ms | floor %7.2f ms (x%.2f)"
                  " | sppark %s | digits %.2f sort %.2f acc %.2f pieces %.2f reduce %.2f%s\n",
                  name.c_str(), log_n, row.plan.c, row.plan.windows, row.plan.copies, row.plan.groups, row.setup_s,
                  row.dev_ms, row.host_ms, row.floor, row.dev_ms / row.floor,
                  sppark,
                  phases.digits_ms, phases.sort_ms, phases.accumulate_ms, phases.pieces_ms, phases.reduce_ms,
                  row.checked ? "" : " (unchecked)");
      std::fflush(stdout);
    }
  }
}

void write_csv(const std::string& path, const std::vector<Row>& rows) {
  std::ofstream out(path);
  out << "curve,log_n,c,windows,copies,groups,setup_s,dev_ms,host_ms,floor_ms,digits_ms,sort_ms,accumulate_ms,pieces_ms,reduce_ms,checked\n";
  for (const Row& r : rows)
    out << r.curve << ',' << r.log_n << ',' << r.plan.c << ',' << r.plan.windows << ',' << r.plan.copies << ','
        << r.plan.groups << ',' << r.setup_s << ',' << r.dev_ms << ',' << r.host_ms << ',' << r.floor << ','
        << r.phases.digits_ms << ',' << r.phases.sort_ms << ',' << r.phases.accumulate_ms << ',' << r.phases.pieces_ms
        << ',' << r.phases.reduce_ms << ',' << (r.checked ? 1 : 0) << '\n';
}

}  // namespace
}  // namespace zkp::cuda::bench

int main(int argc, char** argv) {
  using namespace zkp::cuda::bench;
  try {
    const Args args = parse_args(argc, argv, defaults(16, 24, 5), /*sweep_allowed=*/true);
    const Chip c = chip(kGpu);
    std::printf("# %s, %d SMs, %.0f MHz: IMAD peak %.2f T/s\n", c.name.c_str(), c.sms, c.clock_hz / 1e6, c.imad_per_s() / 1e12);
    std::vector<Row> rows;
    if (args.curve == "both" || args.curve == "bn254") run_curve<zkp::bn254::G1>("bn254", args, c, rows);
    if (args.curve == "both" || args.curve == "bls12_381") run_curve<zkp::bls12_381::G1>("bls12_381", args, c, rows);
    if (!args.csv.empty()) write_csv(args.csv, rows);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_cuda_msm: %s\n", e.what());
    return 1;
  }
  return 0;
}
