// Values of the registry's types: checking, reading a person's text, writing TOML and text.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "sim/registry.hpp"
#include "sim/text.hpp"
#include "toml_text.hpp"
#include "utf8.hpp"

namespace physarum::registry {
namespace {

// The shortest text that reads back as exactly this value.
template <class N>
std::string shortest(N v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

[[noreturn]] void out_of_range(const std::string& name, const std::string& got, const std::string& allowed) {
  throw Error(name + " = " + got + " is out of range: allowed " + allowed);
}

std::vector<std::string_view> split_choices(std::string_view choices) {
  std::vector<std::string_view> out;
  while (!choices.empty()) {
    const size_t comma = choices.find(',');
    out.push_back(trim(choices.substr(0, comma)));
    choices = comma == std::string_view::npos ? std::string_view{} : choices.substr(comma + 1);
  }
  return out;
}

// Floats are stored as float: the bounds are compared as floats too, so that a documented bound
// (1e-6, whose float is a little below the double) is itself allowed.
void check_float(const Param& p, float v, const std::string& name) {
  const auto lo = static_cast<float>(p.lo), hi = static_cast<float>(p.hi);
  if (!std::isfinite(v) || v < lo || v > hi)
    out_of_range(name, shortest(v), shortest(lo) + " to " + shortest(hi));
}

void check_integer(const Param& p, int64_t v, const std::string& name) {
  if (static_cast<double>(v) < p.lo || static_cast<double>(v) > p.hi) {
    out_of_range(name, std::to_string(v),
                 shortest(static_cast<int64_t>(p.lo)) + " to " + shortest(static_cast<int64_t>(p.hi)));
  }
}

void check_matrix(const Param& p, const std::vector<float>& w, const std::string& name, size_t species) {
  const size_t n = species;
  if (w.size() != n * n) {
    throw Error(name + " must be " + std::to_string(n) + " x " + std::to_string(n) + " (one row of " +
                std::to_string(n) + " numbers per species); it has " + std::to_string(w.size()) + " numbers");
  }
  for (size_t i = 0; i < w.size(); ++i) {
    const std::string entry = name + "[" + std::to_string(i / n) + "][" + std::to_string(i % n) + "]";
    check_float(p, w[i], entry);
  }
}

void check_text(const Param& p, const std::string& s, const std::string& name) {
  if (!valid_utf8(s)) throw Error(name + ": the value is not valid UTF-8 text");
  if (static_cast<double>(s.size()) < p.lo || static_cast<double>(s.size()) > p.hi) {
    throw Error(name + " must be " + range_text(p) + " (got " + std::to_string(s.size()) + ")");
  }
}

bool holds_type(Type t, const Value& v) {
  switch (t) {
    case Type::Float: return std::holds_alternative<float>(v);
    case Type::Int:
    case Type::Count:
    case Type::Colour: return std::holds_alternative<int64_t>(v);
    case Type::Bool: return std::holds_alternative<bool>(v);
    case Type::Choice:
    case Type::Text: return std::holds_alternative<std::string>(v);
    case Type::Size: return std::holds_alternative<Size>(v);
    case Type::Matrix: return std::holds_alternative<std::vector<float>>(v);
  }
  return false;
}

std::string_view unquoted(std::string_view text) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') return text.substr(1, text.size() - 2);
  return text;
}

template <class N>
bool whole(std::string_view text, N& out) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && ec == std::errc() && ptr == text.data() + text.size();
}

// A decimal number as a float, refused when it cannot be one exactly enough: not finite, too large,
// or so small it would silently become 0.
float parse_float(std::string_view text) {
  double d = 0;
  if (!whole(text, d)) throw Error("'" + std::string(text) + "' is not a number");
  return float_of(d);
}

// [[a, b], [c, d]]: a square matrix of numbers, row by row; nothing else (no nesting, no keys).
std::vector<float> parse_matrix(std::string_view text) {
  std::string what = "'";
  what.append(text.substr(0, 80)).append(text.size() > 80 ? "...'" : "'");
  const auto bad = [&](const std::string& why) {
    return Error(what + " is not a matrix like [[1, -1], [0.5, 1]]: " + why);
  };
  size_t i = 0;
  const auto skip = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  };
  const auto expect = [&](char c) {
    skip();
    if (i >= text.size() || text[i] != c)
      throw bad(std::string("expected '") + c + "' at character " + std::to_string(i + 1));
    ++i;
  };
  std::vector<float> w;
  size_t rows = 0;
  expect('[');
  do {
    if (++rows > static_cast<size_t>(kMaxSpecies))
      throw bad("more than " + std::to_string(kMaxSpecies) + " rows");
    expect('[');
    size_t cols = 0;
    do {
      skip();
      const size_t start = i;
      while (i < text.size() && std::string_view("+-.0123456789eE").find(text[i]) != std::string_view::npos)
        ++i;
      if (++cols > static_cast<size_t>(kMaxSpecies))
        throw bad("a row of more than " + std::to_string(kMaxSpecies) + " numbers");
      try {
        w.push_back(parse_float(text.substr(start, i - start)));
      } catch (const Error& e) {
        throw bad("row " + std::to_string(rows - 1) + ": " + e.what());
      }
      skip();
    } while (i < text.size() && text[i] == ',' && ++i);
    expect(']');
    if (cols != w.size() / rows || w.size() % rows != 0) throw bad("the rows differ in length");
    skip();
  } while (i < text.size() && text[i] == ',' && ++i);
  expect(']');
  skip();
  if (i != text.size()) throw bad("unexpected text after the matrix");
  if (w.size() != rows * rows)
    throw bad(std::to_string(rows) + " rows of " + std::to_string(w.size() / rows) +
              " numbers (it must be square)");
  return w;
}

}  // namespace

