// Witnesses: the committed ones parse and fit their keys; wrong field, wrong count, out-of-range
// values and a bad container are refused with messages naming both sides.
#include <gtest/gtest.h>

#include "expect_error.hpp"
#include "core/formats/wtns.hpp"
#include "core/formats/zkey.hpp"
#include "vectors.hpp"

namespace {

using namespace zkp;
using zkp::test::expect_format_error;
using zkp::test::VectorInfo;

const VectorInfo& vec(std::string_view dir) {
  for (const VectorInfo& v : zkp::test::all_vectors()) {
    if (dir == v.dir) return v;
  }
  throw std::runtime_error("no vector " + std::string(dir));
}
std::filesystem::path file(std::string_view dir, const char* name) {
  return zkp::test::vector_dir(vec(dir)) / name;
}

class WtnsVector : public ::testing::TestWithParam<VectorInfo> {};

TEST_P(WtnsVector, ParsesAndMatchesItsKey) {
  const VectorInfo& v = GetParam();
  const Wtns w = read_wtns(ByteSource::from_file(zkp::test::vector_dir(v) / "witness.wtns"),
                           zkp::test::vector_curve(v));
  EXPECT_EQ(w.curve(), zkp::test::vector_curve(v));
  EXPECT_EQ(w.n8(), 32u);
  EXPECT_EQ(w.size(), v.n_witness);
  EXPECT_EQ(w.values().size(), std::size_t{v.n_witness} * 32);
  // Wire 0 is the constant 1.
  EXPECT_EQ(w.value(0)[0], std::byte{1});
  EXPECT_TRUE(all_zero(w.value(0).subspan(1)));
  const Zkey key = read_zkey(ByteSource::from_file(zkp::test::vector_dir(v) / "circuit.zkey"));
  EXPECT_NO_THROW(check_witness_matches(key, w));
}

INSTANTIATE_TEST_SUITE_P(Committed, WtnsVector, ::testing::ValuesIn(zkp::test::all_vectors()),
                         [](const auto& info) { return std::string(info.param.dir); });

TEST(WtnsMismatch, BlsWitnessAgainstBnKey) {
  const Zkey key = read_zkey(ByteSource::from_file(file("chain_bn128", "circuit.zkey")));
  const Wtns w = read_wtns(ByteSource::from_file(file("chain_bls12381", "witness.wtns")));
  expect_format_error(
      [&] { check_witness_matches(key, w); },
      {"witness.wtns", "witness is over BLS12-381's scalar field, the key is for BN254"});
  expect_format_error(
      [&] {
        read_wtns(ByteSource::from_file(file("chain_bls12381", "witness.wtns")), Curve::bn254);
      },
      {"section 1 (header)", "witness is over BLS12-381's scalar field, expected BN254"});
}

TEST(WtnsMismatch, CountDiffersFromKey) {
  const Zkey key = read_zkey(ByteSource::from_file(file("many_public_bn128", "circuit.zkey")));
  const Wtns w = read_wtns(ByteSource::from_file(file("chain_bn128", "witness.wtns")));
  expect_format_error([&] { check_witness_matches(key, w); },
                      {"witness has 2003 values, the key expects 547"});
}

class WtnsMutation : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_ = zkp::test::read_bytes(file("chain_bn128", "witness.wtns"));
    ASSERT_FALSE(bytes_.empty());
    s1_ = zkp::test::section_header_at(bytes_, 1) + 12;
    s2_ = zkp::test::section_header_at(bytes_, 2) + 12;
  }
  Wtns parse() const { return read_wtns(ByteSource::borrow(bytes_, "host witness")); }

  std::vector<std::byte> bytes_;
  std::size_t s1_ = 0, s2_ = 0;
};

TEST_F(WtnsMutation, BorrowedBufferParses) { EXPECT_EQ(parse().size(), 2003u); }

TEST_F(WtnsMutation, Truncated) {
  bytes_.resize(bytes_.size() - 1);
  expect_format_error([&] { parse(); },
                      {"host witness", "section 2", "runs past the end of the file"});
}

TEST_F(WtnsMutation, WrongMagic) {
  bytes_[3] = std::byte{'x'};
  expect_format_error([&] { parse(); }, {"expected 'wtns', found 'wtnx'"});
}

TEST_F(WtnsMutation, CountDisagreesWithValuesSection) {
  zkp::test::put_u32(bytes_, s1_ + 4 + 32, 2004);
  expect_format_error(
      [&] { parse(); },
      {"section 2 (values)", "size 64096 bytes, expected 64128 (nWitness 2004 x n8 32)"});
}

TEST_F(WtnsMutation, ValueNotBelowPrime) {
  for (std::size_t i = 0; i < 32; ++i) bytes_[s2_ + 32 * 7 + i] = std::byte{0xff};
  expect_format_error([&] { parse(); },
                      {"section 2 (values): value 7 at offset", "is not below the prime"});
}

TEST_F(WtnsMutation, UnsupportedPrime) {
  bytes_[s1_ + 4] = std::byte{3};  // r's lowest byte is 1 for both curves
  expect_format_error([&] { parse(); }, {"section 1 (header): prime ",
                                         "is not the scalar field of BN254 or BLS12-381"});
}

}  // namespace
