// Every committed zkey parses to the numbers snarkjs reads from it; every structural defect,
// made by mutating a valid key, is refused with a message that says what and where.
#include <gtest/gtest.h>

#include <vector>

#include "expect_error.hpp"
#include "core/formats/zkey.hpp"
#include "core/util/thread_pool.hpp"
#include "vectors.hpp"

namespace {

using namespace zkp;
using zkp::test::expect_format_error;
using zkp::test::VectorInfo;

class ZkeyVector : public ::testing::TestWithParam<VectorInfo> {};

TEST_P(ZkeyVector, HeaderAndSectionsMatchSnarkjs) {
  const VectorInfo& v = GetParam();
  const Zkey key = read_zkey(ByteSource::from_file(zkp::test::vector_dir(v) / "circuit.zkey"));
  const ZkeyHeader& h = key.header();
  EXPECT_EQ(h.curve, zkp::test::vector_curve(v));
  EXPECT_EQ(h.n8q, v.n8q);
  EXPECT_EQ(h.n8r, 32u);
  EXPECT_EQ(h.n_vars, v.n_vars);
  EXPECT_EQ(h.n_public, v.n_public);
  EXPECT_EQ(h.domain_size, v.domain_size);
  EXPECT_EQ(key.coefficients().size(), v.n_coefficients);
  const std::uint64_t g1 = 2 * v.n8q, g2 = 4 * v.n8q;
  EXPECT_EQ(h.alpha1.size(), g1);
  EXPECT_EQ(h.delta2.size(), g2);
  const ZkeyPoints& p = key.points();
  EXPECT_EQ(p.ic.size(), (v.n_public + 1) * g1);
  EXPECT_EQ(p.a.size(), v.n_vars * g1);
  EXPECT_EQ(p.b1.size(), v.n_vars * g1);
  EXPECT_EQ(p.b2.size(), v.n_vars * g2);
  EXPECT_EQ(p.c.size(), (v.n_vars - v.n_public - 1) * g1);
  EXPECT_EQ(p.h.size(), v.domain_size * g1);
  // snarkjs appends A[nConstraints + s][s] = 1 for s = 0..nPublic (zkey_new.js): the last
  // nPublic + 1 A-entries by row are exactly those.
  std::uint32_t extra = 0;
  for (std::uint32_t i = 0; i < key.coefficients().size(); ++i) {
    const ZkeyCoefficient c = key.coefficients()[i];
    EXPECT_LT(c.row, v.domain_size);
    if (c.matrix == 0 && c.row >= v.n_constraints) {
      EXPECT_EQ(c.wire, c.row - v.n_constraints);
      ++extra;
    }
  }
  EXPECT_EQ(extra, v.n_public + 1);
}

TEST_P(ZkeyVector, PointValidatorSeesEveryPointAndItsVerdictBecomesTheMessage) {
  const VectorInfo& v = GetParam();
  const auto path = zkp::test::vector_dir(v) / "circuit.zkey";
  std::uint64_t g1_points = 0, g2_points = 0;
  ZkeyReadOptions count_all;
  count_all.validate_points = [&](const PointBatch& b) -> std::optional<std::size_t> {
    EXPECT_EQ(b.encoding, CoordEncoding::montgomery);
    EXPECT_EQ(b.curve, zkp::test::vector_curve(v));
    (b.group == PointGroup::g1 ? g1_points : g2_points) += b.count;
    return std::nullopt;
  };
  read_zkey(ByteSource::from_file(path), count_all);
  // alpha1, beta1, delta1 + IC + A + B1 + C + H, and beta2, gamma2, delta2 + B2.
  EXPECT_EQ(g1_points,
            3 + (v.n_public + 1) + 2ull * v.n_vars + (v.n_vars - v.n_public - 1) + v.domain_size);
  EXPECT_EQ(g2_points, 3 + std::uint64_t{v.n_vars});

  ZkeyReadOptions reject_a3;
  reject_a3.validate_points = [](const PointBatch& b) -> std::optional<std::size_t> {
    if (b.what == "section 5 (A)") return 3;
    return std::nullopt;
  };
  expect_format_error([&] { read_zkey(ByteSource::from_file(path), reject_a3); },
                      {"circuit.zkey", "section 5 (A): point 3 of", "is not a valid", " G1 point"});
}

INSTANTIATE_TEST_SUITE_P(Committed, ZkeyVector, ::testing::ValuesIn(zkp::test::all_vectors()),
                         [](const auto& info) { return std::string(info.param.dir); });

// ---- malformed keys, each a mutation of the committed BN254 chain key ----------------------

class ZkeyMutation : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_ =
        zkp::test::read_bytes(zkp::test::vector_dir(zkp::test::all_vectors()[0]) / "circuit.zkey");
    ASSERT_FALSE(bytes_.empty());
    s2_ = zkp::test::section_header_at(bytes_, 2) + 12;
    s4_ = zkp::test::section_header_at(bytes_, 4) + 12;
    const std::uint32_t n8q = load_u32le(bytes_.data() + s2_);
    n_vars_at_ = s2_ + 4 + n8q + 4 + 32;
  }
  Zkey parse() const { return read_zkey(ByteSource::borrow(bytes_, "mutated.zkey")); }

  std::vector<std::byte> bytes_;
  std::size_t s2_ = 0, s4_ = 0, n_vars_at_ = 0;
};

