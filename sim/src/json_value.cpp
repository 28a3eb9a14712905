#include "sim/json_value.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <system_error>

#include "sim/json_text.hpp"
#include "sim/params.hpp"
#include "utf8.hpp"

namespace physarum {

JsonValue::JsonValue() = default;
JsonValue::JsonValue(const JsonValue&) = default;
JsonValue::JsonValue(JsonValue&&) noexcept = default;
JsonValue& JsonValue::operator=(const JsonValue&) = default;
JsonValue& JsonValue::operator=(JsonValue&&) noexcept = default;
JsonValue::~JsonValue() = default;

const JsonValue* JsonValue::find(std::string_view key) const {
  for (const auto& [k, v] : members) {
    if (k == key) return &v;
  }
  return nullptr;
}

bool JsonValue::operator==(const JsonValue& o) const {
  return kind == o.kind && boolean == o.boolean && number == o.number && text == o.text && items == o.items &&
         members == o.members;
}

namespace {

class Parser {
 public:
  Parser(std::string_view s, std::string_view name, size_t max_values)
      : s_(s), name_(name), max_values_(max_values) {}

  JsonValue document() {
    if (const size_t good = valid_utf8_prefix(s_); good < s_.size()) fail_at(good, "not UTF-8 text");
    skip_space();
    JsonValue v = value(0);
    skip_space();
    if (i_ < s_.size()) fail("text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail_at(size_t at, const std::string& why) const {
    size_t line = 1, column = 1;
    for (size_t k = 0; k < at && k < s_.size(); ++k) {
      if (s_[k] == '\n') {
        ++line;
        column = 1;
      } else if ((static_cast<unsigned char>(s_[k]) & 0xC0u) != 0x80u) {
        ++column;  // characters, not the bytes of one
      }
    }
    throw Error(std::string(name_) + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
                ": " + why);
  }
  [[noreturn]] void fail(const std::string& why) const { fail_at(i_, why); }

  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  bool at_end() const { return i_ >= s_.size(); }

  void skip_space() {
    while (!at_end() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }

  void expect_word(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) fail("expected a JSON value");
    i_ += w.size();
  }

  JsonValue value(int depth) {
    if (at_end()) fail("the text ends where a value was expected");
    if (++values_ > max_values_) fail("more than " + std::to_string(max_values_) + " values");
    JsonValue v;
    switch (peek()) {
      case '{': return object(depth + 1);
      case '[': return array(depth + 1);
      case '"':
        v.kind = JsonValue::Kind::String;
        v.text = string();
        return v;
      case 't':
      case 'f':
        v.kind = JsonValue::Kind::Bool;
        v.boolean = peek() == 't';
        expect_word(v.boolean ? "true" : "false");
        return v;
      case 'n': expect_word("null"); return v;
      default: return number();
    }
  }

  void enter(int depth) {
    if (depth > kMaxJsonDepth) fail("nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    ++i_;
    skip_space();
  }

  JsonValue object(int depth) {
    enter(depth);
    JsonValue v;
    v.kind = JsonValue::Kind::Object;
    if (peek() == '}') {
      ++i_;
      return v;
    }
    for (;;) {
      if (peek() != '"') fail("expected a key in double quotes");
      const size_t key_at = i_;
      std::string key = string();
      if (v.find(key)) fail_at(key_at, "the key " + json_string(key) + " appears twice");
      skip_space();
      if (peek() != ':') fail("expected ':' after a key");
      ++i_;
      skip_space();
      JsonValue member = value(depth);
      v.members.emplace_back(std::move(key), std::move(member));
      skip_space();
      if (peek() == '}') break;
      if (peek() != ',') fail("expected ',' or '}' in an object");
      ++i_;
      skip_space();
    }
    ++i_;
    return v;
  }

  JsonValue array(int depth) {
    enter(depth);
    JsonValue v;
    v.kind = JsonValue::Kind::Array;
    if (peek() == ']') {
      ++i_;
      return v;
    }
    for (;;) {
      v.items.push_back(value(depth));
      skip_space();
      if (peek() == ']') break;
      if (peek() != ',') fail("expected ',' or ']' in an array");
      ++i_;
      skip_space();
    }
    ++i_;
    return v;
  }

  // RFC 8259's grammar exactly (no leading '+', no leading zeros, no bare '.'); the value through
  // from_chars, which rounds correctly, so the shortest text written reads back to the same bits.
  JsonValue number() {
    const size_t start = i_;
    const auto digits = [&] {
      const size_t from = i_;
      while (!at_end() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ - from;
    };
    if (peek() == '-') ++i_;
    if (peek() == '0') {
      ++i_;
    } else if (digits() == 0) {
      i_ = start;
      fail("expected a JSON value");
    }
    if (peek() == '.') {
      ++i_;
      if (digits() == 0) fail("expected a digit after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++i_;
      if (peek() == '+' || peek() == '-') ++i_;
      if (digits() == 0) fail("expected a digit in the exponent");
    }
    JsonValue v;
    v.kind = JsonValue::Kind::Number;
    const std::from_chars_result r = std::from_chars(s_.data() + start, s_.data() + i_, v.number);
    if (r.ec != std::errc() || r.ptr != s_.data() + i_) {
      fail_at(start,
              "the number " + std::string(s_.substr(start, i_ - start)) + " is beyond a double's range");
    }
    return v;
  }

  unsigned hex4() {
    unsigned u = 0;
    for (int k = 0; k < 4; ++k, ++i_) {
      const char c = peek();
      const unsigned d = c >= '0' && c <= '9'   ? static_cast<unsigned>(c - '0')
                         : c >= 'a' && c <= 'f' ? static_cast<unsigned>(c - 'a' + 10)
                         : c >= 'A' && c <= 'F' ? static_cast<unsigned>(c - 'A' + 10)
                                                : 16u;
      if (d == 16u) fail("expected four hexadecimal digits after \\u");
      u = u * 16 + d;
    }
    return u;
  }

  static void append_utf8(std::string& out, uint32_t cp) {
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

  // After "\u": one code point, a surrogate pair joined; a lone surrogate is not a character.
  uint32_t escaped_code_point() {
    const size_t at = i_ - 2;
    const unsigned hi = hex4();
    if (hi >= 0xDC00 && hi <= 0xDFFF) fail_at(at, "a lone low surrogate \\u escape");
    if (hi < 0xD800 || hi > 0xDBFF) return hi;
    if (s_.substr(i_, 2) != "\\u") fail_at(at, "a high surrogate \\u escape without its low half");
    i_ += 2;
    const unsigned lo = hex4();
    if (lo < 0xDC00 || lo > 0xDFFF) fail_at(at, "a high surrogate \\u escape without its low half");
    return 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
  }

  std::string string() {
    ++i_;  // the opening quote
    std::string out;
    for (;;) {
      if (at_end()) fail("the text ends inside a string");
      const char c = s_[i_];
      if (c == '"') break;
      if (static_cast<unsigned char>(c) < 0x20) fail("a control character inside a string (escape it)");
      if (c != '\\') {
        out += c;  // the whole text was checked as UTF-8 already
        ++i_;
        continue;
      }
      ++i_;
      const char e = peek();
      ++i_;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': append_utf8(out, escaped_code_point()); break;
        default: --i_; fail("an unknown escape in a string");
      }
    }
    ++i_;
    return out;
  }

  std::string_view s_;
  std::string_view name_;
  size_t max_values_;
  size_t values_ = 0;
  size_t i_ = 0;
};

void write(std::string& out, const JsonValue& v, int indent) {
  const std::string pad(static_cast<size_t>(2 * (indent + 1)), ' ');
  switch (v.kind) {
    case JsonValue::Kind::Null: out += "null"; return;
    case JsonValue::Kind::Bool: out += v.boolean ? "true" : "false"; return;
    case JsonValue::Kind::Number: out += json_number(v.number, kJsonShortest); return;
    case JsonValue::Kind::String: out += json_string(v.text); return;
    case JsonValue::Kind::Array: {
      // A list of objects is a list of records: one a line, as the members of an object are.
      const bool records = std::any_of(v.items.begin(), v.items.end(),
                                       [](const JsonValue& x) { return x.kind == JsonValue::Kind::Object; });
      out += '[';
      for (size_t k = 0; k < v.items.size(); ++k) {
        if (records) {
          out += k ? ",\n" : "\n";
          out += pad;
        } else if (k) {
          out += ", ";
        }
        write(out, v.items[k], indent + 1);
      }
      if (records) {
        out += '\n';
        out.append(static_cast<size_t>(2 * indent), ' ');
      }
      out += ']';
      return;
    }
    case JsonValue::Kind::Object:
      out += '{';
      for (size_t k = 0; k < v.members.size(); ++k) {
        out += k ? ",\n" : "\n";
        out += pad;
        out += json_string(v.members[k].first);
        out += ": ";
        write(out, v.members[k].second, indent + 1);
      }
      if (!v.members.empty()) {
        out += '\n';
        out.append(static_cast<size_t>(2 * indent), ' ');
      }
      out += '}';
      return;
  }
}

}  // namespace

JsonValue parse_json(std::string_view text, std::string_view name, size_t max_values) {
  return Parser(text, name, max_values).document();
}

std::string json_document(const JsonValue& v, int indent) {
  std::string out;
  write(out, v, indent);
  return out;
}

}  // namespace physarum
