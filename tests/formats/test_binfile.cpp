// The iden3 container on hand-built files: lookup by id and every structural refusal.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "expect_error.hpp"
#include "core/formats/binfile.hpp"
#include "vectors.hpp"

namespace {

using zkp::BinFile;
using zkp::test::expect_format_error;

// magic | version | n | sections..., each {id, length, payload}.
std::vector<std::byte> make_file(std::string magic, std::uint32_t version,
                                 std::vector<std::pair<std::uint32_t, std::string>> sections) {
  std::vector<std::byte> b;
  for (char c : magic) b.push_back(static_cast<std::byte>(c));
  auto u32 = [&](std::uint32_t v) {
    b.resize(b.size() + 4);
    zkp::test::put_u32(b, b.size() - 4, v);
  };
  u32(version);
  u32(static_cast<std::uint32_t>(sections.size()));
  for (const auto& [id, payload] : sections) {
    u32(id);
    b.resize(b.size() + 8);
    zkp::test::put_u64(b, b.size() - 8, payload.size());
    for (char c : payload) b.push_back(static_cast<std::byte>(c));
  }
  return b;
}

TEST(BinFile, FindsSectionsByIdInAnyOrder) {
  const auto b = make_file("wtns", 2, {{2, "second"}, {1, "first!"}, {7, ""}});
  const BinFile f(b, "t.wtns", "wtns", 2);
  ASSERT_EQ(f.sections().size(), 3u);
  ASSERT_NE(f.find(1), nullptr);
  EXPECT_EQ(f.find(1)->data.size(), 6u);
  EXPECT_EQ(static_cast<char>(f.find(1)->data[0]), 'f');
  EXPECT_EQ(f.find(2)->offset, 12u + 12u);  // file header, then section 2's header
  EXPECT_EQ(f.find(7)->data.size(), 0u);
  EXPECT_EQ(f.find(3), nullptr);
  expect_format_error([&] { f.require(3, "values"); }, {"t.wtns", "missing section 3 (values)"});
  expect_format_error([&] { f.expect_size(*f.find(2), "values", 5, "why"); },
                      {"section 2 (values)", "size 6 bytes, expected 5 (why)"});
}

TEST(BinFile, RejectsWrongMagic) {
  const auto b = make_file("zkez", 1, {});
  expect_format_error([&] { BinFile(b, "k.zkey", "zkey", 1); },
                      {"k.zkey", "wrong magic at offset 0: expected 'zkey', found 'zkez'"});
}

TEST(BinFile, RejectsOtherVersions) {
  const auto b = make_file("wtns", 3, {});
  expect_format_error([&] { BinFile(b, "w", "wtns", 2); }, {"version", "expected 2, found 3"});
}

TEST(BinFile, RejectsTruncatedHeader) {
  auto b = make_file("r1cs", 1, {});
  b.resize(10);
  expect_format_error(
      [&] { BinFile(b, "c.r1cs", "r1cs", 1); },
      {"c.r1cs", "offset 8", "truncated reading section count", "needs 4 bytes, 2 left"});
}

TEST(BinFile, RejectsSectionRunningPastTheEnd) {
  auto b = make_file("r1cs", 1, {{1, "abcdef"}});
  b.resize(b.size() - 2);
  expect_format_error([&] { BinFile(b, "c.r1cs", "r1cs", 1); },
                      {"section 1", "length 6 runs past the end of the file (4 bytes left)"});
}

TEST(BinFile, RejectsTruncatedSectionHeader) {
  auto b = make_file("r1cs", 1, {{1, std::string(20, 'x')}, {2, "y"}});
  b.resize(12 + 32 + 6);  // second section header cut inside its length
  expect_format_error([&] { BinFile(b, "c.r1cs", "r1cs", 1); },
                      {"truncated reading section length"});
}

TEST(BinFile, RejectsDuplicateSections) {
  const auto b = make_file("zkey", 1, {{4, "a"}, {9, "b"}, {4, "c"}});
  expect_format_error([&] { BinFile(b, "k", "zkey", 1); },
                      {"section 4 appears twice", "offsets 24 and 50"});
}

TEST(BinFile, RejectsTrailingBytes) {
  auto b = make_file("zkey", 1, {{1, "abcd"}});
  b.push_back(std::byte{0});
  expect_format_error([&] { BinFile(b, "k", "zkey", 1); },
                      {"1 unexpected bytes after the last of 1 sections"});
}

TEST(BinFile, RejectsImpossibleSectionCount) {
  auto b = make_file("zkey", 1, {{1, "abcd"}});
  zkp::test::put_u32(b, 8, 0xFFFFFFFFu);  // must fail before reserving 4G entries
  expect_format_error([&] { BinFile(b, "k", "zkey", 1); }, {"section count 4294967295 cannot fit"});
}

}  // namespace

namespace {

// all_zero (bytes.hpp) reads eight bytes at a time and then the tail: one set byte anywhere, in
// a word or in the tail, at every length from 0 to 40, makes it false.
TEST(Bytes, AllZeroSeesEveryByteInWordsAndTail) {
  for (std::size_t n = 0; n <= 40; ++n) {
    std::vector<std::byte> b(n);
    EXPECT_TRUE(zkp::all_zero(zkp::ByteView(b.data(), b.size()))) << n;
    for (std::size_t i = 0; i < n; ++i) {
      b[i] = std::byte{0x80};
      EXPECT_FALSE(zkp::all_zero(zkp::ByteView(b.data(), b.size()))) << n << " " << i;
      b[i] = std::byte{0};
    }
  }
}

}  // namespace
