// The prover's r1cs check (core/groth16/r1cs_check.hpp), the one that the `r1cs` key option
// runs before synthesis, over every committed circuit with an r1cs on both curves: the
// committed witness satisfies its circuit, a changed wire is caught, the index reported is the
// first failing constraint whatever the pool size (the search is split across threads), and a
// circuit that is not the key's is refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/formats/error.hpp"
#include "core/formats/r1cs.hpp"
#include "core/formats/wtns.hpp"
#include "core/formats/zkey.hpp"
#include "core/groth16/prover.hpp"
#include "core/groth16/r1cs_check.hpp"
#include "core/groth16/witness.hpp"
#include "core/util/thread_pool.hpp"
#include "groups.hpp"
#include "test_data.hpp"

namespace zkp::groth16 {
namespace {

namespace fs = std::filesystem;

// Every folder under the two data roots with a circuit.r1cs and a witness for this curve.
template <class E>
std::vector<fs::path> circuit_dirs() {
  return test::vector_dirs<E>(test::data_dir(), ZKPIPE_VECTORS_DATA_DIR, {"circuit.r1cs", "witness.wtns"});
}

template <class E>
struct Circuit {
  using Fr = typename E::Fr;
  R1cs r1cs;
  std::vector<typename Fr::Int> witness;

  explicit Circuit(const fs::path& dir)
      : r1cs(read_r1cs(ByteSource::from_file(dir / "circuit.r1cs"))) {
    const Wtns w = read_wtns(ByteSource::from_file(dir / "witness.wtns"));
    witness = load_assignment<Fr>(w.values(), w.size(), w.name());
  }

  std::optional<std::uint32_t> first_unsatisfied(unsigned threads) const {
    ThreadPool pool(threads);
    return first_unsatisfied_constraint<Fr>(r1cs, witness, pool);
  }
};

template <class E>
class R1csCheckTest : public ::testing::Test {};
using Engines = ::testing::Types<bn254::Engine, bls12_381::Engine>;
TYPED_TEST_SUITE(R1csCheckTest, Engines);

TYPED_TEST(R1csCheckTest, CommittedWitnessesSatisfyTheirCircuits) {
  const auto dirs = circuit_dirs<TypeParam>();
  ASSERT_GE(dirs.size(), 3u) << "the committed vectors are missing";
  for (const fs::path& dir : dirs) {
    SCOPED_TRACE(dir.string());
    EXPECT_EQ(Circuit<TypeParam>(dir).first_unsatisfied(2), std::nullopt);
  }
}

TYPED_TEST(R1csCheckTest, AChangedWireIsFoundAtTheSameFirstConstraintOnAnyPool) {
  using Fr = typename TypeParam::Fr;
  for (const fs::path& dir : circuit_dirs<TypeParam>()) {
    SCOPED_TRACE(dir.string());
    Circuit<TypeParam> c(dir);
    // The last wire is an internal signal: adding one to it must break some constraint.
    Fr last = Fr::from_bigint_reduce(c.witness.back());
    last += Fr::one();
    c.witness.back() = last.to_bigint();
    const auto serial = c.first_unsatisfied(1);
    ASSERT_TRUE(serial.has_value());
    for (const unsigned threads : {2u, 3u, 8u}) EXPECT_EQ(c.first_unsatisfied(threads), serial) << threads;
    // "First": every constraint before the reported one holds, since the one-thread search
    // walks them in order; the many-thread searches must agree with it exactly.
    EXPECT_LT(*serial, c.r1cs.size());
  }
}

TYPED_TEST(R1csCheckTest, AWitnessOfTheWrongSizeIsRefused) {
  Circuit<TypeParam> c(circuit_dirs<TypeParam>().front());
  c.witness.pop_back();
  EXPECT_THROW(c.first_unsatisfied(2), std::invalid_argument);
}

TYPED_TEST(R1csCheckTest, TheCircuitOfAnotherKeyIsRefusedByName) {
  const auto dirs = circuit_dirs<TypeParam>();
  ASSERT_GE(dirs.size(), 2u);
  const R1cs r1cs = read_r1cs(ByteSource::from_file(dirs[0] / "circuit.r1cs"));
  for (std::size_t i = 1; i < dirs.size(); ++i) {
    const Zkey key = read_zkey(ByteSource::from_file(dirs[i] / "circuit.zkey"));
    if (key.header().n_vars == r1cs.header().n_wires) continue;  // the same circuit again
    try {
      check_r1cs_matches(r1cs, key);
      ADD_FAILURE() << dirs[0] << " accepted for the key of " << dirs[i];
    } catch (const FormatError& e) {
      EXPECT_NE(std::string(e.what()).find("does not match the key"), std::string::npos) << e.what();
    }
    return;
  }
  GTEST_FAIL() << "no two different circuits among the committed vectors";
}

TYPED_TEST(R1csCheckTest, EachCircuitMatchesItsOwnKey) {
  for (const fs::path& dir : circuit_dirs<TypeParam>()) {
    if (!fs::exists(dir / "circuit.zkey")) continue;
    SCOPED_TRACE(dir.string());
    const R1cs r1cs = read_r1cs(ByteSource::from_file(dir / "circuit.r1cs"));
    const Zkey key = read_zkey(ByteSource::from_file(dir / "circuit.zkey"));
    EXPECT_NO_THROW(check_r1cs_matches(r1cs, key));
  }
}

}  // namespace
}  // namespace zkp::groth16
