#include "sensitivity/perturbation.hpp"

#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

#include "sensitivity/parameters.hpp"

namespace physarum::app::sensitivity {
namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

template <typename T>
bool parse_number(std::string_view s, T& out) {
  if (s.empty()) return false;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

double parse_eps(std::string_view s, const std::string& spec) {
  double v = 0;
  if (!parse_number(s, v) || !std::isfinite(v)) {
    throw Error("--perturb " + spec + ": '" + std::string(s) + "' is not a finite number");
  }
  return v;
}

}  // namespace

Perturbation parse_perturbation(const std::string& spec) {
  Perturbation p;
  p.text = spec;
  const std::vector<std::string_view> parts = split(spec, ':');
  if (parts[0] == "agent") {
    if (parts.size() != 4)
      throw Error("--perturb " + spec + ": expected agent:ID:theta|x|y:EPS, e.g. agent:0:theta:1e-4");
    p.kind = Perturbation::Kind::Agent;
    if (!parse_number(parts[1], p.agent)) {
      throw Error("--perturb " + spec + ": agent id '" + std::string(parts[1]) + "' is not a whole number");
    }
    if (parts[2] == "theta") {
      p.component = 't';
    } else if (parts[2] == "x" || parts[2] == "y") {
      p.component = parts[2][0];
    } else {
      throw Error("--perturb " + spec + ": '" + std::string(parts[2]) + "' is not theta, x or y");
    }
    p.eps = parse_eps(parts[3], spec);
    return p;
  }
  if (parts[0] == "field") {
    const std::vector<std::string_view> xy =
        parts.size() == 3 ? split(parts[1], ',') : std::vector<std::string_view>{};
    if (parts.size() != 3 || xy.size() != 2) {
      throw Error("--perturb " + spec + ": expected field:X,Y:EPS, e.g. field:64,64:1e-3");
    }
    p.kind = Perturbation::Kind::Field;
    if (!parse_number(xy[0], p.x) || !parse_number(xy[1], p.y) || p.x < 0 || p.y < 0) {
      throw Error("--perturb " + spec + ": the cell '" + std::string(parts[1]) +
                  "' is not X,Y in whole cells");
    }
    p.eps = parse_eps(parts[2], spec);
    return p;
  }
  if (parts.size() != 2 || parts[0].find('.') == std::string_view::npos) {
    throw Error(
        "--perturb " + spec +
        ": expected agent:ID:theta|x|y:EPS, field:X,Y:EPS or KEY:REL_EPS (e.g. model.sensor_angle_deg:1e-4)");
  }
  p.kind = Perturbation::Kind::Parameter;
  p.key = std::string(parts[0]);
  p.eps = parse_eps(parts[1], spec);
  Preset probe;  // the key must name a number; species keys are checked against the real preset later
  if (p.key.rfind("species.", 0) != 0) {
    try {
      (void)parameter_value(probe, p.key);
    } catch (const Error& e) {
      throw Error("--perturb " + spec + ": " + e.what());
    }
  }
  return p;
}

double perturb_preset(const Perturbation& p, Preset& b) {
  if (p.kind != Perturbation::Kind::Parameter) return p.eps;
  try {
    return perturb_parameter(b, p.key, p.eps);
  } catch (const Error& e) {
    throw Error("--perturb " + p.text + ": " + e.what());
  }
}

void perturb_state(const Perturbation& p, Backend& b) {
  perturb_state(p, TwinState{b.size(), b.agent_count(), [&b] { return b.read_agents(); },
                             [&b](const AgentState& a) { b.set_agents(a); },
                             [&b](std::vector<float>& f) { b.read_field(f); },
                             [&b](const std::vector<float>& f) { b.set_field(f, kAllChannels); }});
}

void perturb_state(const Perturbation& p, const TwinState& b) {
  const Size size = b.size;
  if (p.kind == Perturbation::Kind::Agent) {
    if (p.agent >= b.agents) {
      throw Error("--perturb " + p.text + ": agent " + std::to_string(p.agent) + " does not exist (0 to " +
                  std::to_string(b.agents - 1) + ")");
    }
    AgentState a = b.read_agents();  // sorted by id
    const size_t i = static_cast<size_t>(p.agent);
    const auto eps = static_cast<float>(p.eps);
    // Positions stay in [0, W) x [0, H): the model's wrap, in double so it rounds once.
    const auto wrap = [](float v, int n) {
      double w = std::fmod(static_cast<double>(v), n);
      if (w < 0) w += n;
      const auto f = static_cast<float>(w);
      return f >= static_cast<float>(n) ? 0.0f : f;
    };
    if (p.component == 't') a.theta[i] += eps;
    if (p.component == 'x') a.x[i] = wrap(a.x[i] + eps, size.width);
    if (p.component == 'y') a.y[i] = wrap(a.y[i] + eps, size.height);
    b.set_agents(a);
  } else if (p.kind == Perturbation::Kind::Field) {
    if (p.x >= size.width || p.y >= size.height) {
      throw Error("--perturb " + p.text + ": the cell is outside the " + format_size(size) + " field");
    }
    std::vector<float> f;
    b.read_field(f);  // (S, H, W): the cell changes in every species' channel
    const size_t plane = static_cast<size_t>(size.width) * static_cast<size_t>(size.height);
    const size_t cell = static_cast<size_t>(p.y) * static_cast<size_t>(size.width) + static_cast<size_t>(p.x);
    for (size_t c = cell; c < f.size(); c += plane) f[c] += static_cast<float>(p.eps);
    b.set_field(f);
  }
}

}  // namespace physarum::app::sensitivity