std::vector<std::string_view> choice_list(const Param& param, bool volume) {
  std::vector<std::string_view> out = split_choices(param.choices);
  if (volume) {
    for (const std::string_view c : split_choices(param.volume_choices)) out.push_back(c);
  }
  return out;
}

float float_of(double d) {
  if (!std::isfinite(d)) throw Error("must be a finite number (got " + shortest(d) + ")");
  const auto f = static_cast<float>(d);
  if (!std::isfinite(f)) throw Error("is too large for a float (got " + shortest(d) + ")");
  if (d != 0 && std::fabs(f) < std::numeric_limits<float>::min()) {
    throw Error("is too small for a float (got " + shortest(d) + "; use 0 or a value of at least " +
                shortest(std::numeric_limits<float>::min()) + ")");
  }
  return f;
}

std::string_view type_name(Type t) {
  switch (t) {
    case Type::Float: return "float";
    case Type::Int: return "integer";
    case Type::Bool: return "bool";
    case Type::Choice: return "string";
    case Type::Text: return "string";
    case Type::Colour: return "colour";
    case Type::Size: return "size";
    case Type::Count: return "count";
    case Type::Matrix: return "matrix";
  }
  return "?";
}

std::string range_text(const Param& p) {
  switch (p.type) {
    case Type::Float:
    case Type::Matrix:
      return shortest(static_cast<float>(p.lo)) + " to " + shortest(static_cast<float>(p.hi));
    case Type::Int:
    case Type::Count:
      return shortest(static_cast<int64_t>(p.lo)) + " to " + shortest(static_cast<int64_t>(p.hi));
    case Type::Size:
      return "each side " + shortest(static_cast<int64_t>(p.lo)) + " to " +
             shortest(static_cast<int64_t>(p.hi));
    case Type::Choice:
      return std::string(p.choices) +
             (p.volume_choices.empty() ? "" : " (a volume also: " + std::string(p.volume_choices) + ")");
    case Type::Text:
      return shortest(static_cast<int64_t>(p.lo)) + " to " + shortest(static_cast<int64_t>(p.hi)) + " bytes";
    case Type::Colour: return "\"#rrggbb\"";
    case Type::Bool: return "true, false";
  }
  return "";
}

