// The device's constraint evaluation (DeviceSparseSystem::evaluate_ab) on a GPU: a = A·w and
// b = B·w of every committed snarkjs vector against the host's synthesis, bit for bit, and of a
// synthetic system of 2^20 rows (PoRep's proportions: A ~2.4, B ~1.0 entries a row, mostly small
// coefficients, some long rows) against the emulated evaluate_row (synth_inputs.hpp). Skips
// without a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "core/bellperson/synthesis.hpp"
#include "core/formats/r1cs.hpp"
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
#include "synth_inputs.hpp"

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
  const fixtures::VectorSystem<Fr> v = fixtures::vector_system<Fr>(vectors_dir() / name);
  std::vector<Fr> a, b;
  on_device(v.system, v.witness, a, b);
  EXPECT_EQ(a, v.a);
  EXPECT_EQ(b, v.b);
}

class DeviceSynth : public DeviceTest {};

TEST_F(DeviceSynth, CommittedVectorsMatchTheHostSynthesis) {
  for (const char* v : {"many_public_bn128", "poseidon_bn128", "chain_bn128"}) check_vector<zkp::bn254::Fr>(v);
  for (const char* v : {"many_public_bls12381", "poseidon_bls12381", "chain_bls12381"}) check_vector<zkp::bls12_381::Fr>(v);
}

// A bellperson key's rows from the circuit's .r1cs: a, b and c on the GPU against
// bellperson::synthesize.
TEST_F(DeviceSynth, ABellpersonCircuitFromItsR1csMatchesTheHostSynthesis) {
  using Fr = zkp::bls12_381::Fr;
  const fs::path dir = vectors_dir() / "many_public_bls12381";
  const R1cs r1cs = read_r1cs(ByteSource::from_file(dir / "circuit.r1cs"));
  const Wtns wtns = read_wtns(ByteSource::from_file(dir / "witness.wtns"), Curve::bls12_381);
  const auto w = groth16::load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name());
  const bellperson::CircuitShape shape = bellperson::shape_of(r1cs);
  const SparseSystem<Fr> s = build_sparse_system<Fr>(r1cs, shape.num_inputs);
  ThreadPool pool(2);
  std::optional<std::uint64_t> bad;
  const bellperson::Synthesis<Fr> want = bellperson::synthesize<Fr>(r1cs, shape, w, pool, bad);
  DeviceGuard guard(cuda::test::kTestGpu);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  {
    const DeviceSparseSystem<Fr> d(s, stream);
    ASSERT_TRUE(d.has_c());
    std::vector<Fr> wf(w.size());
    std::memcpy(static_cast<void*>(wf.data()), w.data(), w.size() * sizeof(Fr));
    DeviceBuffer<Fr> dw(w.size()), da(s.domain_size), db(s.domain_size), dc(s.domain_size);
    dw.upload(wf, stream);
    d.evaluate_abc(dw.data(), da.data(), db.data(), dc.data(), stream);
    std::vector<Fr> a(s.domain_size), b(s.domain_size), c(s.domain_size);
    da.download(a, stream);
    db.download(b, stream);
    dc.download(c, stream);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    EXPECT_EQ(a, want.a);
    EXPECT_EQ(b, want.b);
    EXPECT_EQ(c, want.c);
  }
  cudaStreamDestroy(stream);
}

// A system of 2^20 rows with PoRep's proportions (synth_inputs.hpp), random witness values
// below r: the GPU against evaluate_row on the CPU, every 61st row past the first 4096.
template <class Fr>
void check_synthetic(std::uint32_t log_rows) {
  const SparseSystem<Fr> s = fixtures::synthetic_system<Fr>(log_rows, 0x5e7a);
  const auto w = fixtures::random_witness<Fr>(s.n_vars, 0x77);
  std::vector<Fr> a, b, ea, eb;
  on_device(s, w, a, b);
  fixtures::emulated_ab(s, w, ea, eb, 61);
  ASSERT_EQ(a.size(), s.domain_size);
  for (std::uint32_t r = 0; r < s.domain_size; r += 61) {
    ASSERT_EQ(a[r], ea[r]) << "a, row " << r;
    ASSERT_EQ(b[r], eb[r]) << "b, row " << r;
  }
}

TEST_F(DeviceSynth, ASyntheticSystemOfPoRepsProportionsMatchesTheEmulation) {
  check_synthetic<zkp::bn254::Fr>(20);
  check_synthetic<zkp::bls12_381::Fr>(20);
}

}  // namespace
}  // namespace zkp::cuda::synth
