// The pieces every JSON writer is made of: what they write must be strict JSON (RFC 8259), UTF-8
// included. The expected texts are written out by hand from the RFC's rules.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "sim/json_text.hpp"

namespace physarum {
namespace {

TEST(JsonText, StringsEscapeQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(json_string("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(json_string(std::string("\n\t\x1b\x7f", 4)), "\"\\u000a\\u0009\\u001b\x7f\"");
  EXPECT_EQ(json_string(std::string("a\0b", 3)), "\"a\\u0000b\"");
}

TEST(JsonText, WellFormedUtf8IsKeptWhole) {
  const std::string text = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8c\xb1 \xef\xbf\xbf \xf4\x8f\xbf\xbf";
  EXPECT_EQ(json_string(text), "\"" + text + "\"");
}

TEST(JsonText, BytesThatAreNotUtf8BecomeTheReplacementCharacter) {
  const std::string r = "\\ufffd";
  EXPECT_EQ(json_string("p\xff.toml"), "\"p" + r + ".toml\"");  // Latin-1 y-umlaut
  EXPECT_EQ(json_string("\xc3"), "\"" + r + "\"");              // cut short at the end
  EXPECT_EQ(json_string("\xc3x"), "\"" + r + "x\"");            // cut short by an ASCII byte
  EXPECT_EQ(json_string("\xc0\xaf"), "\"" + r + r + "\"");      // overlong '/'
  EXPECT_EQ(json_string("\xe0\x80\xaf"), "\"" + r + r + r + "\"");
  EXPECT_EQ(json_string("\xed\xa0\x80"), "\"" + r + r + r + "\"");          // a UTF-16 surrogate
  EXPECT_EQ(json_string("\xf4\x90\x80\x80"), "\"" + r + r + r + r + "\"");  // above U+10FFFF
  EXPECT_EQ(json_string("\x80"), "\"" + r + "\"");                          // a lone continuation byte
}

TEST(JsonText, NumbersThatDoNotExistAreNull) {
  EXPECT_EQ(json_number(std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(json_number(-std::numeric_limits<double>::infinity()), "null");
  EXPECT_EQ(json_number(std::nan("")), "null");
  EXPECT_EQ(json_number(1.0 / 3.0, 6), "0.333333");
  EXPECT_EQ(json_number(-2.5e-7, 3), "-2.5e-07");
  EXPECT_EQ(json_number(0.1), "0.10000000000000001");  // 17 digits: the double read back exactly
}

}  // namespace
}  // namespace physarum
