// MappedFile / ByteSource: mapping, the read fallback for non-regular files, ownership.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/formats/error.hpp"
#include "core/formats/mapped_file.hpp"

namespace {

using namespace zkp;
namespace fs = std::filesystem;

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("zkp_formats_test_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path write(const char* name, const std::string& content) {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  fs::path dir_;
};

std::string text(ByteView b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

TEST_F(TempDir, RegularFileIsMapped) {
  const MappedFile f(write("a.bin", "hello zkey"));
  EXPECT_TRUE(f.is_mapped());
  EXPECT_EQ(text(f.bytes()), "hello zkey");
}

TEST_F(TempDir, EmptyFileIsReadNotMapped) {
  const MappedFile f(write("empty.bin", ""));
  EXPECT_FALSE(f.is_mapped());  // mmap of length 0 is an error, so empty files take the read path
  EXPECT_TRUE(f.bytes().empty());
}

TEST_F(TempDir, FifoIsReadIntoMemory) {
  const fs::path p = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  const std::string payload(200000, 'w');  // more than one 64 KiB read
  std::thread writer([&] { std::ofstream(p, std::ios::binary) << payload; });
  const MappedFile f(p);
  writer.join();
  EXPECT_FALSE(f.is_mapped());
  EXPECT_EQ(text(f.bytes()), payload);
}

TEST_F(TempDir, MissingFileIsAnIoError) {
  try {
    MappedFile f(dir_ / "nope.zkey");
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("nope.zkey: cannot open"), std::string::npos) << e.what();
  }
}

TEST_F(TempDir, MovedSourcesKeepTheirBytesInPlace) {
  ByteSource a = ByteSource::from_file(write("m.bin", "mapped bytes"));
  const std::byte* at = a.bytes().data();
  ByteSource b = std::move(a);
  EXPECT_EQ(b.bytes().data(), at);
  EXPECT_EQ(text(b.bytes()), "mapped bytes");
  EXPECT_EQ(b.name(), (dir_ / "m.bin").string());

  std::vector<std::byte> v(3, std::byte{7});
  ByteSource c = ByteSource::adopt(std::move(v), "adopted");
  const std::byte* vat = c.bytes().data();
  ByteSource d = std::move(c);
  EXPECT_EQ(d.bytes().data(), vat);
  EXPECT_EQ(d.bytes().size(), 3u);
}

TEST(ByteSource, BorrowDoesNotCopy) {
  const std::byte buf[4] = {};
  const ByteSource s = ByteSource::borrow(buf, "host buffer");
  EXPECT_EQ(s.bytes().data(), buf);
  EXPECT_EQ(s.name(), "host buffer");
}

}  // namespace
