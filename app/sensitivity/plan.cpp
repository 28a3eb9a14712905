#include "sensitivity/plan.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "sensitivity/parameters.hpp"

namespace physarum::app::sensitivity {
namespace {

template <typename T>
bool parse_number(std::string_view s, T& out) {
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

std::string format_value(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

}  // namespace

std::string to_string(Mode m) {
  switch (m) {
    case Mode::Sweep: return "sweep";
    case Mode::Average: return "average";
    case Mode::Single: break;
  }
  return "single";
}

Mode parse_mode(const std::string& s) {
  if (s == "single") return Mode::Single;
  if (s == "sweep") return Mode::Sweep;
  if (s == "average") return Mode::Average;
  throw Error("unknown mode '" + s + "' (single, sweep, average)");
}

SweepSpec parse_sweep(const std::string& spec) {
  const std::string usage =
      "--sweep " + spec + ": expected KEY=FROM:TO:COUNT, e.g. model.sensor_angle_deg=5:90:18";
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0) throw Error(usage);
  SweepSpec s;
  s.key = spec.substr(0, eq);
  const std::string_view range = std::string_view(spec).substr(eq + 1);
  const size_t c1 = range.find(':');
  const size_t c2 = c1 == std::string_view::npos ? c1 : range.find(':', c1 + 1);
  if (c2 == std::string_view::npos || !parse_number(range.substr(0, c1), s.from) ||
      !parse_number(range.substr(c1 + 1, c2 - c1 - 1), s.to) ||
      !parse_number(range.substr(c2 + 1), s.count) || !std::isfinite(s.from) || !std::isfinite(s.to)) {
    throw Error(usage);
  }
  if (s.count < 1 || s.count > 100000) throw Error("--sweep " + spec + ": COUNT must be 1 to 100000");
  try {
    (void)parameter_value(Preset{}, s.key.rfind("species.", 0) == 0 ? "model.decay" : s.key);
  } catch (const Error& e) {
    throw Error("--sweep " + spec + ": " + e.what());
  }
  return s;
}

std::vector<double> sweep_values(const SweepSpec& s) {
  std::vector<double> v;
  for (int i = 0; i < s.count; ++i) {
    const double t = s.count == 1 ? 0.0 : static_cast<double>(i) / (s.count - 1);
    v.push_back(static_cast<float>(s.from + (s.to - s.from) * t));
  }
  return v;
}

Shard parse_shard(const std::string& spec) {
  Shard s;
  const size_t slash = spec.find('/');
  if (slash == std::string::npos || !parse_number(std::string_view(spec).substr(0, slash), s.index) ||
      !parse_number(std::string_view(spec).substr(slash + 1), s.count) || s.count < 1 || s.index < 1 ||
      s.index > s.count) {
    throw Error("--shard " + spec + ": expected K/N with 1 <= K <= N, e.g. 2/8");
  }
  return s;
}

Plan make_plan(Mode mode, const Preset& base, const Perturbation& perturbation, const SweepSpec& sweep,
               double average_eps, int repeats) {
  Plan plan;
  plan.mode = mode;
  plan.repeats = repeats;
  const auto add = [&](int point, const std::string& parameter, double value, std::vector<std::string> sets,
                       const Perturbation& p) {
    for (int r = 0; r < repeats; ++r) {
      plan.jobs.push_back({point, parameter, value, r, base.run.seed + static_cast<uint32_t>(r), sets, p});
    }
  };
  if (mode == Mode::Single) {
    add(0, perturbation.text, perturbation.eps, {}, perturbation);
  } else if (mode == Mode::Sweep) {
    const std::vector<double> values = sweep_values(sweep);
    plan.points = static_cast<int>(values.size());
    for (int i = 0; i < plan.points; ++i) {
      Preset check = base;  // refuse a value out of range before anything runs
      try {
        set_parameter(check, sweep.key, values[i]);
      } catch (const Error& e) {
        throw Error("--sweep: " + std::string(e.what()));
      }
      add(i, sweep.key, values[i], {sweep.key + "=" + format_value(values[i])}, perturbation);
    }
  } else {
    const std::vector<std::string> keys = model_parameter_keys(base);
    plan.points = static_cast<int>(keys.size());
    for (int i = 0; i < plan.points; ++i) {
      Perturbation p;
      p.kind = Perturbation::Kind::Parameter;
      p.key = keys[i];
      p.eps = average_eps;
      p.text = keys[i] + ":" + format_value(average_eps);
      add(i, keys[i], parameter_value(base, keys[i]), {}, p);
    }
  }
  return plan;
}

bool in_shard(int job_index, const Shard& s) {
  return job_index % s.count + 1 == s.index;
}

}  // namespace physarum::app::sensitivity
