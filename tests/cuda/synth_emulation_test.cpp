// The device's constraint evaluation (provers/cuda/synth) on the CPU, through the emulated carry
// flag: a = A·w and b = B·w of every committed snarkjs vector, row by row with the device's
// evaluate_row over the sparse system (CSR and coefficient dictionary) the device holds, against
// the host's synthesis (groth16::evaluate_ab), bit for bit. The same comparison runs on a GPU in
// cuda_device_synth_test.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <filesystem>
#include <string>
#include <vector>

#include "core/ff/bls12_381.hpp"
#include "core/ff/bn254.hpp"
#include "core/bellperson/synthesis.hpp"
#include "core/formats/r1cs.hpp"
#include "core/formats/wtns.hpp"
#include "core/formats/zkey.hpp"
#include "core/groth16/coefficient_rows.hpp"
#include "core/groth16/r1cs_check.hpp"
#include "core/groth16/synthesis.hpp"
#include "core/groth16/witness.hpp"
#include "cuda/ff/fields.cuh"
#include "cuda/synth/evaluate.cuh"
#include "cuda/synth/sparse_system.hpp"
#include "synth_inputs.hpp"

namespace zkp::cuda::synth {
namespace {

namespace fs = std::filesystem;

template <class Fr>
void check_vector(const std::string& name) {
  SCOPED_TRACE(name);
  const fixtures::VectorSystem<Fr> v = fixtures::vector_system<Fr>(fs::path(ZKPIPE_VECTORS_DATA_DIR) / name);
  const SparseSystem<Fr>& s = v.system;
  ASSERT_EQ(s.a.entries() + s.b.entries(), v.zkey_entries);
  // The dictionary is what makes an entry 8 bytes: a circuit's coefficients repeat.
  EXPECT_LT(s.dictionary.size(), v.zkey_entries / 2) << "distinct coefficients";
  EXPECT_LT(s.device_bytes(), v.zkey_bytes / 2);
  std::printf("  %s: %zu entries, %zu distinct coefficients, %zu B on the device (zkey section 4: %zu B)\n", name.c_str(),
              v.zkey_entries, s.dictionary.size(), s.device_bytes(), v.zkey_bytes);

  std::vector<Fr> a, b;
  fixtures::emulated_ab(s, v.witness, a, b);
  EXPECT_EQ(a, v.a);
  EXPECT_EQ(b, v.b);
}

TEST(SynthEmulation, EveryCommittedBn254VectorMatchesTheHostSynthesis) {
  for (const char* v : {"many_public_bn128", "poseidon_bn128", "chain_bn128"}) check_vector<zkp::bn254::Fr>(v);
}

TEST(SynthEmulation, EveryCommittedBls12381VectorMatchesTheHostSynthesis) {
  for (const char* v : {"many_public_bls12381", "poseidon_bls12381", "chain_bls12381"}) check_vector<zkp::bls12_381::Fr>(v);
}

// A bellperson key's rows from the circuit's .r1cs: A, B and C of every constraint, then the input
// rows, against bellperson::synthesize (the cpu and cuda provers' host synthesis with key option
// r1cs), BLS12-381, bit for bit; C through the same evaluate_row.
TEST(SynthEmulation, ABellpersonCircuitFromItsR1csMatchesTheHostSynthesis) {
  using Fr = zkp::bls12_381::Fr;
  using D = DeviceField<Fr>;
  const fs::path dir = fs::path(ZKPIPE_VECTORS_DATA_DIR) / "many_public_bls12381";
  const R1cs r1cs = read_r1cs(ByteSource::from_file(dir / "circuit.r1cs"));
  const Wtns wtns = read_wtns(ByteSource::from_file(dir / "witness.wtns"), Curve::bls12_381);
  auto w = groth16::load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name());
  const bellperson::CircuitShape shape = bellperson::shape_of(r1cs);
  const SparseSystem<Fr> s = build_sparse_system<Fr>(r1cs, shape.num_inputs);
  ASSERT_EQ(s.domain_size, shape.abc_size());
  ThreadPool pool(2);
  std::optional<std::uint64_t> bad;
  const bellperson::Synthesis<Fr> want = bellperson::synthesize<Fr>(r1cs, shape, w, pool, bad);
  ASSERT_FALSE(bad.has_value());
  std::vector<Fr> a, b;
  fixtures::emulated_ab(s, w, a, b);
  EXPECT_EQ(a, want.a);
  EXPECT_EQ(b, want.b);
  std::vector<D> dictionary(s.dictionary.size()), wd(w.size());
  std::memcpy(static_cast<void*>(dictionary.data()), s.dictionary.data(), s.dictionary.size() * sizeof(Fr));
  std::memcpy(static_cast<void*>(wd.data()), w.data(), w.size() * sizeof(Fr));
  for (std::uint32_t r = 0; r < s.domain_size; ++r) {
    const D c = evaluate_row(s.c.row_start.data(), s.c.wire.data(), s.c.coef.data(), dictionary.data(), wd.data(), r);
    ASSERT_EQ(std::memcmp(&c, &want.c[r], sizeof(Fr)), 0) << "c, row " << r;
  }
  std::printf("  many_public_bls12381.r1cs: %zu + %zu + %zu entries, %zu distinct coefficients, %zu B on the device\n",
              s.a.entries(), s.b.entries(), s.c.entries(), s.dictionary.size(), s.device_bytes());
}

// A witness that breaks the circuit: the first row whose emulated a·b differs from its c (what
// the device's check_rows finds with synthesis=device) is the constraint the host's r1cs check
// names, so the device reports it in the host's words. `system` builds the device's system with
// the circuit's C; each private wire is changed in turn (one no constraint reads breaks none).
template <class Fr, class System>
void check_broken_rows(const std::string& name, System system) {
  SCOPED_TRACE(name);
  const fs::path dir = fs::path(ZKPIPE_VECTORS_DATA_DIR) / name;
  const R1cs r1cs = read_r1cs(ByteSource::from_file(dir / "circuit.r1cs"));
  const Wtns wtns = read_wtns(ByteSource::from_file(dir / "witness.wtns"), r1cs.header().curve);
  const SparseSystem<Fr> s = system(dir, r1cs);
  ThreadPool pool(2);
  const auto good = groth16::load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name());
  ASSERT_EQ(fixtures::first_broken_row(s, good), std::nullopt);
  const std::uint64_t inputs = 1 + std::uint64_t{r1cs.header().n_pub_out} + r1cs.header().n_pub_in;
  int broken = 0;
  for (std::uint64_t wire = inputs; wire < r1cs.header().n_wires; wire += 1 + wire / 64) {
    auto w = good;
    w[wire].limbs[0] ^= 1;
    const auto host = groth16::first_unsatisfied_constraint<Fr>(r1cs, w, pool);
    ASSERT_EQ(fixtures::first_broken_row(s, w), host) << "wire " << wire;
    broken += host.has_value();
  }
  EXPECT_GT(broken, 0) << "no wire change broke a constraint: the test checked nothing";
}