TEST_F(ZkeyMutation, Unmodified) { EXPECT_EQ(parse().header().n_vars, 2003u); }

TEST_F(ZkeyMutation, TruncatedFile) {
  bytes_.resize(bytes_.size() / 2);
  expect_format_error([&] { parse(); }, {"mutated.zkey", "runs past the end of the file"});
}

TEST_F(ZkeyMutation, WrongMagic) {
  bytes_[0] = std::byte{'Z'};
  expect_format_error([&] { parse(); },
                      {"mutated.zkey", "wrong magic", "expected 'zkey', found 'Zkey'"});
}

TEST_F(ZkeyMutation, UnknownProtocol) {
  zkp::test::put_u32(bytes_, zkp::test::section_header_at(bytes_, 1) + 12, 2);
  expect_format_error([&] { parse(); }, {"section 1 (protocol)",
                                         "protocol 2 (plonk) is not supported; only 1 (groth16)"});
  zkp::test::put_u32(bytes_, zkp::test::section_header_at(bytes_, 1) + 12, 77);
  expect_format_error([&] { parse(); }, {"protocol 77 (unknown)"});
}

TEST_F(ZkeyMutation, WrongSectionSize) {
  zkp::test::put_u32(bytes_, n_vars_at_, 2004);  // one more wire than the A section holds
  expect_format_error(
      [&] { parse(); },
      {"section 5 (A)", "size 128192 bytes, expected 128256 (nVars 2004 x 64-byte points)"});
}

TEST_F(ZkeyMutation, NPublicNotBelowNVars) {
  zkp::test::put_u32(bytes_, n_vars_at_ + 4, 2003);
  expect_format_error([&] { parse(); }, {"nPublic 2003 must be below nVars 2003"});
}

TEST_F(ZkeyMutation, UnknownCurve) {
  bytes_[s2_ + 4] ^= std::byte{1};  // lowest byte of q
  expect_format_error([&] { parse(); }, {"section 2 (groth16 header)",
                                         "unknown curve: q = ", "supported: BN254, BLS12-381"});
}

TEST_F(ZkeyMutation, DomainSizeNotAPowerOfTwo) {
  zkp::test::put_u32(bytes_, n_vars_at_ + 8, 2047);
  expect_format_error([&] { parse(); }, {"domainSize 2047 is not a power of two"});
  zkp::test::put_u32(bytes_, n_vars_at_ + 8, 0);
  expect_format_error([&] { parse(); }, {"domainSize 0 is not a power of two"});
}

TEST_F(ZkeyMutation, CoefficientRowOutOfRange) {
  zkp::test::put_u32(bytes_, s4_ + 4 + 4, 2048);  // entry 0's row
  expect_format_error([&] { parse(); }, {"section 4 (coefficients): entry 0 at offset",
                                         "row 2048 out of range (domainSize 2048)"});
}

TEST_F(ZkeyMutation, CoefficientMatrixAndWireOutOfRange) {
  const std::size_t entry5 = s4_ + 4 + 5 * 44;
  zkp::test::put_u32(bytes_, entry5, 2);
  expect_format_error([&] { parse(); }, {"entry 5", "matrix 2 is neither 0 (A) nor 1 (B)"});
  zkp::test::put_u32(bytes_, entry5, 1);
  zkp::test::put_u32(bytes_, entry5 + 8, 2003);
  expect_format_error([&] { parse(); }, {"entry 5", "wire 2003 out of range (nVars 2003)"});
}

// With a pool the entries are checked in chunks at once; the error must still name the first
// bad entry, not whichever chunk finished first.
TEST_F(ZkeyMutation, CoefficientChecksOnAPoolNameTheFirstBadEntry) {
  zkp::ThreadPool pool(4);
  ZkeyReadOptions options;
  options.pool = &pool;
  const auto parse_on_pool = [&] { return read_zkey(ByteSource::borrow(bytes_, "mutated.zkey"), options); };
  EXPECT_EQ(parse_on_pool().coefficients().size(), parse().coefficients().size());
  zkp::test::put_u32(bytes_, s4_ + 4 + 3900 * 44 + 8, 2003);  // entry 3900's wire, in a later chunk
  zkp::test::put_u32(bytes_, s4_ + 4 + 1500 * 44, 3);         // entry 1500's matrix
  for (int round = 0; round < 20; ++round) {
    expect_format_error(parse_on_pool, {"entry 1500 at offset", "matrix 3 is neither 0 (A) nor 1 (B)"});
  }
}

TEST_F(ZkeyMutation, CoefficientCountDisagreesWithSectionSize) {
  zkp::test::put_u32(bytes_, s4_, 4002);
  expect_format_error([&] { parse(); }, {"section 4 (coefficients)",
                                         "expected 176092 (4 + count 4002 x 44-byte entries)"});
}

TEST_F(ZkeyMutation, MissingSection) {
  zkp::test::put_u32(bytes_, zkp::test::section_header_at(bytes_, 9), 99);
  expect_format_error([&] { parse(); }, {"missing section 9 (H)"});
}

TEST_F(ZkeyMutation, ViewsSurviveMovingTheKey) {
  Zkey a = parse();
  const std::byte* alpha = a.header().alpha1.data();
  Zkey b = std::move(a);
  EXPECT_EQ(b.header().alpha1.data(), alpha);
  EXPECT_EQ(b.name(), "mutated.zkey");
}

}  // namespace
