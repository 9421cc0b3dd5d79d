// services/bearer_token: what a token may hold (issue 36: gRPC aborts the process on a
// metadata byte outside printable ASCII), and a token file read and checked.
#include "services/bearer_token.hpp"

#include <zkpipe/sdk/error.hpp>

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace {

using zkp::services::bearer_token_problem;
using zkp::services::read_token_file;

TEST(BearerToken, VisibleAsciiIsAToken) {
  EXPECT_EQ(bearer_token_problem("0123456789abcdef-_.~+/=!#$%"), std::nullopt);
}

TEST(BearerToken, EachForbiddenByteIsNamed) {
  EXPECT_EQ(bearer_token_problem(""), "it is empty");
  EXPECT_NE(bearer_token_problem("ab\ncd").value_or("").find("byte 3 of 5 is a newline"), std::string::npos);
  EXPECT_NE(bearer_token_problem("a b").value_or("").find("byte 2 of 3 is a space"), std::string::npos);
  EXPECT_NE(bearer_token_problem(std::string("a\0b", 3)).value_or("").find("is a NUL byte"), std::string::npos);
  EXPECT_NE(bearer_token_problem("a\x7f").value_or("").find("the control byte 0x7f"), std::string::npos);
  EXPECT_NE(bearer_token_problem("t\xc3\xb6ken").value_or("").find("byte 2 of 6 is 0xc3, not ASCII"), std::string::npos);
}

TEST(BearerToken, AFileIsTrimmedAndChecked) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("zkp_token_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto write = [&](const char* name, const std::string& text) {
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
  };
  EXPECT_EQ(read_token_file(write("ok", "  s3cret!\n"), "test.token"), "s3cret!");
  const std::string two = write("two", "first\nsecond\n");
  try {
    read_token_file(two, "test.token");
    ADD_FAILURE() << "a token file with two lines was read";
  } catch (const zkp::sdk::Error& e) {
    EXPECT_EQ(e.status(), ZKP_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(e.what()).find("test.token '" + two + "' holds no usable token: byte 6 of 12 is a newline"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(read_token_file(write("empty", " \n"), "test.token"), zkp::sdk::Error);
  EXPECT_THROW(read_token_file(dir.string(), "test.token"), zkp::sdk::Error);  // a directory
  std::filesystem::remove_all(dir);
}

}  // namespace
