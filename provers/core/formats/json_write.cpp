// The byte layout of snarkjs's JSON files: bfj.write(value, {space: 1}) (bfj 7.1, streamify.js).
#include <cstdio>

#include "core/formats/json.hpp"

namespace zkp {
namespace {

// JSON.stringify's escaping (bfj calls it for every string and key): the two mandatory escapes,
// the five short control escapes, \u00xx (lower-case hex) for other control characters, and
// everything else — including non-ASCII UTF-8 — verbatim.
void put_string(std::string& out, const std::string& s) {
  out += '"';
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

void newline(std::string& out, int depth) {
  out += '\n';
  out.append(static_cast<std::size_t>(depth), ' ');
}

void put(std::string& out, const JsonValue& v, int depth) {
  switch (v.kind()) {
    case JsonValue::Kind::null: out += "null"; return;
    case JsonValue::Kind::boolean: out += v.as_bool() ? "true" : "false"; return;
    case JsonValue::Kind::number: out += v.as_number_text(); return;
    case JsonValue::Kind::string: put_string(out, v.as_string()); return;
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
        put_string(out, key);
        out += ": ";
        put(out, item, depth + 1);
      }
      newline(out, depth);
      out += '}';
      return;
    }
  }
}

}  // namespace

std::string write_json_snarkjs(const JsonValue& v) {
  std::string out;
  put(out, v, 0);
  return out;
}

}  // namespace zkp
