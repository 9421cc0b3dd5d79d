// bench_cuda_ntt: the Groth16 H step on the GPU (cuda/ntt/h_step.hpp), both curves.
//
//   bench_cuda_ntt [--min-log 16] [--max-log 24] [--reps 5] [--curve bn254|bls12_381|both] [--csv FILE]
//
// Per size: the domain setup (host tables + upload), then the median of --reps of
//   h      the whole step: c = a∘b, three odd-coset transforms, H = a·b − c, standard form
//   coset  the three odd-coset transforms alone (one launch sequence)
// as CUDA events on the step's stream, inputs already on the GPU. The floor is the
// arithmetic an H step cannot avoid over the chip's IMAD rate: 3 transforms of 2 · n/2 ·
// log n butterfly products and 2n for the coset scaling, plus 3n pointwise (a∘b, a·b, standard form),
// at 4k² + k IMAD per product (k = 8 limbs of 32 bits), and the memory one: each tile
// pass reads and writes 3 arrays once. The result at the smallest size is checked against
// the CPU's h_evaluations.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "cuda/ntt/h_step.hpp"
#include "cuda/ntt/ntt_plan.hpp"
#include "cuda/util/buffers.hpp"
#include "cuda/util/device_guard.hpp"
#include "cuda/util/stream.hpp"
#include "core/groth16/h_polynomial.hpp"
#include "core/ntt/domain.hpp"
#include "core/util/thread_pool.hpp"