void check(const Param& p, const Value& v, const std::string& name, size_t species_count) {
  if (p.optional && std::holds_alternative<std::monostate>(v)) return;
  if (!holds_type(p.type, v))
    throw Error(name + ": expected a value of type " + std::string(type_name(p.type)));
  switch (p.type) {
    case Type::Float: return check_float(p, std::get<float>(v), name);
    case Type::Int:
    case Type::Count: return check_integer(p, std::get<int64_t>(v), name);
    case Type::Colour:
      if (std::get<int64_t>(v) < 0 || std::get<int64_t>(v) > 0xffffff)
        throw Error(name + " is not an RGB colour");
      return;
    case Type::Bool: return;
    case Type::Choice: {
      const std::string& s = std::get<std::string>(v);
      const auto any = choice_list(p, true);
      if (std::find(any.begin(), any.end(), s) == any.end())
        throw Error(name + " '" + s + "' is not one of: " + range_text(p));
      return;
    }
    case Type::Text: return check_text(p, std::get<std::string>(v), name);
    case Type::Size: {
      const Size s = std::get<Size>(v);
      if (s.width < p.lo || s.height < p.lo || s.width > p.hi || s.height > p.hi)
        throw Error(name + " = " + format_size(s) + " is out of range: " + range_text(p));
      return;
    }
    case Type::Matrix: return check_matrix(p, std::get<std::vector<float>>(v), name, species_count);
  }
}

Value parse(const Param& p, std::string_view text) {
  switch (p.type) {
    case Type::Float: return parse_float(text);
    case Type::Int: {
      int64_t i = 0;
      if (!whole(text, i)) throw Error("'" + std::string(text) + "' is not an integer");
      return i;
    }
    case Type::Bool:
      if (text == "true" || text == "1" || text == "on" || text == "yes") return true;
      if (text == "false" || text == "0" || text == "off" || text == "no") return false;
      throw Error("'" + std::string(text) + "' is not true or false");
    case Type::Choice:
    case Type::Text: {
      const std::string_view s = unquoted(text);
      if (!valid_utf8(s)) throw Error("the value is not valid UTF-8 text");
      return std::string(s);
    }
    case Type::Colour: return static_cast<int64_t>(parse_colour(unquoted(text)));
    case Type::Size: return parse_size(unquoted(text));
    case Type::Count: {
      const std::string_view s = unquoted(text);
      if (!s.empty() && s.front() == '-') throw Error("must not be negative (got " + std::string(s) + ")");
      return static_cast<int64_t>(parse_count(s));
    }
    case Type::Matrix: return parse_matrix(text);
  }
  return {};
}

std::string to_toml(const Param& p, const Value& v) {
  if (std::holds_alternative<std::monostate>(v)) return "";
  switch (p.type) {
    case Type::Float: return toml_float(std::get<float>(v));
    case Type::Int: return std::to_string(std::get<int64_t>(v));
    case Type::Bool: return std::get<bool>(v) ? "true" : "false";
    case Type::Choice:
    case Type::Text: return toml_quote(std::get<std::string>(v));
    case Type::Colour: return toml_quote(format_colour(static_cast<uint32_t>(std::get<int64_t>(v))));
    case Type::Size: return toml_quote(format_size(std::get<Size>(v)));
    case Type::Count: {
      const auto n = static_cast<uint64_t>(std::get<int64_t>(v));
      const std::string text = format_count(n);
      return parse_count(text) == n ? toml_quote(text) : std::to_string(n);
    }
    case Type::Matrix: {
      const auto& w = std::get<std::vector<float>>(v);
      const auto n = static_cast<size_t>(std::lround(std::sqrt(static_cast<double>(w.size()))));
      std::string out = "[";
      for (size_t r = 0; r < n; ++r) {
        out += r == 0 ? "[" : ", [";
        for (size_t c = 0; c < n; ++c) out += (c == 0 ? "" : ", ") + toml_float(w[r * n + c]);
        out += "]";
      }
      return out + "]";
    }
  }
  return "";
}

std::string to_text(const Param& p, const Value& v) {
  if (std::holds_alternative<std::monostate>(v)) return "";
  switch (p.type) {
    case Type::Float: return shortest(std::get<float>(v));
    case Type::Choice:
    case Type::Text: return std::get<std::string>(v);
    case Type::Colour: return format_colour(static_cast<uint32_t>(std::get<int64_t>(v)));
    case Type::Size: return format_size(std::get<Size>(v));
    case Type::Count: return format_count(static_cast<uint64_t>(std::get<int64_t>(v)));
    default: return to_toml(p, v);
  }
}

}  // namespace physarum::registry
