// A small strict JSON (RFC 8259) value, parser and writer: enough for snarkjs's proof.json,
// public.json and verification_key.json without an outside JSON library (the project's
// dependency list is fixed).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace zkp {

class JsonValue;
using JsonArray = std::vector<JsonValue>;
// Members in file order: the writer must reproduce snarkjs's key order byte for byte, and
// duplicate keys are rejected by the parser, so a vector is both enough and faithful.
using JsonObject = std::vector<std::pair<std::string, JsonValue>>;

// A number is kept as its source text: snarkjs numbers (nPublic) are small integers, and
// keeping the text means a read-write round trip cannot change a digit.
struct JsonNumber {
  std::string text;
};

class JsonValue {
 public:
  enum class Kind { null, boolean, number, string, array, object };

  JsonValue() = default;  // null
  explicit JsonValue(bool b) : v_(b) {}
  explicit JsonValue(JsonNumber n) : v_(std::move(n)) {}
  explicit JsonValue(std::string s) : v_(std::move(s)) {}
  explicit JsonValue(JsonArray a) : v_(std::move(a)) {}
  explicit JsonValue(JsonObject o) : v_(std::move(o)) {}

  Kind kind() const { return static_cast<Kind>(v_.index()); }
  // Accessors: the value must be of that kind (check kind() first); they are not conversions.
  bool as_bool() const { return std::get<bool>(v_); }
  const std::string& as_number_text() const { return std::get<JsonNumber>(v_).text; }
  const std::string& as_string() const { return std::get<std::string>(v_); }
  const JsonArray& as_array() const { return std::get<JsonArray>(v_); }
  const JsonObject& as_object() const { return std::get<JsonObject>(v_); }
  // The member named `key` of an object, or nullptr.
  const JsonValue* find(std::string_view key) const;

 private:
  std::variant<std::nullptr_t, bool, JsonNumber, std::string, JsonArray, JsonObject> v_;
};

std::string_view kind_name(JsonValue::Kind k);  // "string", "array", ... for messages

// Parses exactly one JSON value (surrounding whitespace allowed). Strict: no comments, no
// trailing commas, no duplicate keys, no invalid UTF-8 or escapes, nesting at most
// kMaxJsonDepth. Throws FormatError("<file>: line L, column C: ...").
JsonValue parse_json(std::string_view text, std::string_view file);
inline constexpr int kMaxJsonDepth = 64;  // snarkjs files nest 4 deep; the limit bounds recursion

// Serialises like snarkjs's writer, bfj.write(obj, {space: 1}): one-space indentation, "key":
// value, no trailing newline, empty containers as "[\n<indent>]" (bfj, unlike JSON.stringify,
// breaks the line even when empty), strings escaped as JSON.stringify does.
std::string write_json_snarkjs(const JsonValue& v);

// How a string becomes a JSON string literal. One writer for every JSON the project emits
// (snarkjs's files, log lines, serve's /status, `zkpipe plugins --json`, bench reports).
enum class JsonStrings {
  // JSON.stringify's escaping, byte for byte: \" \\ \b \f \n \r \t, \u00xx (lower-case hex)
  // for the other control characters, everything else verbatim. For snarkjs's files.
  stringify,
  // The same, and DEL as \u007f and every byte that does not start a well-formed UTF-8
  // sequence as \ufffd: for text from outside (paths, messages, names), so that every line
  // parses and nothing a terminal acts on is written raw.
  safe,
};

// Appends `text` to `out` as a quoted JSON string.
void append_json_string(std::string& out, std::string_view text, JsonStrings style = JsonStrings::safe);
// `text` as a quoted JSON string.
std::string json_quoted(std::string_view text, JsonStrings style = JsonStrings::safe);

}  // namespace zkp
