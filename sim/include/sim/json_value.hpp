// Reading back JSON the program wrote (an ensemble's shard reports), and writing such a document out
// again. The reader is strict RFC 8259, as the writers are (sim/json_text.hpp): a file that is not
// plain JSON is refused with the line and column of its first fault, never guessed at. Files come
// from strangers, so nesting is bounded before recursing and everything is UTF-8 checked.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace physarum {

struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  bool boolean = false;
  double number = 0;
  std::string text;                                        // String
  std::vector<JsonValue> items;                            // Array
  std::vector<std::pair<std::string, JsonValue>> members;  // Object, in the file's order

  // Out of line: a pair holding the type is complete only there (clang instantiates the vector's
  // destructor where an implicit one would be defined, inside this class).
  JsonValue();
  JsonValue(const JsonValue&);
  JsonValue(JsonValue&&) noexcept;
  JsonValue& operator=(const JsonValue&);
  JsonValue& operator=(JsonValue&&) noexcept;
  ~JsonValue();

  // The member named `key` of an object, or nullptr (also for a value that is not an object).
  const JsonValue* find(std::string_view key) const;

  bool operator==(const JsonValue& other) const;
};

// Arrays and objects nest at most this deep; deeper input is refused before it is recursed into.
inline constexpr int kMaxJsonDepth = 64;

// The one JSON value that is the whole of `text` (whitespace around it allowed). Throws Error
// "<name>: line L, column C: <why>" for anything RFC 8259 does not allow (comments, trailing
// commas, NaN, a byte order mark, invalid UTF-8, lone surrogates, numbers beyond double's range),
// for duplicate keys in an object, for nesting deeper than kMaxJsonDepth and for more than
// `max_values` values in all (a value takes about a hundred bytes in memory, so a file of "[0,0,..."
// would take fifty times its size).
JsonValue parse_json(std::string_view text, std::string_view name, size_t max_values = size_t{1} << 20);

// `v` as JSON, objects and arrays of objects one member a line, indented two spaces a level, from
// `indent` levels in. Numbers are written as the shortest text that reads back as the same double,
// so parse_json(json_document(v)) == v, bit for bit.
std::string json_document(const JsonValue& v, int indent = 0);

}  // namespace physarum
