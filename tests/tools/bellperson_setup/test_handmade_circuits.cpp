// Circuits written byte by byte (the .r1cs v1 layout of SNARKJS-FORMATS.md), small enough that
// every expected count is worked out by hand below, and shaped to hit the cases the committed
// circuits reach only in bulk: an aux variable in no A, an input and an aux in no B, a
// coefficient other than one, and an aux variable in no constraint at all.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "core/formats/curve.hpp"
#include "expected_params.hpp"

namespace {

using namespace zkp;
using namespace zkp::bellperson_setup;
using namespace zkp::bellperson_setup::test;

struct Term {
  std::uint32_t wire;
  std::uint64_t coefficient;
};
using Lc = std::vector<Term>;
struct Row {
  Lc a, b, c;
};

class Bytes {
 public:
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b_.push_back(static_cast<std::byte>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) b_.push_back(static_cast<std::byte>(v >> (8 * i)));
  }
  void raw(ByteView v) {
    for (const std::byte x : v) b_.push_back(x);
  }
  void section(std::uint32_t id, const Bytes& payload) {
    u32(id);
    u64(payload.b_.size());
    raw(payload.b_);
  }
  std::vector<std::byte> take() { return std::move(b_); }

 private:
  std::vector<std::byte> b_;
};

// A BLS12-381 r1cs: wire 0 the constant, then n_pub_out outputs, no public inputs, n_prv private.
R1cs make_r1cs(std::uint32_t n_wires, std::uint32_t n_pub_out, std::uint32_t n_prv, const std::vector<Row>& rows) {
  const CurveInfo& bls = curve_info(Curve::bls12_381);
  Bytes header;
  header.u32(bls.n8r);
  header.raw(bls.r);
  for (const std::uint32_t v : {n_wires, n_pub_out, 0u, n_prv}) header.u32(v);
  header.u64(n_wires);  // one label per wire
  header.u32(static_cast<std::uint32_t>(rows.size()));
  Bytes constraints;
  for (const Row& r : rows)
    for (const Lc* lc : {&r.a, &r.b, &r.c}) {
      constraints.u32(static_cast<std::uint32_t>(lc->size()));
      for (const Term& t : *lc) {
        constraints.u32(t.wire);
        constraints.u64(t.coefficient);
        for (int i = 0; i < 3; ++i) constraints.u64(0);  // the coefficient's upper 24 bytes
      }
    }
  Bytes labels;
  for (std::uint32_t w = 0; w < n_wires; ++w) labels.u64(w);
  Bytes file;
  file.raw(std::as_bytes(std::span("r1cs", 4)));
  file.u32(1);  // version
  file.u32(3);  // sections
  file.section(1, header);
  file.section(2, constraints);
  file.section(3, labels);
  return read_r1cs(ByteSource::adopt(file.take(), "handmade.r1cs"));
}

// Wires: 0 one, 1 out (public), 2 x (private), 3 t, 4 u.
//   x · x = t      t · 2 = u      1 · u = out
// Inputs 0, 1 (num_inputs 2), aux 2, 3, 4. A holds 2, 3, 0 and, by the input rows, 1: a keeps
// variables 0..3 and drops u. B holds 2, 0, 4: b drops the input out and the aux t.
// Rows 3 + 2 = 5, m = 8, h = 7.
const std::vector<Row> kSquareDouble{
    {{{2, 1}}, {{2, 1}}, {{3, 1}}},
    {{{3, 1}}, {{0, 2}}, {{4, 1}}},
    {{{0, 1}}, {{4, 1}}, {{1, 1}}},
};

TEST(HandmadeCircuit, DensityFiltersDropTheVariablesMissingFromAAndB) {
  const R1cs cs = make_r1cs(5, 1, 1, kSquareDouble);
  const ParsedParams p = parse(generate(cs, 3));
  EXPECT_EQ(p.ic.size(), 2u);
  EXPECT_EQ(p.h.size(), 7u);
  EXPECT_EQ(p.l.size(), 3u);
  EXPECT_EQ(p.a.size(), 4u);
  EXPECT_EQ(p.b_g1.size(), 3u);
  EXPECT_EQ(p.b_g2.size(), 3u);
  const Shape s(cs);
  EXPECT_EQ(s.in_a, (std::set<std::uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(s.in_b, (std::set<std::uint32_t>{0, 2, 4}));
  expect_values(cs, p, s, 3, {2, 3, 4});  // every variable, so every point of ic, l, a, b
}

TEST(HandmadeCircuit, AuxInNoConstraintIsRefusedAsBellpersonDoes) {
  const R1cs cs = make_r1cs(6, 1, 1, kSquareDouble);  // wire 5 appears nowhere
  ThreadPool pool(1);
  std::ostringstream out;
  try {
    write_params(cs, draw_toxic_waste(3), out, pool);
    FAIL() << "an unconstrained aux variable was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("wire 5"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("UnconstrainedVariable"), std::string::npos) << e.what();
  }
}

}  // namespace
