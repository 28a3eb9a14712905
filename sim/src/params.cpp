#include "sim/params.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

namespace physarum {
namespace {

// The shortest text that reads back as exactly this value: "%g" printed 1.0000001 as "1", which
// looked in range next to "allowed 0 to 1".
template <class T>
std::string fmt(T v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// Parameters are stored as float: the bounds are compared as floats too, so that the documented
// bound itself (1e-6, whose float is a little below the double 1e-6) is allowed.
void check_range(const char* name, float v, double lo, double hi) {
  const auto flo = static_cast<float>(lo), fhi = static_cast<float>(hi);
  if (!std::isfinite(v) || v < flo || v > fhi) {
    throw Error(std::string(name) + " = " + fmt(v) + " is out of range: allowed " + fmt(flo) + " to " +
                fmt(fhi));
  }
}

void check_range(const char* name, int v, int lo, int hi) {
  if (v < lo || v > hi) {
    throw Error(std::string(name) + " = " + std::to_string(v) + " is out of range: allowed " +
                std::to_string(lo) + " to " + std::to_string(hi));
  }
}

[[noreturn]] void bad_choice(const char* what, std::string_view got, const char* choices) {
  throw Error(std::string(what) + " '" + std::string(got) + "' is not one of: " + choices);
}

}  // namespace

void validate(const ModelParams& m) {
  check_range("model.sensor_angle_deg", m.sensor_angle_deg, 0.0, 180.0);
  check_range("model.rotation_angle_deg", m.rotation_angle_deg, 0.0, 180.0);
  check_range("model.sensor_distance", m.sensor_distance, 0.0, 1000.0);
  check_range("model.step_size", m.step_size, 0.0, 100.0);
  check_range("model.deposit", m.deposit, 0.0, 1.0e6);
  check_range("model.decay", m.decay, 0.0, 1.0);
  check_range("model.diffuse", m.diffuse, 0.0, 1.0);
  check_range("model.jitter", m.jitter, 0.0, rule::kTwoPi);  // float 2 pi (6.2831855) is allowed
  if (m.turn_rule != TurnRule::Simple && m.turn_rule != TurnRule::Jones)
    throw Error("model.turn_rule is invalid");
}

void validate(const SpawnParams& s) {
  check_range("spawn.field_strength", s.field_strength, 0.0, 1.0e6);
  if (s.mode != SpawnMode::Random && s.mode != SpawnMode::Disc && s.mode != SpawnMode::Ring &&
      s.mode != SpawnMode::Point) {
    throw Error("spawn.mode is invalid");
  }
}

void validate(const RunParams& r) {
  if (r.size.width < 1 || r.size.height < 1 || r.size.width > kMaxSide || r.size.height > kMaxSide) {
    throw Error("run.size = " + format_size(r.size) + " is out of range: each side 1 to " +
                std::to_string(kMaxSide));
  }
  if (r.agents < 1 || r.agents > kMaxAgents) {
    throw Error("run.agents = " + std::to_string(r.agents) + " is out of range: allowed 1 to " +
                std::to_string(kMaxAgents));
  }
}

void validate(const DisplayParams& d) {
  if (d.palette.empty()) throw Error("display.palette must name a palette");
  check_range("display.exposure", d.exposure, 1.0e-6, 1.0e6);
  check_range("display.gamma", d.gamma, 0.05, 20.0);
  check_range("display.levels", d.levels, 2, 16);
  check_range("display.threshold", d.threshold, 0.0, 1.0);
  check_range("display.smoothing", d.smoothing, 0, 8);
  check_range("display.cave_channel", d.cave_channel, kCaveFromSum, kMaxSpecies - 1);
  if (d.walls_colour > 0xffffffU) throw Error("display.walls_colour is not an RGB colour");
  if (d.food_colour > 0xffffffU) throw Error("display.food_colour is not an RGB colour");
}

void validate(const EnvironmentParams& e) {
  check_range("environment.food_strength", e.food_strength, -1000.0, 1000.0);
  check_range("environment.walls_threshold", e.walls_threshold, 0.0, 1.0);
  if (e.boundary != Boundary::Wrap && e.boundary != Boundary::Walls)
    throw Error("environment.boundary is invalid");
  if (e.fit != ImageFit::Fill && e.fit != ImageFit::Fit) throw Error("environment.fit is invalid");
}

void validate(const Preset& p) {
  validate(p.species);
  validate(p.environment);
  validate(p.model);
  validate(p.spawn);
  validate(p.run);
  validate(p.display);
  if (p.display.cave_channel >= p.species.count()) {
    throw Error("display.cave_channel must be -1 (the sum) or a species' channel, 0 to " +
                std::to_string(p.species.count() - 1) + " (got " + std::to_string(p.display.cave_channel) +
                ")");
  }
  validate_keyframes(p);
}

void validate(const SpeciesSet& set) {
  const size_t n = set.list.size();
  if (n == 0) {
    if (!set.interaction.empty()) throw Error("interaction.matrix needs [[species]] tables");
    return;
  }
  if (n > static_cast<size_t>(kMaxSpecies)) {
    throw Error("species: " + std::to_string(n) + " species; allowed 1 to " + std::to_string(kMaxSpecies));
  }
  double shares = 0;
  for (size_t s = 0; s < n; ++s) {
    const Species& sp = set.list[s];
    const std::string prefix = "species." + std::to_string(s) + ".";
    try {
      validate(sp.model);
    } catch (const Error& e) {
      // "model.decay = 2 is out of range..." -> "species.1.decay = 2 is out of range..."
      std::string msg = e.what();
      if (msg.rfind("model.", 0) == 0) msg.replace(0, 6, prefix);
      throw Error(msg);
    }
    check_range((prefix + "share").c_str(), sp.share, 0.0, 1.0e6);
    if (sp.food_strength) check_range((prefix + "food_strength").c_str(), *sp.food_strength, -1000.0, 1000.0);
    if (sp.colour > 0xffffffU) throw Error(prefix + "colour is not an RGB colour");
    if (sp.spawn != SpawnMode::Random && sp.spawn != SpawnMode::Disc && sp.spawn != SpawnMode::Ring &&
        sp.spawn != SpawnMode::Point) {
      throw Error(prefix + "spawn is invalid");
    }
    shares += sp.share;
  }
  if (!(shares > 0)) throw Error("species: the shares sum to 0; at least one species needs a share > 0");
  if (set.interaction.size() != n * n) {
    throw Error("interaction.matrix must be " + std::to_string(n) + " x " + std::to_string(n) +
                " (one row of " + std::to_string(n) + " numbers per species); it has " +
                std::to_string(set.interaction.size()) + " numbers");
  }
  for (size_t i = 0; i < n * n; ++i) {
    const std::string name =
        "interaction.matrix[" + std::to_string(i / n) + "][" + std::to_string(i % n) + "]";
    check_range(name.c_str(), set.interaction[i], -kMaxInteraction, kMaxInteraction);
  }
}

SpeciesSet resolve_species(const SpeciesSet& s, const ModelParams& model, SpawnMode spawn) {
  if (!s.list.empty()) return s;
  SpeciesSet one;
  Species sp;
  sp.model = model;
  sp.spawn = spawn;
  one.list.push_back(sp);
  one.interaction = {1.0f};
  return one;
}

bool is_single_plain(const SpeciesSet& resolved) {
  return resolved.list.size() == 1 && resolved.interaction.size() == 1 && resolved.interaction[0] == 1.0f;
}

rule::SpeciesParams make_species_params(const SpeciesSet& resolved, Size size, uint32_t seed,
                                        uint64_t agents) {
  validate(resolved);
  if (resolved.list.empty()) throw Error("make_species_params: an unresolved (empty) species set");
  rule::SpeciesParams sp{};
  const size_t n = resolved.list.size();
  sp.count = static_cast<int>(n);
  // Cumulative shares in double, in order; the last end is exactly N (docs/MODEL.md, "Several species").
  double total = 0;
  for (const Species& s : resolved.list) total += s.share;
  double cumulative = 0;
  for (size_t s = 0; s < static_cast<size_t>(kMaxSpecies); ++s) {
    if (s < n) cumulative += resolved.list[s].share;
    const double end = s + 1 >= n ? static_cast<double>(agents)
                                  : std::floor(static_cast<double>(agents) * cumulative / total);
    sp.end[s] = static_cast<uint32_t>(std::min(end, static_cast<double>(agents)));
    sp.p[s] = make_step_params(resolved.list[std::min(s, n - 1)].model, size, seed);
    for (size_t t = 0; t < static_cast<size_t>(kMaxSpecies); ++t) {
      sp.w[s][t] = s < n && t < n ? resolved.interaction[s * n + t] : 0.0f;
    }
  }
  return sp;
}

rule::StepParams make_step_params(const ModelParams& m, Size size, uint32_t seed) {
  validate(m);
  constexpr float kDegToRad = 0.017453292519943295f;
  rule::StepParams p{};
  p.width = size.width;
  p.height = size.height;
  p.fwidth = static_cast<float>(size.width);
  p.fheight = static_cast<float>(size.height);
  p.inv_width = 1.0f / p.fwidth;
  p.inv_height = 1.0f / p.fheight;
  p.sensor_distance = m.sensor_distance;
  const rule::SinCos sa = rule::sin_cos(rule::mul(m.sensor_angle_deg, kDegToRad));
  p.cos_sa = sa.c;
  p.sin_sa = sa.s;
  p.rotation = rule::mul(m.rotation_angle_deg, kDegToRad);
  p.step_size = m.step_size;
  p.jitter = m.jitter;
  p.turn_rule = m.turn_rule == TurnRule::Jones ? rule::kTurnJones : rule::kTurnSimple;
  p.seed = seed;
  p.deposit = m.deposit;
  p.keep = rule::sub(1.0f, m.decay);
  p.self_w = rule::sub(1.0f, m.diffuse);
  p.neighbour_w = rule::mul(m.diffuse, 1.0f / 9.0f);
  return p;
}

std::string_view to_string(TurnRule r) {
  return r == TurnRule::Jones ? "jones" : "simple";
}
std::string_view to_string(SpawnMode m) {
  switch (m) {
    case SpawnMode::Disc: return "disc";
    case SpawnMode::Ring: return "ring";
    case SpawnMode::Point: return "point";
    default: return "random";
  }
}
std::string_view to_string(Mapping m) {
  return m == Mapping::Log ? "log" : "linear";
}
std::string_view to_string(CaveMode m) {
  switch (m) {
    case CaveMode::Even: return "even";
    case CaveMode::Quantile: return "quantile";
    case CaveMode::Binary: return "binary";
    default: return "off";
  }
}

TurnRule parse_turn_rule(std::string_view s) {
  if (s == "simple") return TurnRule::Simple;
  if (s == "jones") return TurnRule::Jones;
  bad_choice("turn rule", s, "simple, jones");
}
SpawnMode parse_spawn_mode(std::string_view s) {
  if (s == "random") return SpawnMode::Random;
  if (s == "disc") return SpawnMode::Disc;
  if (s == "ring") return SpawnMode::Ring;
  if (s == "point") return SpawnMode::Point;
  bad_choice("spawn mode", s, "random, disc, ring, point");
}
Mapping parse_mapping(std::string_view s) {
  if (s == "linear") return Mapping::Linear;
  if (s == "log") return Mapping::Log;
  bad_choice("mapping", s, "linear, log");
}
std::string_view to_string(Blend b) {
  return b == Blend::Ink ? "ink" : "additive";
}
Blend parse_blend(std::string_view s) {
  if (s == "additive") return Blend::Additive;
  if (s == "ink") return Blend::Ink;
  bad_choice("blend", s, "additive, ink");
}
std::string_view to_string(Background b) {
  return b == Background::Transparent ? "transparent" : "opaque";
}
Background parse_background(std::string_view s) {
  if (s == "opaque") return Background::Opaque;
  if (s == "transparent") return Background::Transparent;
  bad_choice("background", s, "opaque, transparent");
}
std::string_view to_string(ImageFit f) {
  return f == ImageFit::Fit ? "fit" : "fill";
}
std::string_view to_string(Boundary b) {
  return b == Boundary::Walls ? "walls" : "wrap";
}
ImageFit parse_image_fit(std::string_view s) {
  if (s == "fill") return ImageFit::Fill;
  if (s == "fit") return ImageFit::Fit;
  bad_choice("fit", s, "fill, fit");
}
Boundary parse_boundary(std::string_view s) {
  if (s == "wrap") return Boundary::Wrap;
  if (s == "walls") return Boundary::Walls;
  bad_choice("boundary", s, "wrap, walls");
}
CaveMode parse_cave_mode(std::string_view s) {
  if (s == "off") return CaveMode::Off;
  if (s == "even") return CaveMode::Even;
  if (s == "quantile") return CaveMode::Quantile;
  if (s == "binary") return CaveMode::Binary;
  bad_choice("cave mode", s, "off, even, quantile, binary");
}

Size parse_size(std::string_view s) {
  const auto x = s.find_first_of("xX");
  Size out;
  if (x == std::string_view::npos)
    throw Error("size '" + std::string(s) + "' is not WIDTHxHEIGHT (e.g. 1920x1080)");
  const auto w = std::from_chars(s.data(), s.data() + x, out.width);
  const auto h = std::from_chars(s.data() + x + 1, s.data() + s.size(), out.height);
  if (w.ec != std::errc() || w.ptr != s.data() + x || h.ec != std::errc() || h.ptr != s.data() + s.size()) {
    throw Error("size '" + std::string(s) + "' is not WIDTHxHEIGHT (e.g. 1920x1080)");
  }
  if (out.width < 1 || out.height < 1 || out.width > kMaxSide || out.height > kMaxSide) {
    throw Error("size '" + std::string(s) + "' is out of range: each side 1 to " + std::to_string(kMaxSide));
  }
  return out;
}

// Decimal digits with an optional fraction and suffix (K, M, G/B), read exactly in integers: the
// fraction must end within the suffix's digits ("1.5K" = 1500; "1.5" and "1.0005K" are refused, not
// rounded). No sign, exponent, hexadecimal or octal.
uint64_t parse_count(std::string_view s) {
  const std::string text(s);
  if (text.empty()) throw Error("agent count is empty");
  const auto not_a_number = [&] {
    return Error("agent count '" + text + "' is not a number like 1000, 250K, 1.5M or 4M");
  };
  int shift = 0;  // decimal digits the suffix moves the point by
  std::string_view num = s;
  switch (num.back()) {
    case 'k':
    case 'K': shift = 3; break;
    case 'm':
    case 'M': shift = 6; break;
    case 'g':
    case 'G':
    case 'b':
    case 'B': shift = 9; break;
    default: break;
  }
  if (shift > 0) num.remove_suffix(1);
  const auto dot = num.find('.');
  const std::string_view whole = num.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view{} : num.substr(dot + 1);
  const auto all_digits = [](std::string_view d) {
    return std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (whole.empty() || !all_digits(whole) || !all_digits(frac) ||
      (dot != std::string_view::npos && frac.empty()))
    throw not_a_number();
  while (!frac.empty() && frac.back() == '0') frac.remove_suffix(1);  // "12.000K" is 12000
  if (static_cast<int>(frac.size()) > shift) {
    throw Error("agent count '" + text + "' is not a whole number of agents");
  }
  const auto out_of_range = [&] {
    return Error("agent count '" + text + "' is out of range: allowed 1 to " + std::to_string(kMaxAgents));
  };
  // Digit by digit, stopping as soon as the value passes the limit (no overflow, any length).
  std::string digits(whole);
  digits.append(frac).append(static_cast<size_t>(shift) - frac.size(), '0');
  uint64_t n = 0;
  for (char c : digits) {
    n = n * 10 + static_cast<uint64_t>(c - '0');
    if (n > kMaxAgents) throw out_of_range();
  }
  if (n < 1) throw out_of_range();
  return n;
}

uint32_t parse_colour(std::string_view s) {
  const auto bad = [&] { return Error("colour '" + std::string(s) + "' is not of the form \"#rrggbb\""); };
  if (s.size() != 7 || s[0] != '#') throw bad();
  uint32_t v = 0;
  const auto r = std::from_chars(s.data() + 1, s.data() + s.size(), v, 16);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) throw bad();
  for (char c : s.substr(1)) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) throw bad();  // from_chars takes no sign, but be sure
  }
  return v;
}

std::string format_colour(uint32_t rgb) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%06x", rgb & 0xffffffU);
  return buf;
}

std::string format_size(Size s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height);
}

std::string format_count(uint64_t n) {
  if (n >= 1000000 && n % 1000000 == 0) return std::to_string(n / 1000000) + "M";
  if (n >= 1000 && n % 1000 == 0) return std::to_string(n / 1000) + "K";
  return std::to_string(n);
}

}  // namespace physarum
