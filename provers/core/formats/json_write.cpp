// The byte layout of snarkjs's JSON files: bfj.write(value, {space: 1}) (bfj 7.1, streamify.js).
#include <cstdint>
#include <cstdio>

#include "core/formats/json.hpp"
#include "core/formats/utf8.hpp"

namespace zkp {
namespace {

void newline(std::string& out, int depth) {
  out += '\n';
  out.append(static_cast<std::size_t>(depth), ' ');
}

void put(std::string& out, const JsonValue& v, int depth) {
  switch (v.kind()) {
    case JsonValue::Kind::null: out += "null"; return;
    case JsonValue::Kind::boolean: out += v.as_bool() ? "true" : "false"; return;
    case JsonValue::Kind::number: out += v.as_number_text(); return;
    case JsonValue::Kind::string: append_json_string(out, v.as_string(), JsonStrings::stringify); return;
    case JsonValue::Kind::array: {
      out += '[';
      bool first = true;
      for (const JsonValue& item : v.as_array()) {
        if (!first) out += ',';
        first = false;
        newline(out, depth + 1);
        put(out, item, depth + 1);
      }
      newline(out, depth);  // bfj breaks the line before ']' even for an empty array
      out += ']';
      return;
    }
    case JsonValue::Kind::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, item] : v.as_object()) {
        if (!first) out += ',';
        first = false;
        newline(out, depth + 1);
        append_json_string(out, key, JsonStrings::stringify);
        out += ": ";
        put(out, item, depth + 1);
      }
      newline(out, depth);
      out += '}';
      return;
    }
  }
}

void append_escape(std::string& out, unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\u%04x", c);
  out += buf;
}

}  // namespace

void append_json_string(std::string& out, std::string_view text, JsonStrings style) {
  const bool safe = style == JsonStrings::safe;
  out += '"';
  for (std::size_t i = 0; i < text.size();) {
    const char ch = text[i];
    const auto c = static_cast<unsigned char>(ch);
    if (safe && c >= 0x80) {
      const std::size_t n = utf8_sequence_length(text, i);
      if (n == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || (safe && c == 0x7F)) {
          append_escape(out, c);
        } else {
          out += ch;
        }
    }
    ++i;
  }
  out += '"';
}

std::string json_quoted(std::string_view text, JsonStrings style) {
  std::string out;
  out.reserve(text.size() + 2);
  append_json_string(out, text, style);
  return out;
}

std::string write_json_snarkjs(const JsonValue& v) {
  std::string out;
  put(out, v, 0);
  return out;
}

}  // namespace zkp
