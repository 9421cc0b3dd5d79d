// services::PathPolicy, on a folder tree the test makes: which paths a remote caller may name.
#include "services/path_policy.hpp"

#include <zkpipe/sdk/error.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace zkp::services {
namespace {

namespace fs = std::filesystem;

class PathPolicyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "zkp_path_policy_XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root_ = fs::canonical(pattern);
    fs::create_directories(root_ / "keys" / "sub");
    fs::create_directories(root_ / "keys2");
    fs::create_directories(root_ / "outside");
    std::ofstream(root_ / "keys" / "a.zkey") << "zkey";
    std::ofstream(root_ / "keys" / "sub" / "b.zkey") << "zkey";
    std::ofstream(root_ / "keys2" / "c.zkey") << "zkey";
    std::ofstream(root_ / "outside" / "secret") << "root";
    fs::create_symlink(root_ / "outside" / "secret", root_ / "keys" / "to_secret");
    fs::create_symlink(root_ / "outside", root_ / "keys" / "to_outside");
    fs::create_symlink(root_ / "keys" / "a.zkey", root_ / "outside" / "to_key");
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string at(const std::string& rel) const { return (root_ / rel).string(); }

  fs::path root_;
};

TEST_F(PathPolicyTest, AdmitsWhatLiesInsideAFolder) {
  const PathPolicy p({at("keys")});
  ASSERT_TRUE(p.restricted());
  EXPECT_EQ(p.admit(at("keys/a.zkey")), at("keys/a.zkey"));
  EXPECT_EQ(p.admit(at("keys/sub/b.zkey")), at("keys/sub/b.zkey"));
  EXPECT_EQ(p.admit(at("keys/sub/../a.zkey")), at("keys/a.zkey"));
  // Missing inside the folder: admitted (the load then says it is missing).
  EXPECT_EQ(p.admit(at("keys/missing.zkey")), at("keys/missing.zkey"));
  // A symlink from elsewhere into the folder: what it names is inside.
  EXPECT_EQ(p.admit(at("outside/to_key")), at("keys/a.zkey"));
}

TEST_F(PathPolicyTest, RefusesEverythingElseAlike) {
  const PathPolicy p({at("keys")});
  for (const std::string& path :
       {at("outside/secret"), at("outside/missing"), at("keys/to_secret"), at("keys/to_outside/secret"),
        at("keys/../outside/secret"), at("keys2/c.zkey"), at("keys"), at("keys/sub/../../outside"),
        std::string("/etc/passwd"), std::string("/nonexistent/x"), std::string(), std::string("a\0b", 3)}) {
    EXPECT_EQ(p.admit(path), std::nullopt) << path;
  }
}

TEST_F(PathPolicyTest, SeveralFoldersAndTheirList) {
  const PathPolicy p({at("keys"), at("keys2")});
  ASSERT_EQ(p.folders().size(), 2u);
  EXPECT_EQ(p.admit(at("keys2/c.zkey")), at("keys2/c.zkey"));
  EXPECT_EQ(p.describe(), "serve.key_dirs (" + at("keys") + ", " + at("keys2") + ")");
}

TEST_F(PathPolicyTest, AFolderThatIsNotThereFailsAtOnce) {
  EXPECT_THROW(PathPolicy({at("no_such_folder")}), sdk::Error);
  EXPECT_THROW(PathPolicy({at("keys/a.zkey")}), sdk::Error);
}

TEST_F(PathPolicyTest, NoFoldersRestrictNothing) {
  const PathPolicy p;
  EXPECT_FALSE(p.restricted());
  EXPECT_EQ(p.admit(at("outside/secret")), at("outside/secret"));
  EXPECT_EQ(p.admit(std::string("a\0b", 3)), std::nullopt);
}

}  // namespace
}  // namespace zkp::services
