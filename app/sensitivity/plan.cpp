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

Job Plan::job(uint64_t index) const {
  const Point& p = point_list[static_cast<size_t>(index / static_cast<uint64_t>(repeats))];
  const int repeat = static_cast<int>(index % static_cast<uint64_t>(repeats));
  return {static_cast<int>(index / static_cast<uint64_t>(repeats)),
          p.parameter,
          p.value,
          repeat,
          seed + static_cast<uint32_t>(repeat),
          p.sets,
          p.perturbation};
}

Plan make_plan(Mode mode, const Preset& base, const Perturbation& perturbation, const SweepSpec& sweep,
               double average_eps, int repeats) {
  Plan plan;
  plan.mode = mode;
  plan.repeats = repeats;
  plan.seed = base.run.seed;
  plan.points = mode == Mode::Single  ? 1
                : mode == Mode::Sweep ? sweep.count
                                      : static_cast<int>(model_parameter_keys(base).size());
  if (repeats < 1 || plan.points < 1 || plan.job_count() > kMaxRuns) {
    throw Error(std::to_string(plan.points) + " point(s) x --repeats " + std::to_string(repeats) + " = " +
                std::to_string(plan.job_count()) + " twin runs; a plan holds 1 to " +
                std::to_string(kMaxRuns));
  }
  if (mode == Mode::Single) {
    plan.point_list.push_back({perturbation.text, perturbation.eps, {}, perturbation});
  } else if (mode == Mode::Sweep) {
    for (const double value : sweep_values(sweep)) {
      Preset check = base;  // refuse a value out of range before anything runs
      try {
        set_parameter(check, sweep.key, value);
      } catch (const Error& e) {
        throw Error("--sweep: " + std::string(e.what()));
      }
      plan.point_list.push_back({sweep.key, value, {sweep.key + "=" + format_value(value)}, perturbation});
    }
  } else {
    for (const std::string& key : model_parameter_keys(base)) {
      Perturbation p;
      p.kind = Perturbation::Kind::Parameter;
      p.key = key;
      p.eps = average_eps;
      p.text = key + ":" + format_value(average_eps);
      plan.point_list.push_back({key, parameter_value(base, key), {}, p});
    }
  }
  return plan;
}

bool in_shard(uint64_t job_index, const Shard& s) {
  return job_index % static_cast<uint64_t>(s.count) + 1 == static_cast<uint64_t>(s.index);
}

}  // namespace physarum::app::sensitivity
