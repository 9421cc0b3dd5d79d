// The device's constraint evaluation (DeviceSparseSystem::evaluate_ab) on a GPU: a = A·w and
// b = B·w of every committed snarkjs vector against the host's synthesis, bit for bit, and of a
// synthetic system of 2^20 rows (PoRep's proportions: A ~2.4, B ~1.0 entries a row, mostly small
// coefficients, some long rows) against the emulated evaluate_row. Skips without a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "core/formats/wtns.hpp"
#include "core/formats/zkey.hpp"
#include "core/groth16/coefficient_rows.hpp"
#include "core/groth16/synthesis.hpp"
#include "core/groth16/witness.hpp"
#include "cuda/ff/fields.cuh"
#include "cuda/synth/evaluate.cuh"
#include "cuda/synth/evaluate.hpp"
#include "cuda/util/buffers.hpp"
#include "cuda/util/device_guard.hpp"
#include "device_test_support.hpp"

namespace zkp::cuda::synth {
namespace {

namespace fs = std::filesystem;
using test::DeviceTest;

// The committed vectors; ZKPIPE_VECTORS_DIR overrides the build's path on another machine.
fs::path vectors_dir() {
  const char* v = std::getenv("ZKPIPE_VECTORS_DIR");
  return v != nullptr && *v != 0 ? fs::path(v) : fs::path(ZKPIPE_VECTORS_DATA_DIR);
}

// a and b of `s` for witness `w` (standard form), on the GPU.
template <class Fr>
void on_device(const SparseSystem<Fr>& s, const std::vector<typename Fr::Int>& w, std::vector<Fr>& a, std::vector<Fr>& b) {
  DeviceGuard guard(test::kTestGpu);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  {
    const DeviceSparseSystem<Fr> d(s, stream);
    EXPECT_EQ(d.device_bytes(), s.device_bytes());
    DeviceBuffer<Fr> dw(w.size()), da(s.domain_size), db(s.domain_size);
    std::vector<Fr> wf(w.size());
    std::memcpy(static_cast<void*>(wf.data()), w.data(), w.size() * sizeof(Fr));
    dw.upload(wf, stream);
    d.evaluate_ab(dw.data(), da.data(), db.data(), stream);
    a.resize(s.domain_size);
    b.resize(s.domain_size);
    da.download(a, stream);
    db.download(b, stream);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  }
  cudaStreamDestroy(stream);
}

template <class Fr>
void check_vector(const std::string& name) {
  SCOPED_TRACE(name);
  const fs::path dir = vectors_dir() / name;
  const Zkey key = read_zkey(ByteSource::from_file(dir / "circuit.zkey"));
  const Wtns wtns = read_wtns(ByteSource::from_file(dir / "witness.wtns"), key.header().curve);
  const auto w = groth16::load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name());
  const std::uint32_t n = key.header().domain_size;
  const groth16::CoefficientRows rows(key.coefficients(), n);
  ThreadPool pool(2);
  std::vector<Fr> want_a(n), want_b(n);
  groth16::evaluate_ab<Fr>(key.coefficients(), rows, w, want_a, want_b, pool);
  std::vector<Fr> a, b;
  on_device(build_sparse_system<Fr>(key.coefficients(), rows, key.header().n_vars), w, a, b);
  EXPECT_EQ(a, want_a);
  EXPECT_EQ(b, want_b);
}

class DeviceSynth : public DeviceTest {};

TEST_F(DeviceSynth, CommittedVectorsMatchTheHostSynthesis) {
  for (const char* v : {"many_public_bn128", "poseidon_bn128", "chain_bn128"}) check_vector<zkp::bn254::Fr>(v);
  for (const char* v : {"many_public_bls12381", "poseidon_bls12381", "chain_bls12381"}) check_vector<zkp::bls12_381::Fr>(v);
}

// A system of 2^20 rows with PoRep's proportions and a few long rows (a warp's longest row is its
// cost), random witness values below r: the GPU against evaluate_row on the CPU.
template <class Fr>
void check_synthetic(std::uint32_t log_rows) {
  using D = DeviceField<Fr>;
  using Int = typename Fr::Int;
  std::mt19937_64 rng(0x5e7a + log_rows);
  SparseSystem<Fr> s;
  s.domain_size = 1u << log_rows;
  s.n_vars = s.domain_size;
  for (int i = 0; i < 16; ++i) s.dictionary.push_back(Fr::from_u64(static_cast<std::uint64_t>(i) + 1));
  s.dictionary.push_back(-Fr::one());
  for (int i = 0; i < 64; ++i) s.dictionary.push_back(Fr::random(rng));
  const auto fill = [&](SparseMatrix& m, double mean) {
    m.row_start.assign(std::size_t{s.domain_size} + 1, 0);
    for (std::uint32_t r = 0; r < s.domain_size; ++r) {
      std::uint32_t len = static_cast<std::uint32_t>(mean) + (rng() % 10 < (mean - static_cast<std::uint32_t>(mean)) * 10 ? 1 : 0);
      if (rng() % 4096 == 0) len = 300;  // a long linear combination
      for (std::uint32_t k = 0; k < len; ++k) {
        m.wire.push_back(static_cast<std::uint32_t>(rng() % s.n_vars));
        m.coef.push_back(static_cast<std::uint32_t>(rng() % 8 == 0 ? rng() % s.dictionary.size() : rng() % 17));
      }
      m.row_start[r + 1] = static_cast<std::uint32_t>(m.wire.size());
    }
  };
  fill(s.a, 2.4);
  fill(s.b, 1.0);
  std::vector<Int> w(s.n_vars);
  for (Int& v : w) v = Fr::random(rng).to_bigint();  // standard form, below r
  std::vector<Fr> a, b;
  on_device(s, w, a, b);
  std::vector<D> dict(s.dictionary.size()), wd(w.size());
  std::memcpy(static_cast<void*>(dict.data()), s.dictionary.data(), dict.size() * sizeof(Fr));
  std::memcpy(static_cast<void*>(wd.data()), w.data(), w.size() * sizeof(Fr));
  ASSERT_EQ(a.size(), s.domain_size);
  for (std::uint32_t r = 0; r < s.domain_size; r += (r < 4096 ? 1 : 61)) {
    const D ea = evaluate_row(s.a.row_start.data(), s.a.wire.data(), s.a.coef.data(), dict.data(), wd.data(), r);
    const D eb = evaluate_row(s.b.row_start.data(), s.b.wire.data(), s.b.coef.data(), dict.data(), wd.data(), r);
    ASSERT_EQ(std::memcmp(&ea, &a[r], sizeof(Fr)), 0) << "a, row " << r;
    ASSERT_EQ(std::memcmp(&eb, &b[r], sizeof(Fr)), 0) << "b, row " << r;
  }
}

TEST_F(DeviceSynth, ASyntheticSystemOfPoRepsProportionsMatchesTheEmulation) {
  check_synthetic<zkp::bn254::Fr>(20);
  check_synthetic<zkp::bls12_381::Fr>(20);
}

}  // namespace
}  // namespace zkp::cuda::synth
