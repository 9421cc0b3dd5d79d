// A synthetic snarkjs-layout zkey and witness of any power-of-two size, built in memory in
// O(n), so that the prover can be timed at 2^16–2^20 anywhere without big files or a ceremony.
//
// The circuit has the shape of the squaring chain (one A and one B entry per constraint, the
// public-input rows snarkjs appends) and every point is a distinct multiple of its group's
// generator, so key loading, synthesis, H and every MSM do the same work as on a real key.
// The proofs do not verify (the points are not a setup's): timing only.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <thread>
#include <vector>

#include "core/ec/batch_normalize.hpp"
#include "core/ec/encoding.hpp"
#include "core/ec/scalar_mul.hpp"
#include "core/formats/bytes.hpp"
#include "core/pairing/verify.hpp"

namespace zkp::test {

class ZkeyWriter {
 public:
  void u32(std::uint32_t v) { put(&v, 4); }
  void u64(std::uint64_t v) { put(&v, 8); }
  void put(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    bytes_.insert(bytes_.end(), b, b + n);
  }
  // Starts a section; returns where its length goes.
  std::size_t begin(std::uint32_t id) {
    u32(id);
    u64(0);
    return bytes_.size();
  }
  void end(std::size_t start) {
    const std::uint64_t len = bytes_.size() - start;
    std::memcpy(bytes_.data() + start - 8, &len, 8);
  }
  std::vector<std::byte>& bytes() { return bytes_; }

 private:
  std::vector<std::byte> bytes_;
};

// count distinct points G, 2G, 3G, ... in the zkey's Montgomery encoding, written on every
// hardware thread: each thread starts its run at [first + 1]G (one scalar multiplication) and
// walks it by mixed additions. One thread took ~180 s for a 2^24 BLS12-381 key on the device
// machine, which benchmark calls there pay for out of their device time.
template <CurveParams C>
void put_points(ZkeyWriter& w, std::size_t count) {
  static constexpr std::size_t kBatch = 4096;
  static constexpr std::size_t kBytes = kAffineBytes<C>;
  const std::size_t at = w.bytes().size();
  w.bytes().resize(at + count * kBytes);
  std::byte* out = w.bytes().data() + at;
  const auto run = [out](std::size_t first, std::size_t end) {
    const Affine<C> g = Affine<C>::generator();
    Jacobian<C> p = scalar_mul(Jacobian<C>::generator(), BigInt<1>::from_u64(first + 1));
    std::vector<Jacobian<C>> jac;
    std::vector<Affine<C>> aff;
    std::array<std::uint8_t, kBytes> buf;
    for (std::size_t done = first; done < end;) {
      const std::size_t n = std::min(kBatch, end - done);
      jac.resize(n);
      aff.resize(n);
      for (auto& j : jac) j = p, p = p.add_mixed(g);
      batch_to_affine<C>(jac, aff);
      for (std::size_t i = 0; i < n; ++i) {
        encode_affine_mont<C>(aff[i], buf);
        std::memcpy(out + (done + i) * kBytes, buf.data(), kBytes);
      }
      done += n;
    }
  };
  const std::size_t threads = std::clamp<std::size_t>(count / (4 * kBatch), 1, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(run, count * t / threads, count * (t + 1) / threads);
  run(0, count / threads);
  for (auto& t : pool) t.join();
}

struct SyntheticCircuit {
  std::uint32_t domain_size, n_public, n_constraints, n_vars;
};

inline SyntheticCircuit synthetic_circuit(unsigned log_n, std::uint32_t n_public = 2) {
  const std::uint32_t n = std::uint32_t{1} << log_n;
  const std::uint32_t m = n - n_public - 1;  // constraints: the domain is exactly n
  return {n, n_public, m, m + n_public + 1};
}

template <PairingEngine E>
std::vector<std::byte> synthetic_zkey(const SyntheticCircuit& c) {
  using G1 = typename E::G1;
  using G2 = typename E::G2;
  using Fr = typename E::Fr;
  using Fq = typename G1::Field;
  ZkeyWriter w;
  w.put("zkey", 4);
  w.u32(1);
  w.u32(9);
  auto s = w.begin(1);
  w.u32(1);  // groth16
  w.end(s);
  s = w.begin(2);
  w.u32(Fq::kBytes);
  std::array<std::uint8_t, Fq::kBytes> q;
  Fq::kModulus.to_le_bytes(q);
  w.put(q.data(), q.size());
  w.u32(Fr::kBytes);
  std::array<std::uint8_t, Fr::kBytes> r;
  Fr::kModulus.to_le_bytes(r);
  w.put(r.data(), r.size());
  w.u32(c.n_vars);
  w.u32(c.n_public);
  w.u32(c.domain_size);
  put_points<G1>(w, 2);  // alpha1, beta1
  put_points<G2>(w, 2);  // beta2, gamma2
  put_points<G1>(w, 1);  // delta1
  put_points<G2>(w, 1);  // delta2
  w.end(s);
  s = w.begin(3);
  put_points<G1>(w, c.n_public + 1);
  w.end(s);
  s = w.begin(4);
  // Constraint i: A[i][x] = B[i][x] = 1 with x = wire of step i; then A[m + k][k] = 1.
  const std::uint32_t entries = 2 * c.n_constraints + c.n_public + 1;
  w.u32(entries);
  std::array<std::uint8_t, Fr::kBytes> one_r2;  // 1 stored as 1·R² mod r
  Fr::kR2.to_le_bytes(one_r2);
  const auto entry = [&](std::uint32_t matrix, std::uint32_t row, std::uint32_t wire) {
    w.u32(matrix);
    w.u32(row);
    w.u32(wire);
    w.put(one_r2.data(), one_r2.size());
  };
  for (std::uint32_t i = 0; i < c.n_constraints; ++i) {
    const std::uint32_t x = c.n_public + 1 + i % (c.n_vars - c.n_public - 1);
    entry(0, i, x);
    entry(1, i, x);
  }
  for (std::uint32_t k = 0; k <= c.n_public; ++k) entry(0, c.n_constraints + k, k);
  w.end(s);
  s = w.begin(5);
  put_points<G1>(w, c.n_vars);
  w.end(s);
  s = w.begin(6);
  put_points<G1>(w, c.n_vars);
  w.end(s);
  s = w.begin(7);
  put_points<G2>(w, c.n_vars);
  w.end(s);
  s = w.begin(8);
  put_points<G1>(w, c.n_vars - c.n_public - 1);
  w.end(s);
  s = w.begin(9);
  put_points<G1>(w, c.domain_size);
  w.end(s);
  return std::move(w.bytes());
}

// w[0] = 1, then uniform values: the chain's witness is uniform-looking too.
template <class Fr>
std::vector<typename Fr::Int> synthetic_witness(const SyntheticCircuit& c, std::uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::vector<typename Fr::Int> w(c.n_vars);
  w[0] = Fr::Int::from_u64(1);
  for (std::size_t i = 1; i < w.size(); ++i) w[i] = Fr::random(rng).to_bigint();
  return w;
}

}  // namespace zkp::test
