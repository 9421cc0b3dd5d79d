// The cpu plugin with a bellperson key, through its C ABI only: a circom witness synthesized by
// the plugin (key option r1cs) and the same partition handed over as a bellperson caller would
// (zkp_synthesized_t: Montgomery scalars, inputs and aux apart, density bitmaps) give the same
// proof bytes for the same (r, s), and the proof verifies; every malformed caller input is
// refused with the field named. The parameters are written at build time by the known-tau
// setup tool (tests/tools/bellperson_setup) for the committed many_public_bls12381 circuit, whose
// queries leave variables out of all three densities (384 of 512 aux in A and in B, 33 of 35
// inputs in B), so every gather runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "core/bellperson/synthesis.hpp"
#include "core/ff/bls12_381.hpp"
#include "core/formats/r1cs.hpp"
#include "core/formats/wtns.hpp"
#include "core/groth16/witness.hpp"
#include "plugin_harness.hpp"

namespace zkp {
namespace {

using test::Key;
using test::make;
using test::Output;
using Fr = bls12_381::Fr;

const std::string kCircuit = std::string(ZKPIPE_VECTORS_DATA_DIR) + "/many_public_bls12381/";

// r = 3, s = 5: reproducible proofs.
std::vector<std::uint8_t> randomness() {
  std::vector<std::uint8_t> rs(2 * ZKP_SCALAR_SIZE, 0);
  rs[0] = 3;
  rs[ZKP_SCALAR_SIZE] = 5;
  return rs;
}

test::ProverPtr make_prover(const std::string& r1cs) {
  static test::Library lib(test::setting("ZKPIPE_CPU_PLUGIN", ZKPIPE_CPU_PLUGIN_PATH));
  test::ProverPtr p(nullptr, nullptr);
  zkp_error_t err = make<zkp_error_t>();
  test::Options options = {{"threads", "2"}, {"verify", "true"}};
  if (!r1cs.empty()) options.push_back({"r1cs", r1cs});
  if (test::create(lib, options, p, err) != ZKP_OK) throw std::runtime_error(err.message);
  return p;
}

// A partition as bellperson hands it over: every scalar as 32 bytes, Montgomery or standard.
struct CallerInput {
  std::vector<std::uint8_t> a, b, c, inputs, aux;
  std::vector<std::uint64_t> a_aux, b_input, b_aux;
  bellperson::CircuitShape shape;
  zkp_synthesized_t record = make<zkp_synthesized_t>();

