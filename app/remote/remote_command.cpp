#include "remote/remote_command.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace physarum::app {
namespace {

std::optional<double> number_of(const OscArg& a) {
  if (const auto* i = std::get_if<int64_t>(&a)) return static_cast<double>(*i);
  if (const auto* f = std::get_if<float>(&a)) return static_cast<double>(*f);
  if (const auto* d = std::get_if<double>(&a)) return *d;
  return std::nullopt;
}

// A whole number, also when the sender types every number as a float (TouchDesigner does).
std::optional<int64_t> whole_of(const OscArg& a) {
  if (const auto* i = std::get_if<int64_t>(&a)) return *i;
  const std::optional<double> d = number_of(a);
  // 2^63 is the first double outside int64_t.
  if (!d || !std::isfinite(*d) || std::trunc(*d) != *d || std::fabs(*d) >= 9223372036854775808.0) {
    return std::nullopt;
  }
  return static_cast<int64_t>(*d);
}

// The message follows the address, which names the parameter.
[[noreturn]] void expected(const registry::Param&, const std::string& what) {
  throw Error("takes " + what);
}

void want_count(const registry::Param& p, const std::vector<OscArg>& args, size_t n,
                const std::string& what) {
  if (args.size() != n) expected(p, what + " (got " + std::to_string(args.size()) + " values)");
}

Value number_value(const registry::Param& p, const OscArg& a) {
  if (p.type == registry::Type::Float) {
    const std::optional<double> d = number_of(a);
    if (!d) expected(p, "a number");
    return registry::float_of(*d);  // a float arrives exactly; a double is rounded as --set rounds
  }
  const std::optional<int64_t> n = whole_of(a);
  if (!n) expected(p, "a whole number");
  return *n;
}

Value bool_value(const registry::Param& p, const OscArg& a) {
  if (const auto* b = std::get_if<bool>(&a)) return *b;
  const std::optional<int64_t> n = whole_of(a);
  if (!n || (*n != 0 && *n != 1)) expected(p, "true or false (or 1 or 0)");
  return *n == 1;
}

Value choice_value(const registry::Param& p, const OscArg& a) {
  const std::vector<std::string_view> choices = registry::choice_list(p);
  const std::optional<int64_t> n = whole_of(a);
  if (!n || *n < 0 || *n >= static_cast<int64_t>(choices.size())) {
    expected(p, "one of " + registry::range_text(p) + ", by name or by position from 0");
  }
  return std::string(choices[static_cast<size_t>(*n)]);
}

// Three numbers 0..1 (a colour as TouchDesigner and most controllers send it) or one 0xRRGGBB.
Value colour_value(const registry::Param& p, const std::vector<OscArg>& args) {
  if (args.size() == 1) {
    const std::optional<int64_t> n = whole_of(args[0]);
    if (!n) expected(p, "\"#rrggbb\", 0xRRGGBB or three numbers 0 to 1");
    return *n;
  }
  want_count(p, args, 3, "\"#rrggbb\", 0xRRGGBB or three numbers 0 to 1");
  int64_t rgb = 0;
  for (const OscArg& a : args) {
    const std::optional<double> c = number_of(a);
    if (!c || !(*c >= 0.0 && *c <= 1.0)) expected(p, "three numbers 0 to 1 (red, green, blue)");
    rgb = rgb * 256 + static_cast<int64_t>(std::lround(*c * 255.0));
  }
  return rgb;
}

Value size_value(const registry::Param& p, const std::vector<OscArg>& args) {
  want_count(p, args, 2, "\"WxH\" or two whole numbers");
  const std::optional<int64_t> w = whole_of(args[0]), h = whole_of(args[1]);
  const auto side = [](int64_t v) { return static_cast<int>(std::clamp<int64_t>(v, -1, 1 << 30)); };
  if (!w || !h) expected(p, "\"WxH\" or two whole numbers");
  return Size{side(*w), side(*h)};  // out of range sides stay out of range for check()
}

Value matrix_value(const registry::Param& p, const std::vector<OscArg>& args, size_t species) {
  std::vector<float> w;
  for (const OscArg& a : args) {
    const std::optional<double> d = number_of(a);
    if (!d) expected(p, std::to_string(species * species) + " numbers, row by row");
    w.push_back(registry::float_of(*d));
  }
  return w;  // check() says when there are not S x S of them
}

std::optional<bool> state_of(const OscMessage& m) {
  if (m.args.empty() || (m.args.size() == 1 && std::holds_alternative<std::monostate>(m.args[0]))) {
    return std::nullopt;
  }
  if (m.args.size() == 1) {
    if (const auto* b = std::get_if<bool>(&m.args[0])) return *b;
    if (const std::optional<double> d = number_of(m.args[0]); d && std::isfinite(*d)) return *d != 0.0;
  }
  throw Error("takes nothing (toggles), or one value: 1 or true for on, 0 or false for off");
}

}  // namespace

Value value_from_osc(const registry::Param& p, const std::vector<OscArg>& args, size_t species_count) {
  using T = registry::Type;
  if (args.size() == 1) {
    if (const auto* s = std::get_if<std::string>(&args[0])) return registry::parse(p, *s);
  }
  switch (p.type) {
    case T::Float:
    case T::Int:
    case T::Count: want_count(p, args, 1, "one number"); return number_value(p, args[0]);
    case T::Bool: want_count(p, args, 1, "one value"); return bool_value(p, args[0]);
    case T::Choice: want_count(p, args, 1, "one value"); return choice_value(p, args[0]);
    case T::Text: expected(p, "a string");
    case T::Colour: return colour_value(p, args);
    case T::Size: return size_value(p, args);
    case T::Matrix: return matrix_value(p, args, species_count);
  }
  expected(p, "a value");
}

RemoteCommand read_command(const OscMessage& m, const Preset& live) {
  try {
    if (!m.address.starts_with(kOscPrefix)) {
      throw Error("unknown address: physarum's addresses start with " + std::string(kOscPrefix));
    }
    const std::string rest = m.address.substr(kOscPrefix.size());
    RemoteCommand c;
    if (rest == "reset" || rest == "record" || rest == "pause") {
      c.kind = rest == "reset"    ? RemoteCommand::Kind::Reset
               : rest == "record" ? RemoteCommand::Kind::Record
                                  : RemoteCommand::Kind::Pause;
      c.on = state_of(m);
      return c;
    }
    std::string dotted = rest;
    std::replace(dotted.begin(), dotted.end(), '/', '.');
    c.key = registry::resolve(live, dotted);
    const auto species = static_cast<size_t>(live.species.count());
    c.value = value_from_osc(*c.key.param, m.args, species);
    registry::check(*c.key.param, c.value, c.key.name(), species);
    return c;
  } catch (const Error& e) {
    throw Error("OSC " + describe(m) + ": " + e.what());
  }
}

}  // namespace physarum::app
