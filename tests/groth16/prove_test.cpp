// Whole proofs against snarkjs: with r = s = 0 every raw MSM result and the proof bytes must
// equal the oracle's (det/msm.json, det/proof.json); results must not depend on the thread
// count; random (r, s) must change the proof.
#include <gtest/gtest.h>

#include <random>

#include "core/ec/encoding.hpp"
#include "core/formats/wtns.hpp"
#include "core/formats/zkey.hpp"
#include "core/groth16/point_check.hpp"
#include "core/groth16/proof_codec.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/witness.hpp"
#include "groups.hpp"
#include "oracle_json.hpp"
#include "test_data.hpp"

namespace zkp::groth16 {
namespace {

template <class E>
class ProveTest : public ::testing::Test {};
using Curves = ::testing::Types<bn254::Engine, bls12_381::Engine>;
TYPED_TEST_SUITE(ProveTest, Curves);

template <class E>
struct Loaded {
  using Fr = typename E::Fr;
  std::filesystem::path dir;
  ProvingKey<E> key;
  std::vector<typename Fr::Int> witness;
};

template <class E>
Loaded<E> load(const std::string& circuit, ThreadPool& pool) {
  using Fr = typename E::Fr;
  const auto dir = test::data_dir() / test::vector_dir<E>(circuit);
  ZkeyReadOptions opts;
  opts.validate_points = make_point_validator(PointCheck::subgroup, pool);
  Zkey zkey = read_zkey(ByteSource::from_file(dir / "circuit.zkey"), opts);
  const Wtns wtns = read_wtns(ByteSource::from_file(dir / "witness.wtns"), zkey.header().curve);
  check_witness_matches(zkey, wtns);
  auto w = load_assignment<Fr>(wtns.values(), wtns.size(), wtns.name());
  return {dir, ProvingKey<E>(std::move(zkey)), std::move(w)};
}

template <CurveParams C>
std::vector<std::uint8_t> bytes_of(const Affine<C>& p) {
  std::vector<std::uint8_t> out(kAffineBytes<C>);
  encode_affine<C>(p, std::span<std::uint8_t, kAffineBytes<C>>(out));
  return out;
}

template <class E>
std::vector<std::uint8_t> bytes_of(const Proof<E>& p) {
  std::vector<std::uint8_t> out(kProofBytes<E>);
  write_proof<E>(p, std::span<std::uint8_t, kProofBytes<E>>(out));
  return out;
}

template <class E>
Proof<E> prove_with(const Loaded<E>& l, const typename E::Fr& r, const typename E::Fr& s,
                    ThreadPool& pool) {
  const auto syn = synthesize<E>(l.key, l.witness, pool);
  return prove<E>(l.key, prove_input(syn, pool), r, s, pool);
}

TYPED_TEST(ProveTest, RawMsmResultsMatchTheOracle) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  using Int = typename Fr::Int;
  ThreadPool pool(2);
  for (const char* circuit : {"multiplier", "chain7"}) {
    SCOPED_TRACE(circuit);
    const auto l = load<E>(circuit, pool);
    const std::size_t n8q = E::G1::Field::kBytes;
    const JsonValue msm_json = test::load_json(l.dir / "det/msm.json");
    const auto syn = synthesize<E>(l.key, l.witness, pool);
    const auto h = h_evaluations<Fr>(syn.a, syn.b, {}, l.key.domain(), pool);
    std::vector<Int> h_int(h.size());
    for (std::size_t i = 0; i < h.size(); ++i) h_int[i] = h[i].to_bigint();
    const std::span<const Int> w = l.witness;
    const msm::Options o{2, 0};
    auto expect = [&](const char* key, auto&& got, bool g2) {
      std::vector<std::uint8_t> want;
      if (g2) test::append_g2(test::member(msm_json, key), n8q, want);
      else test::append_g1(test::member(msm_json, key), n8q, want);
      EXPECT_EQ(bytes_of(got), want) << key;
    };
    expect("msm_A", msm::msm<typename E::G1>(l.key.a(), detail::scalar_bytes(w), o), false);
    expect("msm_B1", msm::msm<typename E::G1>(l.key.b1(), detail::scalar_bytes(w), o), false);
    expect("msm_B2", msm::msm<typename E::G2>(l.key.b2(), detail::scalar_bytes(w), o), true);
    expect("msm_C", msm::msm<typename E::G1>(l.key.c(), detail::scalar_bytes(w.subspan(l.key.n_public() + 1)), o),
           false);
    expect("msm_H", msm::msm<typename E::G1>(l.key.h(), detail::scalar_bytes(std::span<const Int>(h_int)), o), false);
  }
}

TYPED_TEST(ProveTest, ZeroRandomnessProofIsByteIdenticalToSnarkjs) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  ThreadPool pool(2);
  for (const char* circuit : {"multiplier", "chain7"}) {
    SCOPED_TRACE(circuit);
    const auto l = load<E>(circuit, pool);
    const auto proof = prove_with<E>(l, Fr::zero(), Fr::zero(), pool);
    EXPECT_EQ(bytes_of(proof), test::proof_bytes(l.dir / "det/proof.json", E::G1::Field::kBytes));
    std::vector<std::uint8_t> pub(l.key.n_public() * 32);
    write_public_inputs<typename Fr::Int>(l.witness, l.key.n_public(), pub);
    EXPECT_EQ(pub, test::public_bytes(l.dir / "det/public.json"));
    EXPECT_EQ(pub, test::public_bytes(l.dir / "public.json"));
  }
}

TYPED_TEST(ProveTest, ProofsDoNotDependOnTheThreadCount) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  std::mt19937_64 rng(5);
  const Fr r = Fr::random(rng), s = Fr::random(rng);
  std::vector<std::uint8_t> reference;
  for (unsigned threads : {1u, 2u, 3u}) {
    ThreadPool pool(threads);
    const auto l = load<E>("chain7", pool);
    for (int rep = 0; rep < 2; ++rep) {
      const auto bytes = bytes_of(prove_with<E>(l, r, s, pool));
      if (reference.empty()) reference = bytes;
      EXPECT_EQ(bytes, reference) << threads << " threads, repetition " << rep;
    }
  }
}

TYPED_TEST(ProveTest, RandomnessChangesEveryProofPoint) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  ThreadPool pool(2);
  const auto l = load<E>("chain7", pool);
  std::mt19937_64 rng(6);
  const auto p0 = prove_with<E>(l, Fr::zero(), Fr::zero(), pool);
  const auto p1 = prove_with<E>(l, Fr::random(rng), Fr::random(rng), pool);
  EXPECT_NE(p0.a, p1.a);
  EXPECT_NE(p0.b, p1.b);
  EXPECT_NE(p0.c, p1.c);
  // The proof bytes read back to the same points.
  const auto bytes = bytes_of(p1);
  const auto back = read_proof<E>(std::span<const std::uint8_t, kProofBytes<E>>(bytes));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->a, p1.a);
  EXPECT_EQ(back->b, p1.b);
  EXPECT_EQ(back->c, p1.c);
}

TYPED_TEST(ProveTest, WrongWitnessLengthIsRefused) {
  using E = TypeParam;
  ThreadPool pool(1);
  auto l = load<E>("multiplier", pool);
  auto w = l.witness;
  w.pop_back();
  EXPECT_THROW(synthesize<E>(l.key, w, pool), FormatError);
}

}  // namespace
}  // namespace zkp::groth16
