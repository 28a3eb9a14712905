// The JSON reader that ensemble shards are read back with: what RFC 8259 allows is read, the rest is
// refused with its line and column, and what json_document writes reads back to the same values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "sim/json_text.hpp"
#include "sim/json_value.hpp"
#include "test_support.hpp"

namespace physarum {
namespace {

using Kind = JsonValue::Kind;

TEST(JsonValue, ReadsEveryKindInTheFilesOrder) {
  const JsonValue v = parse_json(
      " {\"b\": [1, -2.5e3, 0.125, true, false, null], \"a\": {\"s\": "
      "\"x\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"},"
      " \"e\": {}, \"l\": []}\r\n",
      "t.json");
  ASSERT_EQ(v.kind, Kind::Object);
  ASSERT_EQ(v.members.size(), 4u);
  EXPECT_EQ(v.members[0].first, "b");  // the file's order, not sorted
  const JsonValue& b = *v.find("b");
  ASSERT_EQ(b.items.size(), 6u);
  EXPECT_EQ(b.items[0].number, 1.0);
  EXPECT_EQ(b.items[1].number, -2500.0);
  EXPECT_EQ(b.items[2].number, 0.125);
  EXPECT_TRUE(b.items[3].boolean);
  EXPECT_EQ(b.items[4].kind, Kind::Bool);
  EXPECT_FALSE(b.items[4].boolean);
  EXPECT_EQ(b.items[5].kind, Kind::Null);
  EXPECT_EQ(v.find("a")->find("s")->text, "x\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80");
  EXPECT_EQ(v.find("e")->kind, Kind::Object);
  EXPECT_EQ(v.find("l")->kind, Kind::Array);
  EXPECT_EQ(v.find("missing"), nullptr);
}

TEST(JsonValue, RefusesWhatRfc8259DoesNotAllowNamingWhere) {
  const auto error = [](const std::string& text) {
    return test::error_of([&] { (void)parse_json(text, "'x.json'"); });
  };
  EXPECT_EQ(error("{\"a\": 1,\n  \"b\": 2,}"),
            "'x.json': line 2, column 10: expected a key in double quotes");
  EXPECT_EQ(error("[1, 2] 3"), "'x.json': line 1, column 8: text after the JSON value");
  EXPECT_EQ(error("{\"a\": 1, \"a\": 2}"), "'x.json': line 1, column 10: the key \"a\" appears twice");
  EXPECT_EQ(error("\"\xc3\xa9\xff\""), "'x.json': line 1, column 3: not UTF-8 text");
  EXPECT_EQ(error("[1e999]"), "'x.json': line 1, column 2: the number 1e999 is beyond a double's range");
  for (const char* bad : {"",
                          " ",
                          "[1,]",
                          "[01]",
                          "[+1]",
                          "[.5]",
                          "[1.]",
                          "[1e]",
                          "[NaN]",
                          "[Infinity]",
                          "// c\n1",
                          "{'a': 1}",
                          "[\"\\ud800\"]",
                          "[\"\\udc00\"]",
                          "[\"\\x41\"]",
                          "[\"a\tb\"]",
                          "\xef\xbb\xbf{}",
                          "[tru]",
                          "{\"a\" 1}",
                          "[1 2]",
                          "\"open"}) {
    const std::string e = error(bad);
    EXPECT_EQ(e.rfind("'x.json': line 1, column ", 0), 0u) << "accepted or unnamed: " << bad << " -> " << e;
  }
}

TEST(JsonValue, NestingAndSizeAreBoundedBeforeTheyCostAnything) {
  const std::string deep = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_NO_THROW((void)parse_json(deep, "d"));
  const std::string deeper = "[" + deep + "]";
  EXPECT_NE(test::error_of([&] { (void)parse_json(deeper, "d"); }).find("nested deeper than 64 levels"),
            std::string::npos);
  // A million nested brackets would overflow the stack of a reader that does not count.
  EXPECT_NE(test::error_of([&] { (void)parse_json(std::string(1'000'000, '['), "d"); }).find("nested deeper"),
            std::string::npos);
  EXPECT_NO_THROW((void)parse_json("[0,0,0]", "v", 4));
  EXPECT_EQ(test::error_of([&] { (void)parse_json("[0,0,0,0]", "v", 4); }),
            "v: line 1, column 8: more than 4 values");
}

TEST(JsonValue, WrittenDocumentsReadBackToTheSameBits) {
  std::mt19937_64 rng(7);
  JsonValue list;
  list.kind = Kind::Array;
  for (int i = 0; i < 2000; ++i) {
    uint64_t bits = rng();
    double x = 0;
    std::memcpy(&x, &bits, sizeof x);
    if (!std::isfinite(x)) continue;
    JsonValue n;
    n.kind = Kind::Number;
    n.number = x;
    list.items.push_back(n);
  }
  JsonValue doc;
  doc.kind = Kind::Object;
  JsonValue s;
  s.kind = Kind::String;
  s.text = "quote \" backslash \\ tab \t \x01 \xc3\xa9";
  doc.members.emplace_back("numbers", list);
  doc.members.emplace_back("text", s);
  doc.members.emplace_back("empty", JsonValue{});
  const JsonValue back = parse_json(json_document(doc), "back");
  ASSERT_EQ(back, doc);
  for (size_t i = 0; i < list.items.size(); ++i) {
    EXPECT_EQ(std::memcmp(&back.members[0].second.items[i].number, &list.items[i].number, sizeof(double)), 0);
  }
}

TEST(JsonValue, ShortestNumbersAreTheOnesPeopleWrite) {
  EXPECT_EQ(json_number(0.15, kJsonShortest), "0.15");
  EXPECT_EQ(json_number(3, kJsonShortest), "3");
  EXPECT_EQ(json_number(-0.0, kJsonShortest), "-0");
  EXPECT_EQ(json_number(1e300, kJsonShortest), "1e+300");
  EXPECT_EQ(json_number(std::nan(""), kJsonShortest), "null");
  EXPECT_EQ(json_number(0.15), "0.14999999999999999");  // the default keeps its 17 digits
}

}  // namespace
}  // namespace physarum
