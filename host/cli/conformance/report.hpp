// The conformance report: one line per check, "ok", "FAIL" or "skip" first. A skip says why
// the check could not run here (no device, a curve the plugin does not support, no vector
// given) and counts neither as a pass nor as a failure; the suite fails on any FAIL, and also
// when nothing passed.
#pragma once

#include <concepts>
#include <iostream>
#include <string>
#include <string_view>

namespace zkp::conformance {

// The parts, text and integers, as one string, built with += (GCC 12 warns falsely, with
// -Wrestrict, on "literal" + std::string temporaries).
inline void append(std::string& s, std::string_view part) { s += part; }
inline void append(std::string& s, const char* part) { s += part == nullptr ? "(null)" : part; }
template <std::integral T>
void append(std::string& s, T n) {
  s += std::to_string(n);
}
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string s;
  (append(s, parts), ...);
  return s;
}

class Report {
 public:
  void pass(const std::string& what) {
    line("ok  ", what);
    ++passed_;
  }
  void fail(const std::string& what) {
    line("FAIL", what);
    ++failed_;
  }
  void skip(const std::string& what) {
    line("skip", what);
    ++skipped_;
  }
  // pass(what) if `ok`, else fail(what + ": " + why).
  bool check(bool ok, const std::string& what, const std::string& why = {}) {
    if (ok) {
      pass(what);
    } else {
      fail(why.empty() ? what : cat(what, ": ", why));
    }
    return ok;
  }
  // A heading for the checks that follow ("prover 'cpu' on chain_bn128").
  void section(const std::string& title) { std::cout << "-- " << title << "\n"; }
  void note(const std::string& text) { std::cout << "     " << text << "\n"; }

  bool succeeded() const { return failed_ == 0 && passed_ > 0; }
  void summary() const { std::cout << passed_ << " passed, " << failed_ << " failed, " << skipped_ << " skipped\n"; }

 private:
  static void line(const char* tag, const std::string& what) { std::cout << tag << " " << what << "\n"; }
  int passed_ = 0, failed_ = 0, skipped_ = 0;
};

}  // namespace zkp::conformance
