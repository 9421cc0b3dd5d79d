// The strict JSON parser, the bfj-layout writer and decimal <-> little-endian conversion.
#include <gtest/gtest.h>

#include <array>

#include "expect_error.hpp"
#include "core/formats/curve.hpp"
#include "core/formats/decimal.hpp"
#include "core/formats/json.hpp"

namespace {

using namespace zkp;
using zkp::test::expect_format_error;

TEST(JsonParse, ValuesAndOrder) {
  const JsonValue v = parse_json(
      R"( {"b": [1, -2.5e+3, "x"], "a": {"t": true, "f": false, "n": null}} )", "t.json");
  ASSERT_EQ(v.kind(), JsonValue::Kind::object);
  ASSERT_EQ(v.as_object().size(), 2u);
  EXPECT_EQ(v.as_object()[0].first, "b");  // file order kept
  const JsonArray& b = v.find("b")->as_array();
  EXPECT_EQ(b[0].as_number_text(), "1");
  EXPECT_EQ(b[1].as_number_text(), "-2.5e+3");
  EXPECT_EQ(b[2].as_string(), "x");
  EXPECT_TRUE(v.find("a")->find("t")->as_bool());
  EXPECT_EQ(v.find("a")->find("n")->kind(), JsonValue::Kind::null);
  EXPECT_EQ(v.find("missing"), nullptr);
}

TEST(JsonParse, StringEscapesAndUtf8) {
  const JsonValue v = parse_json(R"(["a\"b\\c\/\n\t\u0041\u00e9\ud83d\ude00", "é"])", "t.json");
  EXPECT_EQ(v.as_array()[0].as_string(), "a\"b\\c/\n\tA\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(v.as_array()[1].as_string(), "\xc3\xa9");
}

TEST(JsonParse, RejectsWhatRfc8259Rejects) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"", "unexpected end of input"},
      {"[1,]", "unexpected character ']'"},
      {"{\"a\":1,}", "expected a string key"},
      {"{\"a\":1 \"b\":2}", "expected '}' or ','"},
      {"{\"a\":1,\"a\":2}", "duplicate key \"a\""},
      {"[01]", "expected ']' or ','"},
      {"[1.]", "no digits after '.'"},
      {"[1e]", "no digits in the exponent"},
      {"[-]", "invalid number"},
      {"[\"abc]", "unterminated string"},
      {"[\"a\tb\"]", "control character in a string"},
      {"[\"\\x\"]", "invalid escape"},
      {"[\"\\u12g4\"]", "invalid \\u escape"},
      {"[\"\\ud800\"]", "unpaired surrogate"},
      {"[\"\\udc00\"]", "unpaired surrogate"},
      {"[\"\xc3\"]", "invalid UTF-8"},
      {"[\"\xc0\xaf\"]", "invalid UTF-8"},      // overlong '/'
      {"[\"\xed\xa0\x80\"]", "invalid UTF-8"},  // encoded surrogate
      {"[tru]", "invalid literal, expected true"},
      {"// c\n[]", "unexpected character '/'"},
      {"[] []", "unexpected text after the JSON value"},
      {"'a'", "unexpected character '''"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    expect_format_error([&] { parse_json(c.text, "bad.json"); },
                        {"bad.json: line 1, column ", c.message});
  }
}

TEST(JsonParse, ReportsLineAndColumn) {
  expect_format_error([] { parse_json("{\n \"a\": [\n  1,\n  x\n ]\n}", "p.json"); },
                      {"p.json: line 4, column 3: unexpected character 'x'"});
}

TEST(JsonParse, BoundsNesting) {
  std::string deep(kMaxJsonDepth + 1, '[');
  deep += std::string(kMaxJsonDepth + 1, ']');
  expect_format_error([&] { parse_json(deep, "d.json"); }, {"nesting deeper than 64"});
  std::string ok(kMaxJsonDepth, '[');
  ok += std::string(kMaxJsonDepth, ']');
  EXPECT_NO_THROW(parse_json(ok, "d.json"));
}

TEST(JsonWrite, BfjLayout) {
  // What bfj.write(value, {space: 1}) produces for this value (checked against snarkjs output
  // in test_groth16_json); empty containers break the line, unlike JSON.stringify.
  JsonObject o;
  o.emplace_back("s", JsonValue(std::string("a\"\\\n\x01\xc3\xa9")));
  o.emplace_back("n", JsonValue(JsonNumber{"2"}));
  o.emplace_back("a", JsonValue(JsonArray{JsonValue(JsonArray{JsonValue(true), JsonValue()}),
                                          JsonValue(JsonArray{})}));
  o.emplace_back("o", JsonValue(JsonObject{}));
  EXPECT_EQ(write_json_snarkjs(JsonValue(std::move(o))),
            "{\n \"s\": \"a\\\"\\\\\\n\\u0001\xc3\xa9\",\n \"n\": 2,\n \"a\": [\n  [\n   true,\n   "
            "null\n  ],\n  [\n  ]\n ],\n \"o\": {\n }\n}");
}

