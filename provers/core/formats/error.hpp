// Errors raised by the file-format layer. They stay inside C++: the plugin boundary catches them
// and turns them into status codes plus this message.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace zkp {

// Malformed or mismatched input. The message always names the file (or buffer) first, then the
// part of it (section id / JSON path / byte offset), then expected vs found — it is the only
// diagnostic a user of the C ABI will see.
class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The operating system refused a read (missing file, permission, I/O error): not the file's
// fault, so callers can map it to a different status than FormatError.
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
// Builds a message from mixed pieces (strings, integers) without <format>, which GCC 12 lacks.
template <class... Parts>
std::string concat(Parts&&... parts) {
  std::ostringstream out;
  (out << ... << std::forward<Parts>(parts));
  return out.str();
}
}  // namespace detail

// Throws FormatError("<file>: <pieces...>").
template <class... Parts>
[[noreturn]] void format_fail(std::string_view file, Parts&&... parts) {
  throw FormatError(detail::concat(file, ": ", std::forward<Parts>(parts)...));
}

}  // namespace zkp
