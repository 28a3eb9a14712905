#include "atlas/sweep_grid.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "sim/registry.hpp"

namespace physarum::app::atlas {
namespace {

using run::UsageError;

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == sep) {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

bool read_number(const std::string& s, double* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  errno = 0;
  *v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && errno == 0 && std::isfinite(*v);
}

std::string shortest(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// Why `key` cannot be an axis ("" when it can): only a number can be swept, and [run] keys make
// worlds of other sizes, which a mosaic cannot hold.
std::string unsweepable(const registry::Param& p, const std::string& key) {
  if (p.type != registry::Type::Float && p.type != registry::Type::Int) {
    return key + " is a " + std::string(registry::type_name(p.type)) +
           "; an atlas sweeps a number (see 'physarum params')";
  }
  if (p.section == registry::Section::Run) {
    return key + " changes the run itself; every world of an atlas has the same run";
  }
  return "";
}

// The key as the registry resolves it in `preset`, when it can be swept.
registry::Key numeric_key(const std::string& what, const std::string& key, const Preset& preset) {
  registry::Key k;
  try {
    k = registry::resolve(preset, key);
  } catch (const Error& e) {
    throw UsageError(what + ": " + e.what());
  }
  if (const std::string why = unsweepable(*k.param, key); !why.empty()) throw UsageError(what + ": " + why);
  return k;
}

}  // namespace

std::vector<std::string> sweepable_keys(const Preset& preset) {
  std::vector<std::string> out;
  for (const registry::Key& k : registry::keys_of(preset)) {
    if (unsweepable(*k.param, k.name()).empty()) out.push_back(k.name());
  }
  return out;
}

double Axis::value(int i) const {
  if (n <= 1) return a;
  const double t = static_cast<double>(i) / static_cast<double>(n - 1);
  const double v = log ? a * std::pow(b / a, t) : a + (b - a) * t;
  return integer ? std::round(v) : v;
}

std::string Axis::assignment(int i) const {
  return key + "=" + shortest(value(i));
}

std::string Axis::label() const {
  return unit.empty() ? key : key + " (" + unit + ")";
}

Axis parse_axis(std::string_view option, std::string_view text, const Preset& preset) {
  const std::string what = std::string(option) + " " + std::string(text);
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    throw UsageError(what + ": expected KEY=a:b:n or KEY=a:b:n:log, e.g. model.sensor_angle_deg=5:120:24");
  }
  Axis ax;
  ax.key = std::string(text.substr(0, eq));
  const std::vector<std::string> parts = split(text.substr(eq + 1), ':');
  if (parts.size() != 3 && !(parts.size() == 4 && parts[3] == "log")) {
    throw UsageError(what + ": the range is a:b:n or a:b:n:log (the fourth part can only be 'log')");
  }
  if (!read_number(parts[0], &ax.a)) throw UsageError(what + ": a = '" + parts[0] + "' is not a number");
  if (!read_number(parts[1], &ax.b)) throw UsageError(what + ": b = '" + parts[1] + "' is not a number");
  double n = 0;
  if (!read_number(parts[2], &n) || n != std::floor(n) || n < 1 || n > kMaxAxisValues) {
    throw UsageError(what + ": n = '" + parts[2] + "' must be a whole number from 1 to " +
                     std::to_string(kMaxAxisValues));
  }
  ax.n = static_cast<int>(n);
  ax.log = parts.size() == 4;
  if (ax.log && (ax.a <= 0 || ax.b <= 0)) {
    throw UsageError(what + ": log spacing needs a and b above 0");
  }
  const registry::Key k = numeric_key(what, ax.key, preset);
  ax.unit = std::string(k.param->unit);
  ax.integer = k.param->type == registry::Type::Int;
  return ax;
}

run::Recipe world_recipe(const run::Recipe& base, const Axis& x, int ix, const Axis& y, int iy) {
  run::Recipe r = base;
  r.sets.push_back(x.assignment(ix));
  r.sets.push_back(y.assignment(iy));
  return r;
}

run::Recipe frame_recipe(const run::Recipe& base, const Axis& t, int it) {
  run::Recipe r = base;
  r.sets.push_back(t.assignment(it));
  return r;
}

void check_axes(const run::Recipe& base, const Axis& x, const Axis& y, const Axis* t) {
  const auto check = [&](const std::string& swept, const run::Recipe& frame, int ix, int iy) {
    try {
      (void)run::resolve(world_recipe(frame, x, ix, y, iy));
    } catch (const std::exception& e) {
      throw UsageError(swept + ": " + e.what());
    }
  };
  for (int i = 0; i < x.n; ++i) check("--x " + x.assignment(i), base, i, 0);
  for (int i = 0; i < y.n; ++i) check("--y " + y.assignment(i), base, 0, i);
  if (t) {
    for (int i = 0; i < t->n; ++i) check("--t " + t->assignment(i), frame_recipe(base, *t, i), 0, 0);
  }
}

}  // namespace physarum::app::atlas
