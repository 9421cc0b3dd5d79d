// bench_cuda_synth [--logs 20,24,26] [--reps 5]: the device's constraint evaluation
// (provers/cuda/synth) on synthetic systems of PoRep's proportions (synth_inputs.hpp): BN254 as a
// zkey's (a = A·w, b = B·w: evaluate_ab), BLS12-381 as a bellperson circuit's (A, B and C:
// evaluate_abc, then check_rows, a·b = c row by row: all a witness-only proof does before its H
// step). The median device time (CUDA events), entries per second and the system's device bytes.
// A benchmark, not a test (tests/cuda/device_synth_test.cpp checks the values).
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
#include "cuda/util/input_checks.hpp"
#include "synth_inputs.hpp"

namespace {

using namespace zkp;
using namespace zkp::cuda::synth;

template <class Fr>
void run(const char* curve, std::uint32_t log_rows, int reps, bool with_c) {
  const SparseSystem<Fr> s = cuda::synth::fixtures::synthetic_system<Fr>(log_rows, 0xbe7c, with_c);
  cuda::DeviceGuard guard(0);
  cudaStream_t stream = nullptr;
  cudaStreamCreate(&stream);
  {
    const DeviceSparseSystem<Fr> d(s, stream);
    const auto ints = cuda::synth::fixtures::random_witness<Fr>(s.n_vars, 7);  // standard form
    std::vector<Fr> w(ints.size());
    std::memcpy(static_cast<void*>(w.data()), ints.data(), ints.size() * sizeof(Fr));
    cuda::DeviceBuffer<Fr> dw(w.size()), da(s.domain_size), db(s.domain_size), dc(with_c ? s.domain_size : 1);
    cuda::DeviceBuffer<std::uint64_t> first_bad(cuda::RowCheckIndices::count);
    dw.upload(w, stream);
    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    std::vector<float> ms;
    for (int i = 0; i < reps + 1; ++i) {
      cudaEventRecord(t0, stream);
      if (with_c) {
        d.evaluate_abc(dw.data(), da.data(), db.data(), dc.data(), stream);
        // A random witness satisfies nothing: the check's every row fails, its worst case.
        cuda::check_rows(da.data(), db.data(), dc.data(), s.domain_size, first_bad.data(), stream);
      } else {
        d.evaluate_ab(dw.data(), da.data(), db.data(), stream);
      }
      cudaEventRecord(t1, stream);
      cudaEventSynchronize(t1);
      float m = 0;
      cudaEventElapsedTime(&m, t0, t1);
      if (i > 0) ms.push_back(m);  // the first is a warm-up
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    const double entries = static_cast<double>(s.a.entries() + s.b.entries() + s.c.entries());
    std::printf("%s 2^%u rows: %.0f M entries, %.1f MiB on the device; %s median %.3f ms (min %.3f, %d reps), %.2f G entries/s\n",
                curve, log_rows, entries / 1e6, static_cast<double>(d.device_bytes()) / 1048576.0,
                with_c ? "evaluate_abc + check_rows" : "evaluate_ab", median, ms.front(), reps,
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
    run<bls12_381::Fr>("BLS12-381", log, reps, true);
    run<bn254::Fr>("BN254", log, reps, false);
  }
  return 0;
}
