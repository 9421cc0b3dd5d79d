// bench_cuda_synth [--logs 20,24,26] [--reps 5]: the device's constraint evaluation
// (DeviceSparseSystem::evaluate_ab, provers/cuda/synth) on synthetic systems of PoRep's
// proportions (A ~2.4, B ~1.0 entries a row, mostly small coefficients from a dictionary of 81,
// one row in 4096 of 300 entries), BLS12-381 and BN254: the median device time of a = A·w and
// b = B·w (CUDA events), entries per second and the system's device bytes. A benchmark, not a
// test (tests/cuda/device_synth_test.cpp checks the values).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "cuda/synth/evaluate.hpp"
#include "cuda/util/buffers.hpp"
#include "cuda/util/device_guard.hpp"

namespace {

using namespace zkp;
using namespace zkp::cuda::synth;

template <class Fr>
SparseSystem<Fr> synthetic(std::uint32_t log_rows) {
  std::mt19937_64 rng(0xbe7c + log_rows);
  SparseSystem<Fr> s;
  s.domain_size = 1u << log_rows;
  s.n_vars = s.domain_size;
  for (int i = 0; i < 16; ++i) s.dictionary.push_back(Fr::from_u64(static_cast<std::uint64_t>(i) + 1));
  s.dictionary.push_back(-Fr::one());
  for (int i = 0; i < 64; ++i) s.dictionary.push_back(Fr::random(rng));
  const auto fill = [&](SparseMatrix& m, std::uint32_t tenths) {
    m.row_start.assign(std::size_t{s.domain_size} + 1, 0);
    m.wire.reserve(std::size_t{s.domain_size} * (tenths / 10 + 1));
    m.coef.reserve(m.wire.capacity());
    for (std::uint32_t r = 0; r < s.domain_size; ++r) {
      std::uint32_t len = tenths / 10 + (rng() % 10 < tenths % 10 ? 1 : 0);
      if (rng() % 4096 == 0) len = 300;
      for (std::uint32_t k = 0; k < len; ++k) {
        m.wire.push_back(static_cast<std::uint32_t>(rng() % s.n_vars));
        m.coef.push_back(static_cast<std::uint32_t>(rng() % 8 == 0 ? rng() % s.dictionary.size() : rng() % 17));
      }
      m.row_start[r + 1] = static_cast<std::uint32_t>(m.wire.size());
    }
  };
  fill(s.a, 24);
  fill(s.b, 10);
  return s;
}

template <class Fr>
void run(const char* curve, std::uint32_t log_rows, int reps) {
  const SparseSystem<Fr> s = synthetic<Fr>(log_rows);
  cuda::DeviceGuard guard(0);
  cudaStream_t stream = nullptr;
  cudaStreamCreate(&stream);
  {
    const DeviceSparseSystem<Fr> d(s, stream);
    std::mt19937_64 rng(7);
    std::vector<Fr> w(s.n_vars);
    for (Fr& v : w) v = Fr::from_mont_unchecked(Fr::random(rng).to_bigint());  // standard-form bits
    cuda::DeviceBuffer<Fr> dw(w.size()), da(s.domain_size), db(s.domain_size);
    dw.upload(w, stream);
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    std::vector<float> ms;
    for (int i = 0; i < reps + 1; ++i) {
      cudaEventRecord(t0, stream);
      d.evaluate_ab(dw.data(), da.data(), db.data(), stream);
      cudaEventRecord(t1, stream);
      cudaEventSynchronize(t1);
      float m = 0;
      cudaEventElapsedTime(&m, t0, t1);
      if (i > 0) ms.push_back(m);  // the first is a warm-up
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    const double entries = static_cast<double>(s.a.entries() + s.b.entries());
    std::printf("%s 2^%u rows: %.0f M entries, %.1f MiB on the device; evaluate_ab median %.3f ms (min %.3f, %d reps), %.2f G entries/s\n",
                curve, log_rows, entries / 1e6, static_cast<double>(d.device_bytes()) / 1048576.0, median, ms.front(), reps,
                entries / (median * 1e-3) / 1e9);
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
  }
  cudaStreamDestroy(stream);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::uint32_t> logs = {20, 24, 26};
  int reps = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--reps") reps = std::max(1, std::atoi(argv[i + 1]));
    if (flag == "--logs") {
      logs.clear();
      std::stringstream list(argv[i + 1]);
      for (std::string item; std::getline(list, item, ',');) logs.push_back(static_cast<std::uint32_t>(std::stoul(item)));
    }
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    std::printf("bench_cuda_synth: no CUDA device\n");
    return 1;
  }
  std::printf("device: %s\n", prop.name);
  for (const std::uint32_t log : logs) {
    run<bls12_381::Fr>("BLS12-381", log, reps);
    run<bn254::Fr>("BN254", log, reps);
  }
  return 0;
}