  CallerInput(bool montgomery) {
    const R1cs r1cs = read_r1cs(ByteSource::from_file(kCircuit + "circuit.r1cs"));
    const Wtns wtns = read_wtns(ByteSource::from_file(kCircuit + "witness.wtns"));
    shape = bellperson::shape_of(r1cs);
    ThreadPool pool(2);
    std::optional<std::uint64_t> bad;
    const auto s = bellperson::synthesize<Fr>(r1cs, shape, groth16::load_assignment<Fr>(wtns.values(), wtns.size(), "w"),
                                              pool, bad);
    if (bad) throw std::runtime_error("the committed witness does not satisfy its circuit");
    const auto put = [montgomery](std::vector<std::uint8_t>& out, const Fr& v) {
      const Fr::Int x = montgomery ? v.mont() : v.to_bigint();
      const auto* p = reinterpret_cast<const std::uint8_t*>(x.limbs.data());
      out.insert(out.end(), p, p + ZKP_SCALAR_SIZE);
    };
    for (std::size_t i = 0; i < s.a.size(); ++i) put(a, s.a[i]), put(b, s.b[i]), put(c, s.c[i]);
    for (std::size_t i = 0; i < s.variables.size(); ++i) {
      put(i < shape.num_inputs ? inputs : aux, Fr::from_bigint_reduce(s.variables[i]));
    }
    a_aux = shape.a_aux;
    b_input = shape.b_input;
    b_aux = shape.b_aux;
    record.flags = montgomery ? ZKP_SYNTHESIZED_MONTGOMERY : 0u;
    record.a = a.data();
    record.b = b.data();
    record.c = c.data();
    record.abc_length = s.a.size();
    record.assignment = inputs.data();
    record.assignment_length = shape.num_inputs;
    record.aux_assignment = aux.data();
    record.aux_assignment_length = shape.num_aux;
    record.a_aux_density = a_aux.data();
    record.a_aux_bit_len = shape.num_aux;
    record.b_input_density = b_input.data();
    record.b_input_bit_len = shape.num_inputs;
    record.b_aux_density = b_aux.data();
    record.b_aux_bit_len = shape.num_aux;
  }
};

zkp_status_t prove_external(zkp_prover_t* p, zkp_key_t* key, const zkp_synthesized_t& ext, Output& o,
                            zkp_error_t& err) {
  const auto rs = randomness();
  auto in = make<zkp_prove_input_t>();
  in.external = &ext;
  in.randomness = rs.data();
  zkp_prove_op_t* op = nullptr;
  const zkp_status_t s = p->prove_start(p, key, &in, 0, 0, &op, &err);
  if (s != ZKP_OK) return s;
  return p->prove_finish(p, op, &o.out, &err);
}

TEST(CpuPluginBellperson, KeyInfoDescribesTheParameters) {
  auto p = make_prover("");
  Key key;
  zkp_error_t err = make<zkp_error_t>();
  ASSERT_EQ(test::load_key(p.get(), ZKPIPE_BELLPERSON_PARAMS, -1, key, err, ZKP_KEY_FORMAT_BELLPERSON), ZKP_OK) << err.message;
  const auto info = test::info_of(p.get(), key.key);
  EXPECT_EQ(info.curve, ZKP_CURVE_BLS12_381);
  EXPECT_EQ(info.n_vars, 547u);  // tests/vectors/README.md: many_public, 547 wires, 34 public
  EXPECT_EQ(info.n_public, 34u);
  EXPECT_EQ(info.domain_size, 1024u);  // 513 constraints + 35 input rows
  EXPECT_EQ(info.proof_size, ZKP_PROOF_SIZE_BLS12_381);
  // Without the circuit the key cannot synthesize a witness, and says how to.
  zkp_synthesis_t* syn = nullptr;
  const auto w = test::wtns_file(kCircuit + "witness.wtns");
  EXPECT_EQ(p->synthesize(p.get(), key.key, w.get(), &syn, &err), ZKP_ERR_UNSUPPORTED);
  EXPECT_NE(std::string(err.message).find("key option r1cs"), std::string::npos) << err.message;
}

TEST(CpuPluginBellperson, CallerSynthesisInEitherFormMatchesTheWitnessPathByteForByte) {
  auto p = make_prover(kCircuit + "circuit.r1cs");
  Key key;
  zkp_error_t err = make<zkp_error_t>();
  ASSERT_EQ(test::load_key(p.get(), ZKPIPE_BELLPERSON_PARAMS, -1, key, err, ZKP_KEY_FORMAT_BELLPERSON), ZKP_OK) << err.message;
  const auto info = test::info_of(p.get(), key.key);
  Output from_wtns(info);
  const auto rs = randomness();
  ASSERT_EQ(test::prove(p.get(), key.key, test::wtns_file(kCircuit + "witness.wtns"), rs.data(), 0, 0, from_wtns, err),
            ZKP_OK)
      << err.message;
  EXPECT_TRUE(from_wtns.out.flags & ZKP_PROVE_OUTPUT_VERIFIED);
  for (bool montgomery : {true, false}) {
    SCOPED_TRACE(montgomery ? "montgomery" : "standard");
    CallerInput caller(montgomery);
    Output o(info);
    ASSERT_EQ(prove_external(p.get(), key.key, caller.record, o, err), ZKP_OK) << err.message;
    EXPECT_EQ(o.proof, from_wtns.proof);
    EXPECT_EQ(o.publics, from_wtns.publics);
    // The assignment in one piece instead of inputs + aux.
    std::vector<std::uint8_t> whole = caller.inputs;
    whole.insert(whole.end(), caller.aux.begin(), caller.aux.end());
    zkp_synthesized_t joined = caller.record;
    joined.assignment = whole.data();
    joined.assignment_length = info.n_vars;
    joined.aux_assignment = nullptr;
    joined.aux_assignment_length = 0;
    Output o2(info);
    ASSERT_EQ(prove_external(p.get(), key.key, joined, o2, err), ZKP_OK) << err.message;
    EXPECT_EQ(o2.proof, from_wtns.proof);
  }
  int32_t valid = 0;
  ASSERT_EQ(p->verify(p.get(), key.key, from_wtns.proof.data(), from_wtns.proof.size(), from_wtns.publics.data(),
                      from_wtns.publics.size(), &valid, &err),
            ZKP_OK)
      << err.message;
  EXPECT_EQ(valid, 1);
}

// zkp_prover_t.prove_wait: once it returns, the caller's buffers are no longer read; they are
// overwritten here before prove_finish, and the proof is still the same bytes.
TEST(CpuPluginBellperson, AfterProveWaitTheCallersBuffersAreNotRead) {
  auto p = make_prover(kCircuit + "circuit.r1cs");
  ASSERT_GE(p->header.struct_size, offsetof(zkp_prover_t, prove_wait) + sizeof(p->prove_wait));
  ASSERT_NE(p->prove_wait, nullptr);
  Key key;
  zkp_error_t err = make<zkp_error_t>();
  ASSERT_EQ(test::load_key(p.get(), ZKPIPE_BELLPERSON_PARAMS, -1, key, err, ZKP_KEY_FORMAT_BELLPERSON), ZKP_OK) << err.message;
  const auto info = test::info_of(p.get(), key.key);
  for (bool montgomery : {true, false}) {
    SCOPED_TRACE(montgomery ? "montgomery" : "standard");
    CallerInput reference(montgomery);
    Output expected(info);
    ASSERT_EQ(prove_external(p.get(), key.key, reference.record, expected, err), ZKP_OK) << err.message;

    CallerInput caller(montgomery);
    const auto rs = randomness();
    auto in = make<zkp_prove_input_t>();
    in.external = &caller.record;
    in.randomness = rs.data();
    zkp_prove_op_t* op = nullptr;
    ASSERT_EQ(p->prove_start(p.get(), key.key, &in, 0, 0, &op, &err), ZKP_OK) << err.message;
    ASSERT_EQ(p->prove_wait(p.get(), op, &err), ZKP_OK) << err.message;
    for (std::vector<std::uint8_t>* v : {&caller.a, &caller.b, &caller.c, &caller.inputs, &caller.aux}) {
      std::fill(v->begin(), v->end(), std::uint8_t{0xA5});
    }
    for (std::vector<std::uint64_t>* v : {&caller.a_aux, &caller.b_input, &caller.b_aux}) std::fill(v->begin(), v->end(), 0);
    Output o(info);
    ASSERT_EQ(p->prove_finish(p.get(), op, &o.out, &err), ZKP_OK) << err.message;
    EXPECT_EQ(o.proof, expected.proof);
    EXPECT_EQ(o.publics, expected.publics);
  }
}

// ZKP_PROVE_INPUT_FINAL on a bellperson key's own synthesis: the H step works in its a, b, c;
// the proof is the same bytes, and the consumed synthesis is refused if passed again.
TEST(CpuPluginBellperson, AHandedOverSynthesisGivesTheSameProofAndIsThenRefused) {
  auto p = make_prover(kCircuit + "circuit.r1cs");
  Key key;
  zkp_error_t err = make<zkp_error_t>();
  ASSERT_EQ(test::load_key(p.get(), ZKPIPE_BELLPERSON_PARAMS, -1, key, err, ZKP_KEY_FORMAT_BELLPERSON), ZKP_OK) << err.message;
  const auto info = test::info_of(p.get(), key.key);
  const auto w = test::wtns_file(kCircuit + "witness.wtns");
  zkp_synthesis_t* syn = nullptr;
  ASSERT_EQ(p->synthesize(p.get(), key.key, w.get(), &syn, &err), ZKP_OK) << err.message;
  const auto rs = randomness();
  auto in = make<zkp_prove_input_t>();
  in.synthesis = syn;
  in.randomness = rs.data();
  const auto prove_once = [&](Output& o) {
    zkp_prove_op_t* op = nullptr;
    const zkp_status_t s = p->prove_start(p.get(), key.key, &in, 0, 0, &op, &err);
    return s != ZKP_OK ? s : p->prove_finish(p.get(), op, &o.out, &err);
  };
  Output kept(info), handed(info);
  ASSERT_EQ(prove_once(kept), ZKP_OK) << err.message;
  in.flags = ZKP_PROVE_INPUT_FINAL;
  ASSERT_EQ(prove_once(handed), ZKP_OK) << err.message;
  EXPECT_EQ(handed.proof, kept.proof);
  Output again(info);
  EXPECT_EQ(prove_once(again), ZKP_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(err.message).find("ZKP_PROVE_INPUT_FINAL"), std::string::npos) << err.message;
  p->synthesis_free(p.get(), syn);
}

TEST(CpuPluginBellperson, MalformedCallerInputNamesTheField) {
  auto p = make_prover("");
  Key key;
  zkp_error_t err = make<zkp_error_t>();
  ASSERT_EQ(test::load_key(p.get(), ZKPIPE_BELLPERSON_PARAMS, -1, key, err, ZKP_KEY_FORMAT_BELLPERSON), ZKP_OK) << err.message;
  const auto info = test::info_of(p.get(), key.key);
  const auto expect = [&](zkp_synthesized_t ext, zkp_status_t status, const std::string& words) {
    Output o(info);
    EXPECT_EQ(prove_external(p.get(), key.key, ext, o, err), status) << words << ": " << err.message;
    EXPECT_NE(std::string(err.message).find(words), std::string::npos) << err.message;
  };
  CallerInput caller(true);
  zkp_synthesized_t e = caller.record;
  e.a_aux_bit_len = caller.shape.num_aux - 1;
  expect(e, ZKP_ERR_BAD_INPUT, "a_aux_density has bit_len");
  e = caller.record;
  e.b_aux_density = nullptr;  // "every aux variable in B": more than the key's b queries hold
  expect(e, ZKP_ERR_BAD_INPUT, "b_input_density and b_aux_density have 33 + 512 bits set");
  e = caller.record;
  std::vector<std::uint64_t> fewer = caller.a_aux;
  for (auto& w : fewer) {
    if (w != 0) {
      w &= w - 1;  // one bit less
      break;
    }
  }
  e.a_aux_density = fewer.data();
  expect(e, ZKP_ERR_BAD_INPUT, "a_aux_density has");
  e = caller.record;
  e.abc_length = info.domain_size + 1;
  expect(e, ZKP_ERR_BAD_INPUT, "abc_length");
  e = caller.record;
  e.aux_assignment_length -= 1;
  expect(e, ZKP_ERR_BAD_INPUT, "aux_assignment_length");
  std::vector<std::uint8_t> c = caller.c;
  c[5 * ZKP_SCALAR_SIZE] ^= 1;  // C·w wrong at row 5: a·b != c there
  e = caller.record;
  e.c = c.data();
  expect(e, ZKP_ERR_UNSATISFIED_WITNESS, "row 5");
  std::vector<std::uint8_t> high = caller.aux;
  std::memset(high.data() + 7 * ZKP_SCALAR_SIZE, 0xff, ZKP_SCALAR_SIZE);  // not below r in either form
  e = caller.record;
  e.aux_assignment = high.data();
  expect(e, ZKP_ERR_BAD_INPUT, "aux_assignment[7]");
  // A first-release caller (struct_size without the new fields) is read as standard form,
  // whole assignment, no densities: "every variable", which this key's a query does not hold.
  e = caller.record;
  e.header.struct_size = static_cast<std::uint32_t>(offsetof(zkp_synthesized_t, flags));
  expect(e, ZKP_ERR_BAD_INPUT, "a_aux_density has 512 bits set; the key's a query holds 384 aux variables");
}

TEST(CpuPluginBellperson, AZkeyKeyRefusesDensityBitmaps) {
  auto p = make_prover("");
  Key key;
  zkp_error_t err = make<zkp_error_t>();
  ASSERT_EQ(test::load_key(p.get(), kCircuit + "circuit.zkey", -1, key, err), ZKP_OK) << err.message;
  CallerInput caller(true);
  Output o(test::info_of(p.get(), key.key));
  EXPECT_EQ(prove_external(p.get(), key.key, caller.record, o, err), ZKP_ERR_BAD_INPUT);
  EXPECT_NE(std::string(err.message).find("density bitmaps are for bellperson keys"), std::string::npos) << err.message;
}

TEST(CpuPluginBellperson, ABadParameterFileIsRefusedClearly) {
  auto p = make_prover("");
  Key key;
  zkp_error_t err = make<zkp_error_t>();
  // A zkey read as bellperson parameters: a structure error naming the file, not a crash.
  EXPECT_EQ(test::load_key(p.get(), kCircuit + "circuit.zkey", -1, key, err, ZKP_KEY_FORMAT_BELLPERSON),
            ZKP_ERR_BAD_INPUT);
  EXPECT_NE(std::string(err.message).find("circuit.zkey"), std::string::npos) << err.message;
  Key other;
  EXPECT_EQ(test::load_key(p.get(), kCircuit + "missing.params", -1, other, err, ZKP_KEY_FORMAT_BELLPERSON),
            ZKP_ERR_NOT_FOUND);
  Key unknown;
  EXPECT_EQ(test::load_key(p.get(), ZKPIPE_BELLPERSON_PARAMS, -1, unknown, err, 7u), ZKP_ERR_UNSUPPORTED);
}

}  // namespace
}  // namespace zkp
