// What the gRPC test clients of tests/serve share: whole files in and out, and a call's
// status in words.
#pragma once

#include <grpcpp/grpcpp.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace zkp::test::serve {

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

inline void write_file(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f) throw std::runtime_error("cannot write " + path);
}

// "[code] message", or "" for OK.
inline std::string describe(const grpc::Status& s) {
  if (s.ok()) return "";
  std::ostringstream text;  // not operator+: GCC 12 warns falsely (-Wrestrict) on that chain
  text << "[" << static_cast<int>(s.error_code()) << "] " << s.error_message();
  return text.str();
}

}  // namespace zkp::test::serve