TEST(JsonWrite, ParseWriteRoundTrip) {
  const std::string text =
      "[\n {\n  \"k\": \"v\",\n  \"x\": [\n   \"1\",\n   -0.5e7\n  ]\n },\n false\n]";
  EXPECT_EQ(write_json_snarkjs(parse_json(text, "t")), text);
}

// The one JSON string writer (json.hpp): stringify is JSON.stringify to the byte (snarkjs's
// files); safe also escapes DEL and writes bytes that are not UTF-8 as U+FFFD (logs, reports).
TEST(JsonWrite, StringStyles) {
  const std::string controls = std::string("q\"b\\\b\f\n\r\t") + '\x01' + '\x1f' + '\x7f';
  EXPECT_EQ(json_quoted(controls, JsonStrings::stringify), "\"q\\\"b\\\\\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\"");
  EXPECT_EQ(json_quoted(controls, JsonStrings::safe), "\"q\\\"b\\\\\\b\\f\\n\\r\\t\\u0001\\u001f\\u007f\"");
  const std::string utf8 = "\xc3\xa9\xf0\x9f\x98\x80";  // é and an emoji: verbatim in both
  EXPECT_EQ(json_quoted(utf8, JsonStrings::stringify), "\"" + utf8 + "\"");
  EXPECT_EQ(json_quoted(utf8), "\"" + utf8 + "\"");
  // A stray continuation byte, a lead byte cut short, an overlong form and a surrogate.
  EXPECT_EQ(json_quoted("a\x80" "b\xc3"), "\"a\\ufffd" "b\\ufffd\"");
  EXPECT_EQ(json_quoted("\xc0\xaf\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"");
  std::string appended = "x";
  append_json_string(appended, "y");
  EXPECT_EQ(appended, "x\"y\"");
}

TEST(Decimal, RoundTripsTheCurvePrimes) {
  EXPECT_EQ(le_to_decimal(curve_info(Curve::bn254).r),
            "21888242871839275222246405745257275088548364400416034343698204186575808495617");
  EXPECT_EQ(le_to_decimal(curve_info(Curve::bn254).q),
            "21888242871839275222246405745257275088696311157297823662689037894645226208583");
  EXPECT_EQ(le_to_decimal(curve_info(Curve::bls12_381).r),
            "52435875175126190479447740508185965837690552500527637822603658699938581184513");
  EXPECT_EQ(le_to_decimal(curve_info(Curve::bls12_381).q),
            "40024095552216673934177898257359041565568828199390078853320581361240316504908378644426"
            "87629129015664037894272559787");
  for (Curve c : {Curve::bn254, Curve::bls12_381}) {
    const ByteView q = curve_info(c).q;
    ByteVec back(q.size());
    ASSERT_EQ(decimal_to_le(le_to_decimal(q), back), DecimalStatus::ok);
    EXPECT_TRUE(bytes_equal(back, q));
  }
}

TEST(Decimal, SmallValuesAndLimits) {
  std::array<std::byte, 4> out{};
  EXPECT_EQ(decimal_to_le("0", out), DecimalStatus::ok);
  EXPECT_EQ(load_u32le(out.data()), 0u);
  EXPECT_EQ(decimal_to_le("4294967295", out), DecimalStatus::ok);
  EXPECT_EQ(load_u32le(out.data()), 4294967295u);
  EXPECT_EQ(decimal_to_le("4294967296", out), DecimalStatus::too_large);
  EXPECT_EQ(load_u32le(out.data()), 4294967295u);  // untouched on failure
  EXPECT_EQ(decimal_to_le("", out), DecimalStatus::empty);
  EXPECT_EQ(decimal_to_le("-1", out), DecimalStatus::not_a_digit);
  EXPECT_EQ(decimal_to_le("0x10", out), DecimalStatus::not_a_digit);
  EXPECT_EQ(decimal_to_le("007", out), DecimalStatus::leading_zero);
  EXPECT_EQ(decimal_to_le(std::string(5000, '9'), out), DecimalStatus::too_large);
  const std::array<std::byte, 3> v{std::byte{0x40}, std::byte{0xe2}, std::byte{0x01}};
  EXPECT_EQ(le_to_decimal(v), "123456");
  EXPECT_EQ(le_to_decimal(ByteView{}), "0");
  const std::array<std::byte, 8> big{std::byte{0}, std::byte{0}, std::byte{0}, std::byte{0},
                                     std::byte{0}, std::byte{0}, std::byte{0}, std::byte{1}};
  EXPECT_EQ(le_to_decimal(big), "72057594037927936");  // 2^56: exercises the 10^9 chunking
}

}  // namespace
