// services/output_files: proof.json and public.json appear together or not at all (issue 36: a
// full disk between the two renames left a new proof.json beside an old public.json, and the
// error said "[invalid argument]"). ENOSPC comes through the write seam, not a full disk.
#include "services/output_files.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

namespace {

namespace fs = std::filesystem;
using zkp::services::OutputFile;
using zkp::services::write_files_together;

int g_writes_before_enospc = 0;

// write(2), until g_writes_before_enospc calls have gone through; then ENOSPC.
ssize_t write_until_full(int fd, const void* data, size_t size) {
  if (g_writes_before_enospc-- <= 0) {
    errno = ENOSPC;
    return -1;
  }
  return ::write(fd, data, size);
}

class OutputFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("zkp_output_files_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    zkp::services::set_write_call_for_testing(nullptr);
    fs::remove_all(dir_);
  }
  std::string path(const char* name) const { return (dir_ / name).string(); }
  static std::string read(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
  }
  size_t entries() const { return static_cast<size_t>(std::distance(fs::directory_iterator(dir_), fs::directory_iterator())); }

  fs::path dir_;
};

TEST_F(OutputFiles, WritesEveryFile) {
  write_files_together({{path("proof.json"), "new proof"}, {path("public.json"), "new public"}});
  EXPECT_EQ(read(path("proof.json")), "new proof");
  EXPECT_EQ(read(path("public.json")), "new public");
  EXPECT_EQ(entries(), 2u);  // no temporary, no backup left
}

TEST_F(OutputFiles, ADiskFullAtTheSecondFileChangesNeither) {
  write_files_together({{path("proof.json"), "old proof"}, {path("public.json"), "old public"}});
  g_writes_before_enospc = 1;  // the first file's bytes go in, the second's do not
  zkp::services::set_write_call_for_testing(write_until_full);
  try {
    write_files_together({{path("proof.json"), "new proof"}, {path("public.json"), "new public"}});
    ADD_FAILURE() << "a full disk was not reported";
  } catch (const std::system_error& e) {
    EXPECT_EQ(e.code().value(), ENOSPC);
    EXPECT_NE(std::string(e.what()).find("public.json: No space left on device"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read(path("proof.json")), "old proof");
  EXPECT_EQ(read(path("public.json")), "old public");
  EXPECT_EQ(entries(), 2u);
}

TEST_F(OutputFiles, ADiskFullWithNoOldFilesLeavesNone) {
  g_writes_before_enospc = 1;
  zkp::services::set_write_call_for_testing(write_until_full);
  EXPECT_THROW(write_files_together({{path("proof.json"), "p"}, {path("public.json"), "q"}}), std::system_error);
  EXPECT_EQ(entries(), 0u);
}

// The second rename fails (its path is a folder that is not empty): the first file, already
// renamed in, is put back as it was.
TEST_F(OutputFiles, AFailedSecondRenamePutsTheFirstFileBack) {
  write_files_together({{path("proof.json"), "old proof"}});
  fs::create_directories(dir_ / "public.json" / "in_the_way");
  EXPECT_THROW(write_files_together({{path("proof.json"), "new proof"}, {path("public.json"), "new public"}}),
               std::system_error);
  EXPECT_EQ(read(path("proof.json")), "old proof");
  EXPECT_EQ(entries(), 2u);  // proof.json and the folder

  fs::remove(dir_ / "proof.json");
  EXPECT_THROW(write_files_together({{path("proof.json"), "new proof"}, {path("public.json"), "new public"}}),
               std::system_error);
  EXPECT_FALSE(fs::exists(dir_ / "proof.json"));  // there was none: there is none
  EXPECT_EQ(entries(), 1u);
}

}  // namespace
