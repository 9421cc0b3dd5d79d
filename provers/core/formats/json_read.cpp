// Strict recursive-descent JSON parser (RFC 8259).
#include <cstdint>
#include <set>

#include "core/formats/error.hpp"
#include "core/formats/json.hpp"
#include "core/formats/utf8.hpp"

namespace zkp {
namespace {

class Parser {
 public:
  Parser(std::string_view text, std::string_view file) : s_(text), file_(file) {}

  JsonValue document() {
    skip_ws();
    JsonValue v = value(0);
    skip_ws();
    if (pos_ != s_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(std::string_view what) const {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < pos_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    format_fail(file_, "line ", line, ", column ", col, ": ", what);
  }

  bool at_end() const { return pos_ >= s_.size(); }
  char peek() const { return at_end() ? '\0' : s_[pos_]; }

  void skip_ws() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
      ++pos_;
  }

  void expect(char c, std::string_view context) {
    if (peek() != c) fail(detail::concat("expected '", c, "' ", context));
    ++pos_;
  }

  JsonValue value(int depth) {
    if (depth >= kMaxJsonDepth) fail(detail::concat("nesting deeper than ", kMaxJsonDepth));
    if (at_end()) fail("unexpected end of input, expected a value");
    switch (peek()) {
      case '{': return object(depth);
      case '[': return array(depth);
      case '"': return JsonValue(string());
      case 't': literal("true"); return JsonValue(true);
      case 'f': literal("false"); return JsonValue(false);
      case 'n': literal("null"); return JsonValue();
      default:
        if (peek() == '-' || (peek() >= '0' && peek() <= '9')) return JsonValue(number());
        fail(detail::concat("unexpected character '", peek(), "', expected a value"));
    }
  }

  void literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word)
      fail(detail::concat("invalid literal, expected ", word));
    pos_ += word.size();
  }

  JsonValue object(int depth) {
    ++pos_;  // '{'
    JsonObject members;
    std::set<std::string> seen;
    skip_ws();
    if (peek() == '}') {
      ++pos_;
      return JsonValue(std::move(members));
    }
    for (;;) {
      skip_ws();
      if (peek() != '"') fail("expected a string key");
      const std::size_t key_at = pos_;
      std::string key = string();
      if (!seen.insert(key).second) {  // a set: a fuzzed object may hold thousands of keys
        pos_ = key_at;
        fail(detail::concat("duplicate key \"", key, "\""));
      }
      skip_ws();
      expect(':', "after an object key");
      skip_ws();
      JsonValue v = value(depth + 1);
      members.emplace_back(std::move(key), std::move(v));
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect('}', "or ',' in an object");
      return JsonValue(std::move(members));
    }
  }

  JsonValue array(int depth) {
    ++pos_;  // '['
    JsonArray items;
    skip_ws();
    if (peek() == ']') {
      ++pos_;
      return JsonValue(std::move(items));
    }
    for (;;) {
      skip_ws();
      items.push_back(value(depth + 1));
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect(']', "or ',' in an array");
      return JsonValue(std::move(items));
    }
  }

  JsonNumber number() {
    // Grammar: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    const std::size_t start = pos_;
    auto digits = [this] {
      const std::size_t from = pos_;
      while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
      return pos_ - from;
    };
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (digits() == 0) {
      fail("invalid number");
    }
    if (peek() == '.') {
      ++pos_;
      if (digits() == 0) fail("invalid number: no digits after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (digits() == 0) fail("invalid number: no digits in the exponent");
    }
    return JsonNumber{std::string(s_.substr(start, pos_ - start))};
  }

  unsigned hex4() {
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = peek();
      unsigned d;
      if (c >= '0' && c <= '9')
        d = static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f')
        d = static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        d = static_cast<unsigned>(c - 'A' + 10);
      else
        fail("invalid \\u escape");
      v = v * 16 + d;
      ++pos_;
    }
    return v;
  }

  static void put_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  void escape(std::string& out) {
    ++pos_;  // '\'
    const char c = peek();
    ++pos_;
    switch (c) {
      case '"': out += '"'; return;
      case '\\': out += '\\'; return;
      case '/': out += '/'; return;
      case 'b': out += '\b'; return;
      case 'f': out += '\f'; return;
      case 'n': out += '\n'; return;
      case 'r': out += '\r'; return;
      case 't': out += '\t'; return;
      case 'u': break;
      default: --pos_; fail("invalid escape");
    }
    std::uint32_t cp = hex4();
    if (cp >= 0xD800 && cp <= 0xDBFF) {  // high surrogate: a low one must follow
      if (s_.substr(pos_, 2) != "\\u") fail("unpaired surrogate in \\u escape");
      pos_ += 2;
      const std::uint32_t lo = hex4();
      if (lo < 0xDC00 || lo > 0xDFFF) fail("unpaired surrogate in \\u escape");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
      fail("unpaired surrogate in \\u escape");
    }
    put_utf8(out, cp);
  }

  // Copies one UTF-8 sequence, rejecting overlong forms, surrogates and truncation.
  void utf8(std::string& out) {
    const std::size_t len = utf8_sequence_length(s_, pos_);
    if (len == 0) fail("invalid UTF-8");
    out.append(s_.substr(pos_, len));
    pos_ += len;
  }

  std::string string() {
    ++pos_;  // '"'
    std::string out;
    for (;;) {
      if (at_end()) fail("unterminated string");
      const auto c = static_cast<unsigned char>(peek());
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c == '\\') {
        escape(out);
      } else if (c < 0x20) {
        fail("control character in a string");
      } else if (c < 0x80) {
        out += static_cast<char>(c);
        ++pos_;
      } else {
        utf8(out);
      }
    }
  }

  std::string_view s_;
  std::string_view file_;
  std::size_t pos_ = 0;
};

}  // namespace

const JsonValue* JsonValue::find(std::string_view key) const {
  if (kind() != Kind::object) return nullptr;
  for (const auto& [k, v] : as_object()) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string_view kind_name(JsonValue::Kind k) {
  switch (k) {
    case JsonValue::Kind::null: return "null";
    case JsonValue::Kind::boolean: return "boolean";
    case JsonValue::Kind::number: return "number";
    case JsonValue::Kind::string: return "string";
    case JsonValue::Kind::array: return "array";
    case JsonValue::Kind::object: return "object";
  }
  return "?";
}

JsonValue parse_json(std::string_view text, std::string_view file) {
  return Parser(text, file).document();
}

}  // namespace zkp
