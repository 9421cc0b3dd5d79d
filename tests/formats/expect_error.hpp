// Asserting on FormatError messages: a malformed input must fail, and fail saying why.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "core/formats/error.hpp"

namespace zkp::test {

// Runs `f`, requires a FormatError whose message contains every string in `parts`; returns the
// message so a test can print or check more.
template <class F>
std::string expect_format_error(F&& f, std::initializer_list<const char*> parts) {
  try {
    f();
  } catch (const zkp::FormatError& e) {
    const std::string msg = e.what();
    for (const char* p : parts) EXPECT_THAT(msg, ::testing::HasSubstr(p));
    return msg;
  }
  ADD_FAILURE() << "expected a FormatError";
  return {};
}

}  // namespace zkp::test
