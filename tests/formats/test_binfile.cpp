// The iden3 container on hand-built files: lookup by id and every structural refusal.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
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
// check_bin_layout reads a file's header and section table only. A 64 GiB sparse file that is no
// zkey (as LoadKey of a large unrelated file would meet) is refused by its magic, without the
// read of the whole file that would first ask for 64 GiB of memory (more than this machine
// offers: the refusal would then be an allocation failure, or the read would take minutes).
class BinLayout : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "zkp_bin_layout_XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::vector<std::byte>& head, std::uint64_t size) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(head.data()),
                                                 static_cast<std::streamsize>(head.size()));
    std::filesystem::resize_file(path, size);  // sparse: holes, not 64 GiB of disk
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(BinLayout, AHugeFileThatIsNoZkeyIsRefusedByItsHeader) {
  const std::string path = write("big", make_file("root", 1, {}), std::uint64_t{64} << 30);
  expect_format_error([&] { zkp::check_bin_layout(path, "zkey", 1); },
                      {"wrong magic at offset 0: expected 'zkey'"});
  const std::string versioned = write("v2", make_file("zkey", 2, {}), std::uint64_t{64} << 30);
  expect_format_error([&] { zkp::check_bin_layout(versioned, "zkey", 1); }, {"unsupported zkey version"});
}

TEST_F(BinLayout, ASectionTableThatRunsPastTheEndIsRefused) {
  std::vector<std::byte> head = make_file("zkey", 1, {{1, "abcd"}, {2, "efgh"}});
  zkp::test::put_u64(head, 12 + 12 + 4 + 4, std::uint64_t{1} << 40);  // section 2 (header at 28) claims 1 TiB
  const std::string path = write("table", head, head.size() + 100);
  expect_format_error([&] { zkp::check_bin_layout(path, "zkey", 1); },
                      {"section 2 (header at offset 28): length 1099511627776 runs past the end of the file"});
}

TEST_F(BinLayout, AWellFormedContainerPassesAndShortOnesAreLeftToTheParser) {
  const std::vector<std::byte> good = make_file("zkey", 1, {{1, "abcd"}, {2, "efgh"}});
  EXPECT_NO_THROW(zkp::check_bin_layout(write("good", good, good.size()), "zkey", 1));
  EXPECT_NO_THROW(zkp::check_bin_layout(write("short", {std::byte{'z'}}, 1), "zkey", 1));
}

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
