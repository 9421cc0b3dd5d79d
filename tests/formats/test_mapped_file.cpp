// FileContents / ByteSource: owned copies of regular files, refusals of everything else, ownership.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

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

TEST_F(TempDir, RegularFileIsReadIntoOwnedMemory) {
  const FileContents f(write("a.bin", "hello zkey"));
  EXPECT_EQ(text(f.bytes()), "hello zkey");
  // map_large's memory: 2 MiB-aligned, so a key's buffer can be huge pages from its first byte.
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(f.bytes().data()) % (std::uintptr_t{2} << 20), 0u);
}

TEST_F(TempDir, EmptyFileIsEmpty) {
  const FileContents f(write("empty.bin", ""));
  EXPECT_TRUE(f.bytes().empty());
}

// `cp new.zkey circuit.zkey` over a file zkpipe holds: the bytes it read must stay readable and
// unchanged (with an mmap the truncated pages were SIGBUS at the next read).
TEST_F(TempDir, TruncatingTheFileLeavesTheReadBytesIntact) {
  const std::string payload(3 * 4096 + 17, 'k');
  const fs::path p = write("key.zkey", payload);
  const ByteSource src = ByteSource::from_file(p);
  fs::resize_file(p, 0);
  std::ofstream(p, std::ios::binary) << "new";
  EXPECT_EQ(text(src.bytes()), payload);  // every page touched
}

// With a pool a large file is read in 8 MiB pieces on its threads: every byte must land where a
// single read puts it, the last piece short, and a pool of one thread reads it whole.
TEST_F(TempDir, APoolReadsALargeFileInPiecesByteForByte) {
  std::string payload(3 * (std::size_t{8} << 20) + 4097, '\0');
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<char>((i * 2654435761u) >> 13);
  const fs::path p = write("large.zkey", payload);
  for (const unsigned threads : {1u, 2u, 5u}) {
    ThreadPool pool(threads);
    const ByteSource src = ByteSource::from_file(p, UINT64_MAX, &pool);
    EXPECT_TRUE(text(src.bytes()) == payload) << threads << " threads";
  }
}

std::string error_of(const fs::path& p, std::uint64_t max_size = UINT64_MAX) {
  try {
    FileContents f(p, max_size);
  } catch (const FormatError& e) {
    return e.what();
  } catch (const IoError& e) {
    return std::string("IoError: ") + e.what();
  }
  return "no error";
}

// Nothing is read from a non-regular file: a FIFO without a writer would block the reading
// thread for ever, /dev/zero would grow memory until bad_alloc.
TEST_F(TempDir, FifoIsRefusedWithoutBlocking) {
  const fs::path p = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  EXPECT_EQ(error_of(p), p.string() + ": is a FIFO, not a regular file (zkpipe reads only regular files)");
}

TEST_F(TempDir, DevicesAndDirectoriesAreRefused) {
  EXPECT_EQ(error_of("/dev/zero"), "/dev/zero: is a character device, not a regular file (zkpipe reads only regular files)");
  EXPECT_EQ(error_of("/dev/urandom"),
            "/dev/urandom: is a character device, not a regular file (zkpipe reads only regular files)");
  EXPECT_EQ(error_of(dir_), dir_.string() + ": is a directory, not a regular file (zkpipe reads only regular files)");
}

TEST_F(TempDir, FileLargerThanTheBoundIsRefusedBeforeReading) {
  const fs::path p = write("big.wtns", std::string(1000, 'w'));
  EXPECT_EQ(error_of(p, 999), p.string() + ": is 1000 bytes, more than the 999 bytes it can be here");
  EXPECT_EQ(error_of(p, 1000), "no error");
}

TEST_F(TempDir, ReadTextFileRefusesAFifo) {
  const fs::path p = dir_ / "config.ini";
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  EXPECT_THROW(read_text_file(p), FormatError);
  EXPECT_EQ(read_text_file(write("c.ini", "a = 1\n")), "a = 1\n");
}

TEST_F(TempDir, MissingFileIsAnIoError) {
  try {
    FileContents f(dir_ / "nope.zkey");
    FAIL() << "expected IoError";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("nope.zkey: cannot open"), std::string::npos) << e.what();
  }
}

TEST_F(TempDir, MovedSourcesKeepTheirBytesInPlace) {
  ByteSource a = ByteSource::from_file(write("m.bin", "file bytes"));
  const std::byte* at = a.bytes().data();
  ByteSource b = std::move(a);
  EXPECT_EQ(b.bytes().data(), at);
  EXPECT_EQ(text(b.bytes()), "file bytes");
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

// discard gives back the pages wholly inside the range (they read as zeros) and leaves every
// byte outside it, the partial first and last pages included, as it was.
TEST_F(TempDir, DiscardZeroesOnlyWholePagesInsideTheRange) {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::string payload(5 * page, 'k');
  ByteSource src = ByteSource::from_file(write("d.zkey", payload));
  const ByteView all = src.bytes();
  const std::size_t lo = page / 2, hi = 4 * page + 3;  // pages 1, 2, 3 lie wholly inside
  src.discard(all.subspan(lo, hi - lo));
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool zeroed = i >= page && i < 4 * page;
    ASSERT_EQ(all[i], zeroed ? std::byte{0} : std::byte{'k'}) << "byte " << i;
  }
}

TEST(ByteSource, DiscardLeavesBorrowedAndAdoptedBytesAlone) {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<std::byte> buf(4 * page, std::byte{9});
  ByteSource borrowed = ByteSource::borrow(buf, "host buffer");
  borrowed.discard(borrowed.bytes());
  EXPECT_EQ(buf[2 * page], std::byte{9});
  ByteSource adopted = ByteSource::adopt(std::vector<std::byte>(4 * page, std::byte{5}), "adopted");
  adopted.discard(adopted.bytes());
  EXPECT_EQ(adopted.bytes()[2 * page], std::byte{5});
}

}  // namespace
