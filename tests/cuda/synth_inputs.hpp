// Inputs of the device constraint evaluation's tests and benchmark (provers/cuda/synth): a
// committed snarkjs vector's sparse system with its witness and the host's a, b; and a synthetic
// system of PoRep's proportions (A ~2.4, B ~1.0, C ~2.2 entries a row, mostly small coefficients
// from a dictionary of 81, one row in 4096 of 300 entries).
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <optional>
#include <random>
#include <vector>

#include "core/formats/wtns.hpp"
#include "core/formats/zkey.hpp"
#include "core/groth16/coefficient_rows.hpp"
#include "core/groth16/synthesis.hpp"
#include "core/groth16/witness.hpp"
#include "core/util/thread_pool.hpp"
#include "cuda/ff/fields.cuh"
#include "cuda/synth/evaluate.cuh"
#include "cuda/synth/sparse_system.hpp"

namespace zkp::cuda::synth::fixtures {

template <class Fr>
struct VectorSystem {
  SparseSystem<Fr> system;
  std::vector<typename Fr::Int> witness;  // standard form
  std::vector<Fr> a, b;                   // the host's synthesis (groth16::evaluate_ab)
  std::size_t zkey_entries = 0, zkey_bytes = 0;  // section 4, for comparison
};

// The vector in `dir` (circuit.zkey, witness.wtns).
template <class Fr>
VectorSystem<Fr> vector_system(const std::filesystem::path& dir) {
  const Zkey key = read_zkey(ByteSource::from_file(dir / "circuit.zkey"));
  const Wtns wtns = read_wtns(ByteSource::from_file(dir / "witness.wtns"), key.header().curve);
  VectorSystem<Fr> v;
  v.witness = groth16::load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name());
  const std::uint32_t n = key.header().domain_size;
  const groth16::CoefficientRows rows(key.coefficients(), n);
  ThreadPool pool(2);
  v.a.resize(n);
  v.b.resize(n);
  groth16::evaluate_ab<Fr>(key.coefficients(), rows, v.witness, v.a, v.b, pool);
  v.system = build_sparse_system<Fr>(key.coefficients(), rows, key.header().n_vars);
  v.zkey_entries = key.coefficients().size();
  v.zkey_bytes = key.coefficients().raw().size();
  return v;
}

// 2^log_rows rows and as many wires; `with_c`: C too (~2.2 entries a row, as a bellperson
// circuit's: PoRep's C).
template <class Fr>
SparseSystem<Fr> synthetic_system(std::uint32_t log_rows, std::uint64_t seed, bool with_c = false) {
  std::mt19937_64 rng(seed + log_rows);
  SparseSystem<Fr> s;
  s.domain_size = 1u << log_rows;
  s.n_vars = s.domain_size;
  for (int i = 0; i < 16; ++i) s.dictionary.push_back(Fr::from_u64(static_cast<std::uint64_t>(i) + 1));
  s.dictionary.push_back(-Fr::one());
  for (int i = 0; i < 64; ++i) s.dictionary.push_back(Fr::random(rng));
  const auto fill = [&](SparseMatrix& m, std::uint32_t tenths) {  // mean entries a row, in tenths
    m.row_start.assign(std::size_t{s.domain_size} + 1, 0);
    m.wire.reserve(std::size_t{s.domain_size} * (tenths / 10 + 1));
    m.coef.reserve(m.wire.capacity());
    for (std::uint32_t r = 0; r < s.domain_size; ++r) {
      std::uint32_t len = tenths / 10 + (rng() % 10 < tenths % 10 ? 1 : 0);
      if (rng() % 4096 == 0) len = 300;  // a long linear combination: a warp waits for its longest row
      for (std::uint32_t k = 0; k < len; ++k) {
        m.wire.push_back(static_cast<std::uint32_t>(rng() % s.n_vars));
        m.coef.push_back(static_cast<std::uint32_t>(rng() % 8 == 0 ? rng() % s.dictionary.size() : rng() % 17));
      }
      m.row_start[r + 1] = static_cast<std::uint32_t>(m.wire.size());
    }
  };
  fill(s.a, 24);
  fill(s.b, 10);
  if (with_c) fill(s.c, 22);
  return s;
}

// Random standard-form values below r, one per wire.
template <class Fr>
std::vector<typename Fr::Int> random_witness(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<typename Fr::Int> w(n);
  for (auto& v : w) v = Fr::random(rng).to_bigint();
  return w;
}

// Rows 0, step, 2·step, ... of a and b of `s` for `witness`, by the device's evaluate_row run on
// the CPU (the emulated carry flag); the other rows are left zero.
template <class Fr>
void emulated_ab(const SparseSystem<Fr>& s, const std::vector<typename Fr::Int>& witness, std::vector<Fr>& a,
                 std::vector<Fr>& b, std::uint32_t step = 1) {
  using D = DeviceField<Fr>;
  // The device's inputs as the kernel reads them: the same bytes, as device field values.
  std::vector<D> dictionary(s.dictionary.size()), w(witness.size());
  std::memcpy(static_cast<void*>(dictionary.data()), s.dictionary.data(), s.dictionary.size() * sizeof(Fr));
  std::memcpy(static_cast<void*>(w.data()), witness.data(), witness.size() * sizeof(Fr));
  a.assign(s.domain_size, Fr::zero());
  b.assign(s.domain_size, Fr::zero());
  for (std::uint32_t r = 0; r < s.domain_size; r += step) {
    const D da = evaluate_row(s.a.row_start.data(), s.a.wire.data(), s.a.coef.data(), dictionary.data(), w.data(), r);
    const D db = evaluate_row(s.b.row_start.data(), s.b.wire.data(), s.b.coef.data(), dictionary.data(), w.data(), r);
    std::memcpy(static_cast<void*>(&a[r]), &da, sizeof(Fr));
    std::memcpy(static_cast<void*>(&b[r]), &db, sizeof(Fr));
  }
}

// The first row whose a·b differs from its c, a, b and c evaluated by the device's evaluate_row
// (emulated) from a system with a circuit's C: the row the device's check_rows reports.
template <class Fr>
std::optional<std::uint32_t> first_broken_row(const SparseSystem<Fr>& s, const std::vector<typename Fr::Int>& witness) {
  using D = DeviceField<Fr>;
  std::vector<D> dictionary(s.dictionary.size()), w(witness.size());
  std::memcpy(static_cast<void*>(dictionary.data()), s.dictionary.data(), s.dictionary.size() * sizeof(Fr));
  std::memcpy(static_cast<void*>(w.data()), witness.data(), witness.size() * sizeof(Fr));
  const auto row = [&](const SparseMatrix& m, std::uint32_t r) {
    const D d = evaluate_row(m.row_start.data(), m.wire.data(), m.coef.data(), dictionary.data(), w.data(), r);
    Fr v;
    std::memcpy(static_cast<void*>(&v), &d, sizeof(Fr));
    return v;
  };
  for (std::uint32_t r = 0; r < s.domain_size; ++r) {
    if (row(s.a, r) * row(s.b, r) != row(s.c, r)) return r;
  }
  return std::nullopt;
}

}  // namespace zkp::cuda::synth::fixtures
