#include "bearer_token.hpp"

#include <zkpipe/sdk/error.hpp>

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace zkp::services {

namespace {

constexpr const char* kWhitespace = " \t\r\n";
constexpr unsigned char kFirstVisible = 0x21;
constexpr unsigned char kLastVisible = 0x7e;
// A token file is a line; anything this long is not one (and is not read whole).
constexpr long kMaxTokenFileBytes = 64 * 1024;

std::string hex_byte(unsigned char c) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02x", static_cast<unsigned>(c));
  return text;
}

// What the byte is, in words.
std::string byte_name(unsigned char c) {
  switch (c) {
    case '\n': return "a newline";
    case '\r': return "a carriage return";
    case '\t': return "a tab";
    case ' ': return "a space";
    case '\0': return "a NUL byte";
    default: break;
  }
  if (c < kFirstVisible || c == 0x7f) return "the control byte " + hex_byte(c);
  return hex_byte(c) + ", not ASCII (a non-ASCII letter?)";
}

}  // namespace

std::optional<std::string> bearer_token_problem(std::string_view token) {
  if (token.empty()) return std::string("it is empty");
  for (size_t i = 0; i < token.size(); ++i) {
    const auto c = static_cast<unsigned char>(token[i]);
    if (c < kFirstVisible || c > kLastVisible) {
      return "byte " + std::to_string(i + 1) + " of " + std::to_string(token.size()) + " is " + byte_name(c) + ": " +
             kBearerTokenRule;
    }
  }
  return std::nullopt;
}

std::string read_token_file(const std::string& path, const std::string& what) {
  using sdk::Error;
  const std::string named = what + " '" + path + "'";
  // Regular files only (stat before open): a FIFO would block the open, /dev/zero never end.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw Error(ZKP_ERR_NOT_FOUND, named + " cannot be read");
  if (!S_ISREG(st.st_mode)) throw Error(ZKP_ERR_INVALID_ARGUMENT, named + " is not a regular file");
  if (st.st_size > kMaxTokenFileBytes) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, named + " is " + std::to_string(st.st_size) + " bytes, not a token");
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(ZKP_ERR_NOT_FOUND, named + " cannot be read");
  std::ostringstream text;
  text << f.rdbuf();
  const std::string all = text.str();
  const size_t first = all.find_first_not_of(kWhitespace);
  if (first == std::string::npos) throw Error(ZKP_ERR_INVALID_ARGUMENT, named + " is empty");
  const std::string token = all.substr(first, all.find_last_not_of(kWhitespace) - first + 1);
  if (const std::optional<std::string> problem = bearer_token_problem(token)) {
    throw Error(ZKP_ERR_INVALID_ARGUMENT, named + " holds no usable token: " + *problem);
  }
  return token;
}

}  // namespace zkp::services