namespace zkp::cuda::bench {
namespace {

constexpr int kGpu = 0;
constexpr double kLimbs32 = 8;             // both curves' Fr

// Random elements below 2^(64·3 + 60) < r for both curves: fast, and valid field elements.
template <class Fr>
std::vector<Fr> quick_elements(std::size_t n, std::mt19937_64& rng) {
  std::vector<Fr> v(n);
  for (auto& x : v) {
    typename Fr::Int m;
    for (auto& l : m.limbs) l = rng();
    m.limbs[Fr::kLimbs - 1] &= (std::uint64_t{1} << 60) - 1;
    x = Fr::from_mont_unchecked(m);
  }
  return v;
}

struct Row {
  std::string curve;
  unsigned log_n;
  double setup_s, h_ms, coset_ms, arith_floor_ms, mem_floor_ms;
  bool checked;
};

template <class Fr>
void run_field(const std::string& name, const Args& args, const Chip& chip, std::vector<Row>& rows) {
  using Clock = std::chrono::steady_clock;
  DeviceGuard guard(kGpu);
  std::mt19937_64 rng(7);
  Stream stream;
  const cudaStream_t s = stream.get();
  const std::size_t max_n = std::size_t{1} << args.max_log;
  const auto host_a = quick_elements<Fr>(max_n, rng), host_b = quick_elements<Fr>(max_n, rng);
  DeviceBuffer<Fr> a(max_n), b(max_n), a0(max_n), b0(max_n);
  a0.upload(host_a, s);
  b0.upload(host_b, s);
  stream.synchronize();
  for (unsigned log_n = args.min_log; log_n <= args.max_log; log_n += 2) {
    const std::size_t n = std::size_t{1} << log_n;
    auto t0 = Clock::now();
    HStep<Fr> h(kGpu, log_n);
    const double setup = std::chrono::duration<double>(Clock::now() - t0).count();
    const auto reset = [&] {
      ZKP_CUDA_CHECK(cudaMemcpyAsync(a.data(), a0.data(), n * sizeof(Fr), cudaMemcpyDeviceToDevice, s));
      ZKP_CUDA_CHECK(cudaMemcpyAsync(b.data(), b0.data(), n * sizeof(Fr), cudaMemcpyDeviceToDevice, s));
    };
    reset();
    h.run(a.data(), b.data(), nullptr, n, s, HForm::standard);  // warm-up (and c scratch)
    bool checked = false;
    if (log_n == args.min_log) {
      ThreadPool pool(0);
      const NttDomain<Fr> d(log_n);
      const auto expected = groth16::h_evaluations<Fr>(std::span<const Fr>(host_a.data(), n),
                                                       std::span<const Fr>(host_b.data(), n), std::span<const Fr>{}, d, pool);
      std::vector<Fr> got(n);
      a.download(std::span<Fr>(got.data(), n), s);
      stream.synchronize();
      for (std::size_t i = 0; i < n; ++i)
        if (got[i].mont() != expected[i].to_bigint()) throw std::runtime_error(name + ": GPU H differs from the CPU at i = " + std::to_string(i));
      checked = true;
    }
    Event start, stop;
    std::vector<double> h_ms, coset_ms;
    for (unsigned r = 0; r < args.reps; ++r) {
      reset();
      start.record(s);
      h.run(a.data(), b.data(), nullptr, n, s, HForm::standard);
      stop.record(s);
      stop.synchronize();
      h_ms.push_back(stop.elapsed_ms_since(start));
      // Three distinct arrays (b0, the pristine b, becomes some other valid field data:
      // the values do not matter for the timing).
      Fr* arrays[3] = {a.data(), b.data(), b0.data()};
      start.record(s);
      h.odd_coset(arrays, 3, s);
      stop.record(s);
      stop.synchronize();
      coset_ms.push_back(stop.elapsed_ms_since(start));
    }
    const double imad = 4 * kLimbs32 * kLimbs32 + kLimbs32;
    const double products = 3.0 * (double(n) * log_n + 2.0 * n) + 3.0 * n;
    const double passes = 1 + 2.0 * static_cast<double>(ntt::make_coset_plan(log_n).high.size());
    const double bytes = (3 * passes * 2 + 7) * double(n) * sizeof(Fr);
    rows.push_back({name, log_n, setup, median(h_ms), median(coset_ms), products * imad / chip.imad_per_s() * 1e3,
                    bytes / chip.bytes_per_s * 1e3, checked});
    const Row& row = rows.back();
    std::printf("%-9s H 2^%-2u setup %6.2f s | h %8.3f ms  3×coset %8.3f ms | arith floor %7.3f ms (x%.2f)  mem floor %7.3f ms | %.0f Melem/s%s\n",
                name.c_str(), log_n, row.setup_s, row.h_ms, row.coset_ms, row.arith_floor_ms, row.h_ms / row.arith_floor_ms,
                row.mem_floor_ms, n / row.h_ms / 1e3, row.checked ? " (checked vs CPU)" : "");
    std::fflush(stdout);
  }
}

void write_csv(const std::string& path, const std::vector<Row>& rows) {
  std::ofstream out(path);
  out << "curve,log_n,setup_s,h_ms,coset3_ms,arith_floor_ms,mem_floor_ms,checked\n";
  for (const Row& r : rows)
    out << r.curve << ',' << r.log_n << ',' << r.setup_s << ',' << r.h_ms << ',' << r.coset_ms << ',' << r.arith_floor_ms
        << ',' << r.mem_floor_ms << ',' << (r.checked ? 1 : 0) << '\n';
}

}  // namespace
}  // namespace zkp::cuda::bench

int main(int argc, char** argv) {
  using namespace zkp::cuda::bench;
  try {
    const Args args = parse_args(argc, argv, defaults(16, 24, 5));
    const Chip c = chip(kGpu);
    std::printf("# %s: IMAD peak %.2f T/s, memory %.2f TB/s\n", c.name.c_str(), c.imad_per_s() / 1e12, c.bytes_per_s / 1e12);
    std::vector<Row> rows;
    if (args.curve == "both" || args.curve == "bn254") run_field<zkp::bn254::Fr>("bn254", args, c, rows);
    if (args.curve == "both" || args.curve == "bls12_381") run_field<zkp::bls12_381::Fr>("bls12_381", args, c, rows);
    if (!args.csv.empty()) write_csv(args.csv, rows);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_cuda_ntt: %s\n", e.what());
    return 1;
  }
  return 0;
}
