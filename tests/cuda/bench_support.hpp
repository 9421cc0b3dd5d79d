// What the device benchmarks (bench_cuda_msm, bench_cuda_msm_g2, bench_cuda_ntt) share: their
// command line, the chip's peak rates for the floors, medians and random scalars.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/util/device_guard.hpp"
#include "core/msm/msm.hpp"

namespace zkp::cuda::bench {

// IMAD per clock per SM on cc 9.0 (CUDA C Programming Guide, arithmetic throughput table).
inline constexpr double kImadPerSmPerClock = 64;

//   [--min-log N] [--max-log N] [--reps N] [--curve bn254|bls12_381|both] [--csv FILE] [--sweep]
// The caller's Args holds its defaults; --sweep only where `sweep_allowed`.
struct Args {
  unsigned min_log = 16, max_log = 22, reps = 3;
  std::string curve = "both";
  std::string csv;
  bool sweep = false;
};

// A bench's defaults.
inline Args defaults(unsigned min_log, unsigned max_log, unsigned reps) {
  Args a;
  a.min_log = min_log;
  a.max_log = max_log;
  a.reps = reps;
  return a;
}

inline Args parse_args(int argc, char** argv, Args a, bool sweep_allowed = false) {
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument("missing value for " + k);
      return argv[++i];
    };
    if (k == "--min-log") a.min_log = static_cast<unsigned>(std::stoul(value()));
    else if (k == "--max-log") a.max_log = static_cast<unsigned>(std::stoul(value()));
    else if (k == "--reps") a.reps = static_cast<unsigned>(std::stoul(value()));
    else if (k == "--curve") a.curve = value();
    else if (k == "--csv") a.csv = value();
    else if (k == "--sweep" && sweep_allowed) a.sweep = true;
    else throw std::invalid_argument("unknown argument " + k);
  }
  return a;
}

// The device's peak rates: integer multiply-adds and memory bandwidth.
struct Chip {
  std::string name;
  int sms = 0;
  double clock_hz = 0;
  double bytes_per_s = 0;
  double imad_per_s() const { return sms * kImadPerSmPerClock * clock_hz; }
};

inline Chip chip(int gpu) {
  DeviceGuard g(gpu);
  cudaDeviceProp p{};
  ZKP_CUDA_CHECK(cudaGetDeviceProperties(&p, gpu));
  int khz = 0, mem_khz = 0, bus_bits = 0;
  ZKP_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, gpu));
  ZKP_CUDA_CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, gpu));
  ZKP_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, gpu));
  // DDR: two transfers per memory clock.
  return {p.name, p.multiProcessorCount, khz * 1e3, 2.0 * mem_khz * 1e3 * bus_bits / 8};
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// n random full-width 256-bit MSM scalars.
inline std::vector<std::uint8_t> random_scalars(std::size_t n, std::mt19937_64& rng) {
  std::vector<std::uint8_t> s(n * zkp::msm::kScalarBytes);
  for (std::size_t i = 0; i < s.size(); i += 8) {
    const std::uint64_t r = rng();
    std::memcpy(s.data() + i, &r, 8);
  }
  return s;
}

}  // namespace zkp::cuda::bench
