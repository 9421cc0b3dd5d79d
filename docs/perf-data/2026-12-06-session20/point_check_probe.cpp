// Session 20 probe: first_invalid_point at on_curve, one thread, per point, on 2^20 / 2^18 / 2^18 / 2^16
// points of BN254 G1 / G2, BLS12-381 G1 / G2 (1,024 distinct multiples of the generator, repeated).
// Built against the tree of each side: g++ -O3 -std=c++20 -march=x86-64-v3 -I provers point_check_probe.cpp
//   build/lib/libzkp_ff_ifma.a build/lib/libzkp_util.a -lpthread
#include <chrono>
#include <cstdio>
#include <vector>
#include "core/groth16/point_check.hpp"
using namespace zkp;
template <class C> void run(const char* name, std::size_t n, ThreadPool& pool) {
  constexpr std::size_t kB = kAffineBytes<C>;
  std::vector<std::uint8_t> s(n * kB);
  Jacobian<C> p = Jacobian<C>::generator();
  std::vector<Affine<C>> pts;
  for (std::size_t i = 0; i < 1024; ++i, p += Jacobian<C>::generator()) pts.push_back(p.to_affine());
  for (std::size_t i = 0; i < n; ++i) encode_affine_mont<C>(pts[i % 1024], std::span<std::uint8_t, kB>(s.data() + i * kB, kB));
  ByteView b(reinterpret_cast<const std::byte*>(s.data()), s.size());
  for (int r = 0; r < 3; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    auto res = groth16::first_invalid_point<C>(b, n, CoordEncoding::montgomery, PointCheck::on_curve, pool);
    auto t1 = std::chrono::steady_clock::now();
    std::printf("%s n=%zu %s %.1f ms (%.1f ns/pt/thread)\n", name, n, res ? "BAD" : "ok", std::chrono::duration<double, std::milli>(t1 - t0).count(), std::chrono::duration<double, std::nano>(t1 - t0).count() / n * pool.size());
  }
}
int main() {
  ThreadPool pool(1);
  run<bn254::G1>("bn254 G1", 1 << 20, pool);
  run<bn254::G2>("bn254 G2", 1 << 18, pool);
  run<bls12_381::G1>("bls G1", 1 << 18, pool);
  run<bls12_381::G2>("bls G2", 1 << 16, pool);
}