// A bellperson key's rows, from the circuit alone.
TEST(SynthEmulation, ABellpersonCircuitsFirstBrokenRowIsTheConstraintTheHostCheckNames) {
  using Fr = zkp::bls12_381::Fr;
  check_broken_rows<Fr>("many_public_bls12381", [](const fs::path&, const R1cs& r1cs) {
    return build_sparse_system<Fr>(r1cs, bellperson::shape_of(r1cs).num_inputs);
  });
}

// A zkey's A and B with its circuit's C (key option r1cs), every committed vector, both curves:
// the zkey's rows are the circuit's constraints in its order.
template <class Fr>
void check_zkey_broken_rows(const std::string& name) {
  check_broken_rows<Fr>(name, [](const fs::path& dir, const R1cs& r1cs) {
    const Zkey key = read_zkey(ByteSource::from_file(dir / "circuit.zkey"));
    const groth16::CoefficientRows rows(key.coefficients(), key.header().domain_size);
    SparseSystem<Fr> s = build_sparse_system<Fr>(key.coefficients(), rows, key.header().n_vars);
    const std::size_t distinct = s.dictionary.size();
    add_circuit_c(s, r1cs);
    EXPECT_EQ(s.circuit, r1cs.name());
    EXPECT_GE(s.dictionary.size(), distinct);  // C's coefficients join A's and B's dictionary
    return s;
  });
}

TEST(SynthEmulation, AZkeyWithItsCircuitsFirstBrokenRowIsTheConstraintTheHostCheckNames) {
  for (const char* v : {"many_public_bn128", "poseidon_bn128", "chain_bn128"}) check_zkey_broken_rows<zkp::bn254::Fr>(v);
  for (const char* v : {"many_public_bls12381", "poseidon_bls12381", "chain_bls12381"}) {
    check_zkey_broken_rows<zkp::bls12_381::Fr>(v);
  }
}

TEST(SynthEmulation, RowsAreTheDomainsAndEmptyPastTheLastEntry) {
  const fs::path dir = fs::path(ZKPIPE_VECTORS_DATA_DIR) / "many_public_bn128";
  const Zkey key = read_zkey(ByteSource::from_file(dir / "circuit.zkey"));
  const std::uint32_t n = key.header().domain_size;
  const groth16::CoefficientRows rows(key.coefficients(), n);
  const SparseSystem<zkp::bn254::Fr> s = build_sparse_system<zkp::bn254::Fr>(key.coefficients(), rows, key.header().n_vars);
  ASSERT_EQ(s.a.row_start.size(), std::size_t{n} + 1);
  EXPECT_EQ(s.a.row_start.front(), 0u);
  EXPECT_EQ(s.a.row_start.back(), s.a.entries());
  EXPECT_EQ(s.b.row_start.back(), s.b.entries());
  for (std::uint32_t r = 0; r < n; ++r) EXPECT_LE(s.a.row_start[r], s.a.row_start[r + 1]);
  for (const std::uint32_t wire : s.a.wire) EXPECT_LT(wire, s.n_vars);
  for (const std::uint32_t c : s.b.coef) EXPECT_LT(c, s.dictionary.size());
  // snarkjs appends one A row per public input (and the constant one) after the constraints:
  // the domain's last rows are empty.
  EXPECT_EQ(s.a.row_start[n - 1], s.a.row_start[n]);
}

}  // namespace
}  // namespace zkp::cuda::synth
