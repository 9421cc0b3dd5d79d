// ns per field multiplication, squaring, inversion and per point addition, for both curves,
// to aim the MSM and NTT work. Run: bench_ff --benchmark_min_time=0.5
//
// Each loop feeds the result back into the next operation (a dependency chain), so the
// numbers are latencies, which is what a bucket accumulation or a butterfly sees.
// On shared or virtual machines use repetitions and read the "min" aggregate:
//   bench_ff --benchmark_repetitions=9 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/ec/curves_bls12_381.hpp"
#include "core/ec/curves_bn254.hpp"
#include "core/ec/scalar_mul.hpp"
#include "mont_baseline.hpp"

#if defined(ZKPIPE_MONT_ADX_DISPATCH)
#include "core/ff/cpu_features.hpp"
#include "core/ff/mont_ifma.hpp"
#endif

namespace zkp {
namespace {

template <class F>
void BM_mul(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F a = F::random(rng);
  const F b = F::random(rng);
  for (auto _ : state) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}

// Eight independent products per iteration (reported per product): the throughput an
// NTT butterfly layer or interleaved buckets can reach.
template <class F>
void BM_mul_throughput(benchmark::State& state) {
  constexpr int kLanes = 8;
  std::mt19937_64 rng(1);
  F a[kLanes];
  for (auto& x : a) x = F::random(rng);
  const F b = F::random(rng);
  for (auto _ : state) {
    for (auto& x : a) x = x * b;
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * kLanes);
}

template <class F>
void BM_square(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F a = F::random(rng);
  for (auto _ : state) {
    a = a.square();
    benchmark::DoNotOptimize(a);
  }
}

template <class F>
void BM_add(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F a = F::random(rng);
  const F b = F::random(rng);
  for (auto _ : state) {
    a = a + b;
    benchmark::DoNotOptimize(a);
  }
}

// The same dependency chains on the pre-rewrite kernels (mont_baseline.hpp), so that one
// run of this binary gives old and new side by side under the same machine load.
template <class F>
void BM_mul_baseline(benchmark::State& state) {
  std::mt19937_64 rng(1);
  auto a = F::random(rng).mont();
  const auto b = F::random(rng).mont();
  for (auto _ : state) {
    a = test::mont_baseline::mul<F::kLimbs, F::kModulus, F::kInv>(a, b);
    benchmark::DoNotOptimize(a);
  }
}

template <class F>
void BM_mul_throughput_baseline(benchmark::State& state) {
  constexpr int kLanes = 8;
  std::mt19937_64 rng(1);
  typename F::Int a[kLanes];
  for (auto& x : a) x = F::random(rng).mont();
  const auto b = F::random(rng).mont();
  for (auto _ : state) {
    for (auto& x : a) x = test::mont_baseline::mul<F::kLimbs, F::kModulus, F::kInv>(x, b);
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * kLanes);
}

template <class F>
void BM_square_baseline(benchmark::State& state) {
  std::mt19937_64 rng(1);
  auto a = F::random(rng).mont();
  for (auto _ : state) {
    a = test::mont_baseline::sqr<F::kLimbs, F::kModulus, F::kInv>(a);
    benchmark::DoNotOptimize(a);
  }
}

template <class F>
void BM_add_baseline(benchmark::State& state) {
  std::mt19937_64 rng(1);
  auto a = F::random(rng).mont();
  const auto b = F::random(rng).mont();
  for (auto _ : state) {
    a = test::mont_baseline::add<F::kLimbs, F::kModulus>(a, b);
    benchmark::DoNotOptimize(a);
  }
}

template <class F>
void BM_sub(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F a = F::random(rng);
  const F b = F::random(rng);
  for (auto _ : state) {
    a = b - a;  // b − a, not a − b: the chain must not settle into a fixed point
    benchmark::DoNotOptimize(a);
  }
}

template <class F>
void BM_sub_baseline(benchmark::State& state) {
  std::mt19937_64 rng(1);
  auto a = F::random(rng).mont();
  const auto b = F::random(rng).mont();
  for (auto _ : state) {
    a = test::mont_baseline::sub<F::kLimbs, F::kModulus>(b, a);
    benchmark::DoNotOptimize(a);
  }
}

template <class F>
void BM_inverse(benchmark::State& state) {
  std::mt19937_64 rng(1);
  F a = F::random(rng);
  for (auto _ : state) {
    a = a.inverse() + F::one();
    benchmark::DoNotOptimize(a);
  }
}

// Bucket accumulation: acc += P for a fixed affine P.
template <class C>
void BM_xyzz_madd(benchmark::State& state) {
  std::mt19937_64 rng(1);
  const auto p = (Jacobian<C>::generator() * C::Scalar::random(rng)).to_affine();
  auto acc = Xyzz<C>::from_jacobian(Jacobian<C>::generator() * C::Scalar::random(rng));
  for (auto _ : state) {
    acc = acc.add_mixed(p);
    benchmark::DoNotOptimize(acc);
  }
}

template <class C>
void BM_xyzz_add(benchmark::State& state) {
  std::mt19937_64 rng(1);
  const auto p = Xyzz<C>::from_jacobian(Jacobian<C>::generator() * C::Scalar::random(rng));
  auto acc = Xyzz<C>::from_jacobian(Jacobian<C>::generator() * C::Scalar::random(rng));
  for (auto _ : state) {
    acc = acc + p;
    benchmark::DoNotOptimize(acc);
  }
}

template <class C>
void BM_xyzz_dbl(benchmark::State& state) {
  std::mt19937_64 rng(1);
  auto acc = Xyzz<C>::from_jacobian(Jacobian<C>::generator() * C::Scalar::random(rng));
  for (auto _ : state) {
    acc = acc.dbl();
    benchmark::DoNotOptimize(acc);
  }
}

template <class C>
void BM_jacobian_madd(benchmark::State& state) {
  std::mt19937_64 rng(1);
  const auto p = (Jacobian<C>::generator() * C::Scalar::random(rng)).to_affine();
  auto acc = Jacobian<C>::generator() * C::Scalar::random(rng);
  for (auto _ : state) {
    acc = acc.add_mixed(p);
    benchmark::DoNotOptimize(acc);
  }
}

template <class C>
void BM_jacobian_add(benchmark::State& state) {
  std::mt19937_64 rng(1);
  const auto p = Jacobian<C>::generator() * C::Scalar::random(rng);
  auto acc = Jacobian<C>::generator() * C::Scalar::random(rng);
  for (auto _ : state) {
    acc = acc + p;
    benchmark::DoNotOptimize(acc);
  }
}

template <class C>
void BM_jacobian_dbl(benchmark::State& state) {
  std::mt19937_64 rng(1);
  auto acc = Jacobian<C>::generator() * C::Scalar::random(rng);
  for (auto _ : state) {
    acc = acc.dbl();
    benchmark::DoNotOptimize(acc);
  }
}

template <class C>
void BM_scalar_mul(benchmark::State& state) {
  std::mt19937_64 rng(1);
  auto p = Jacobian<C>::generator();
  const auto k = C::Scalar::random(rng);
  for (auto _ : state) {
    p = p * k;
    benchmark::DoNotOptimize(p);
  }
}

template <class C>
void BM_subgroup_check(benchmark::State& state) {
  std::mt19937_64 rng(1);
  const auto p = (Jacobian<C>::generator() * C::Scalar::random(rng)).to_affine();
  for (auto _ : state) benchmark::DoNotOptimize(in_prime_subgroup(p));
}

#if defined(ZKPIPE_MONT_ADX_DISPATCH)
// BN254 Fq products per second by kernel (issue 18): the portable and MULX/ADX scalar
// kernels against eight-lane AVX-512 IFMA. "array": out[i] = a[i]·b[i] over 1024 independent
// pairs (L1-resident), the throughput a batch of independent additions can reach. "chain8":
// eight independent dependency chains x = x·k, one IFMA call per step, what eight
// interleaved prefix-product chains of a batch inversion would see.
enum class Kernel { portable, adx, ifma };

bool kernel_available(Kernel k) {
  const auto cpu = mont::detect_cpu_kernels();
  return k == Kernel::portable || (k == Kernel::adx && cpu.adx) || (k == Kernel::ifma && cpu.ifma);
}

using bn254::Fq;
constexpr std::size_t kN = Fq::kLimbs;

template <Kernel K>
void BM_bn254_fq_products_array(benchmark::State& state) {
  if (!kernel_available(K)) {
    state.SkipWithError("kernel not supported by this CPU");
    return;
  }
  constexpr std::size_t n = 1024;
  std::mt19937_64 rng(1);
  std::vector<Fq> a(n), b(n), r(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = Fq::random(rng);
    b[i] = Fq::random(rng);
  }
  for (auto _ : state) {
    if constexpr (K == Kernel::ifma) {
      for (std::size_t i = 0; i < n; i += 8) mont::ifma::mul8_bn254_fq_ifma(&r[i], &a[i], &b[i]);
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        if constexpr (K == Kernel::adx)
          r[i] = Fq::from_mont_unchecked(mont::mul_adx<kN, Fq::kModulus, Fq::kInv>(a[i].mont(), b[i].mont()));
        else
          r[i] = Fq::from_mont_unchecked(mont::mul_portable<kN, Fq::kModulus, Fq::kInv>(a[i].mont(), b[i].mont()));
      }
    }
    benchmark::DoNotOptimize(r.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
}

template <Kernel K>
void BM_bn254_fq_products_chain8(benchmark::State& state) {
  if (!kernel_available(K)) {
    state.SkipWithError("kernel not supported by this CPU");
    return;
  }
  std::mt19937_64 rng(1);
  alignas(64) Fq x[8], k[8];
  for (std::size_t i = 0; i < 8; ++i) {
    x[i] = Fq::random(rng);
    k[i] = Fq::random(rng);
  }
  for (auto _ : state) {
    if constexpr (K == Kernel::ifma) {
      mont::ifma::mul8_bn254_fq_ifma(x, x, k);
    } else {
      for (std::size_t i = 0; i < 8; ++i) {
        if constexpr (K == Kernel::adx)
          x[i] = Fq::from_mont_unchecked(mont::mul_adx<kN, Fq::kModulus, Fq::kInv>(x[i].mont(), k[i].mont()));
        else
          x[i] = Fq::from_mont_unchecked(mont::mul_portable<kN, Fq::kModulus, Fq::kInv>(x[i].mont(), k[i].mont()));
      }
    }
    benchmark::DoNotOptimize(x);
  }
  state.SetItemsProcessed(state.iterations() * 8);
}
#endif

// Noise on a shared machine only ever adds time, so the minimum over repetitions is the
// most stable estimate.
double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }
#define ZKP_BENCH(fn, T) BENCHMARK_TEMPLATE(fn, T)->ComputeStatistics("min", min_of)

#define ZKP_FIELD_BENCHES(F)                \
  ZKP_BENCH(BM_mul, F);                     \
  ZKP_BENCH(BM_mul_baseline, F);            \
  ZKP_BENCH(BM_mul_throughput, F);          \
  ZKP_BENCH(BM_mul_throughput_baseline, F); \
  ZKP_BENCH(BM_square, F);                  \
  ZKP_BENCH(BM_square_baseline, F);         \
  ZKP_BENCH(BM_add, F);                     \
  ZKP_BENCH(BM_add_baseline, F);            \
  ZKP_BENCH(BM_sub, F);                     \
  ZKP_BENCH(BM_sub_baseline, F);            \
  ZKP_BENCH(BM_inverse, F)

ZKP_FIELD_BENCHES(bn254::Fq);
ZKP_FIELD_BENCHES(bn254::Fr);
ZKP_FIELD_BENCHES(bls12_381::Fq);
ZKP_FIELD_BENCHES(bls12_381::Fr);
ZKP_BENCH(BM_mul, bn254::Fq2);
ZKP_BENCH(BM_square, bn254::Fq2);
ZKP_BENCH(BM_mul, bls12_381::Fq2);
ZKP_BENCH(BM_square, bls12_381::Fq2);

#if defined(ZKPIPE_MONT_ADX_DISPATCH)
ZKP_BENCH(BM_bn254_fq_products_array, Kernel::portable);
ZKP_BENCH(BM_bn254_fq_products_array, Kernel::adx);
ZKP_BENCH(BM_bn254_fq_products_array, Kernel::ifma);
ZKP_BENCH(BM_bn254_fq_products_chain8, Kernel::portable);
ZKP_BENCH(BM_bn254_fq_products_chain8, Kernel::adx);
ZKP_BENCH(BM_bn254_fq_products_chain8, Kernel::ifma);
#endif

#define ZKP_CURVE_BENCHES(C)      \
  ZKP_BENCH(BM_xyzz_madd, C);      \
  ZKP_BENCH(BM_xyzz_add, C);       \
  ZKP_BENCH(BM_xyzz_dbl, C);       \
  ZKP_BENCH(BM_jacobian_madd, C);  \
  ZKP_BENCH(BM_jacobian_add, C);   \
  ZKP_BENCH(BM_jacobian_dbl, C);   \
  ZKP_BENCH(BM_scalar_mul, C);     \
  ZKP_BENCH(BM_subgroup_check, C)

ZKP_CURVE_BENCHES(bn254::G1);
ZKP_CURVE_BENCHES(bn254::G2);
ZKP_CURVE_BENCHES(bls12_381::G1);
ZKP_CURVE_BENCHES(bls12_381::G2);

}  // namespace
}  // namespace zkp
