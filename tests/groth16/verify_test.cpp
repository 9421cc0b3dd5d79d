// prove → verify → tamper → must fail, for every committed vector on both curves: ours in
// tests/groth16/data and the formats engineer's in tests/vectors/data. The verifier is the
// pairing engineer's; the verifying key comes both from the zkey and from snarkjs's vkey.json.
// Also: snarkjs's own proof.json verifies against our key, and a witness that does not satisfy
// the circuit yields a proof that fails (which is why the plugin verifies by default).
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "core/ec/encoding.hpp"
#include "core/formats/groth16_json.hpp"
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

namespace fs = std::filesystem;

// Every folder under the two data roots that holds a vector for this curve.
template <class E>
std::vector<fs::path> vector_dirs() {
  return test::vector_dirs<E>(test::data_dir(), ZKPIPE_VECTORS_DATA_DIR, {"circuit.zkey"});
}

template <CurveParams C>
Affine<C> decode_std(const ByteVec& x, const ByteVec& y) {
  std::vector<std::uint8_t> b;
  for (auto v : x) b.push_back(static_cast<std::uint8_t>(v));
  for (auto v : y) b.push_back(static_cast<std::uint8_t>(v));
  Affine<C> p;
  EXPECT_EQ(decode_affine<C>(std::span<const std::uint8_t, kAffineBytes<C>>(b), p), PointStatus::ok);
  return p;
}

template <class E>
Affine<typename E::G1> g1(const G1Affine& p) {
  return p.infinity ? Affine<typename E::G1>{} : decode_std<typename E::G1>(p.x, p.y);
}
template <class E>
Affine<typename E::G2> g2(const G2Affine& p) {
  if (p.infinity) return {};
  ByteVec x = p.x_c0, y = p.y_c0;
  x.insert(x.end(), p.x_c1.begin(), p.x_c1.end());
  y.insert(y.end(), p.y_c1.begin(), p.y_c1.end());
  return decode_std<typename E::G2>(x, y);
}

template <class E>
VerifyingKey<E> vkey_from_json(const fs::path& p) {
  const VerificationKey vk = read_vkey_json(test::read_text(p), p.string());
  VerifyingKey<E> out{g1<E>(vk.alpha1), g2<E>(vk.beta2), g2<E>(vk.gamma2), g2<E>(vk.delta2), {}};
  for (const auto& ic : vk.ic) out.ic.push_back(g1<E>(ic));
  return out;
}

template <class E>
struct Vector {
  fs::path dir;
  ProvingKey<E> key;
  std::vector<typename E::Fr::Int> witness;
};

template <class E>
Vector<E> load(const fs::path& dir, ThreadPool& pool) {
  ZkeyReadOptions opts;
  opts.validate_points = make_point_validator(PointCheck::on_curve, pool);
  Zkey zkey = read_zkey(ByteSource::from_file(dir / "circuit.zkey"), opts);
  const Wtns wtns = read_wtns(ByteSource::from_file(dir / "witness.wtns"), zkey.header().curve);
  check_witness_matches(zkey, wtns);
  auto w = load_assignment<typename E::Fr>(wtns.values(), wtns.size(), wtns.name());
  return {dir, ProvingKey<E>(std::move(zkey)), std::move(w)};
}

template <class E>
Proof<E> prove_once(const Vector<E>& v, std::span<const typename E::Fr::Int> witness, const typename E::Fr& r,
                    const typename E::Fr& s, ThreadPool& pool) {
  const auto syn = synthesize<E>(v.key, {witness.begin(), witness.end()}, pool);
  return prove<E>(v.key, prove_input(syn, pool), r, s, pool);
}

template <class E>
class VerifyTest : public ::testing::Test {};
using Engines = ::testing::Types<bn254::Engine, bls12_381::Engine>;
TYPED_TEST_SUITE(VerifyTest, Engines);

TYPED_TEST(VerifyTest, EveryVectorProvesAndVerifies) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  using Int = typename Fr::Int;
  ThreadPool pool(2);
  std::mt19937_64 rng(11);
  const auto dirs = vector_dirs<E>();
  ASSERT_GE(dirs.size(), 2u);
  for (const auto& dir : dirs) {
    SCOPED_TRACE(dir.string());
    const auto v = load<E>(dir, pool);
    const std::span<const Int> publics = std::span<const Int>(v.witness).subspan(1, v.key.n_public());
    const auto json_vk = vkey_from_json<E>(dir / "vkey.json");
    for (const bool zero : {true, false}) {
      const Fr r = zero ? Fr::zero() : Fr::random(rng), s = zero ? Fr::zero() : Fr::random(rng);
      const Proof<E> p = prove_once<E>(v, v.witness, r, s, pool);
      EXPECT_TRUE(verify<E>(v.key.verifying_key(), publics, p).ok());
      const auto r2 = verify<E>(json_vk, publics, p);
      EXPECT_TRUE(r2.ok()) << r2.message();

      // Tampering: another proof point, a changed public input.
      Proof<E> bad = p;
      bad.c = (Jacobian<typename E::G1>::from_affine(p.c) + Jacobian<typename E::G1>::generator()).to_affine();
      EXPECT_EQ(verify<E>(v.key.verifying_key(), publics, bad).status, VerifyStatus::pairing_check_failed);
      bad = p;
      std::swap(bad.a, bad.c);
      EXPECT_FALSE(verify<E>(v.key.verifying_key(), publics, bad).ok());
      std::vector<Int> wrong(publics.begin(), publics.end());
      wrong[0] = (Fr::from_bigint(wrong[0]).value() + Fr::one()).to_bigint();
      EXPECT_EQ(verify<E>(v.key.verifying_key(), std::span<const Int>(wrong), p).status,
                VerifyStatus::pairing_check_failed);
    }
  }
}

TYPED_TEST(VerifyTest, SnarkjsProofsVerifyAgainstOurKey) {
  using E = TypeParam;
  ThreadPool pool(2);
  for (const auto& dir : vector_dirs<E>()) {
    SCOPED_TRACE(dir.string());
    const auto v = load<E>(dir, pool);
    const Groth16Proof sj = read_proof_json(test::read_text(dir / "proof.json"), "proof.json");
    const Proof<E> p{g1<E>(sj.a), g2<E>(sj.b), g1<E>(sj.c)};
    const auto publics = std::span<const typename E::Fr::Int>(v.witness).subspan(1, v.key.n_public());
    EXPECT_TRUE(verify<E>(v.key.verifying_key(), publics, p).ok());
  }
}

TYPED_TEST(VerifyTest, UnsatisfyingWitnessGivesAProofThatFails) {
  using E = TypeParam;
  using Fr = typename E::Fr;
  ThreadPool pool(2);
  for (const auto& dir : vector_dirs<E>()) {
    SCOPED_TRACE(dir.string());
    const auto v = load<E>(dir, pool);
    // The last wire is private (an internal signal); changing it breaks a constraint but
    // leaves the public inputs as they were.
    auto w = v.witness;
    ASSERT_GT(w.size(), v.key.n_public() + 1u);
    w.back() = (Fr::from_bigint(w.back()).value() + Fr::one()).to_bigint();
    const Proof<E> p = prove_once<E>(v, w, Fr::zero(), Fr::zero(), pool);
    const auto publics = std::span<const typename Fr::Int>(w).subspan(1, v.key.n_public());
    EXPECT_EQ(verify<E>(v.key.verifying_key(), publics, p).status, VerifyStatus::pairing_check_failed);
  }
}

}  // namespace
}  // namespace zkp::groth16
