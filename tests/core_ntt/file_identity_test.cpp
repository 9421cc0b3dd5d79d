// core/util/file_identity.hpp: one unchanged file is one identity whatever path leads to it; a
// rewrite is another; what is no regular file has none.
#include <gtest/gtest.h>

#include "core/util/file_identity.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

class FileIdentityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("zkp_file_identity_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(FileIdentityTest, OneFileWhateverThePath) {
  const fs::path file = dir_ / "key.zkey";
  std::ofstream(file) << "twelve bytes";
  fs::create_symlink(file, dir_ / "link.zkey");
  const auto direct = zkp::file_identity(file.string());
  const auto via_link = zkp::file_identity((dir_ / "link.zkey").string());
  const auto dotted = zkp::file_identity((dir_ / "." / "key.zkey").string());
  ASSERT_TRUE(direct && via_link && dotted);
  EXPECT_EQ(*direct, *via_link);
  EXPECT_EQ(*direct, *dotted);
  EXPECT_EQ(direct->canonical, fs::canonical(file).string());
  EXPECT_EQ(direct->size, 12u);
  EXPECT_EQ(direct->key(), via_link->key());
}

TEST_F(FileIdentityTest, ARewriteIsAnotherFile) {
  const fs::path file = dir_ / "key.zkey";
  std::ofstream(file) << "first";
  const auto before = zkp::file_identity(file.string());
  std::ofstream(file) << "second, longer";
  // The modification time is set by hand: a rewrite within the file system's timestamp
  // granularity must not be what the test depends on.
  fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(2));
  const auto after = zkp::file_identity(file.string());
  ASSERT_TRUE(before && after);
  EXPECT_NE(*before, *after);
  EXPECT_NE(before->key(), after->key());
}

TEST_F(FileIdentityTest, NoIdentityForWhatIsNoRegularFile) {
  EXPECT_FALSE(zkp::file_identity((dir_ / "absent").string()).has_value());
  EXPECT_FALSE(zkp::file_identity(dir_.string()).has_value());
  EXPECT_FALSE(zkp::file_identity("").has_value());
}

}  // namespace
