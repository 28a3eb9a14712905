#include "sim/params.hpp"

#include "sim/points.hpp"
#include "sim/registry.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

namespace physarum {
namespace {

// Every parameter of a table in range, named "prefix.key" (registry::check's messages).
template <class Table>
void validate_table(registry::Section section, const Table& t, const std::string& prefix) {
  for (const registry::Param& p : registry::params()) {
    if (p.section == section) registry::check(p, p.get(&t), prefix + std::string(p.name));
  }
}

[[noreturn]] void bad_choice(const char* what, std::string_view got, const char* choices) {
  throw Error(std::string(what) + " '" + std::string(got) + "' is not one of: " + choices);
}

}  // namespace

void validate(const ModelParams& m) {
  validate_table(registry::Section::Model, m, "model.");
}

void validate(const SpawnParams& s) {
  validate_table(registry::Section::Spawn, s, "spawn.");
}

uint64_t agents_for_density(double density, Size size) {
  const double exact = density * static_cast<double>(cells_of(size));
  const double rounded = exact >= 10000.0 ? std::round(exact / 1000.0) * 1000.0 : std::round(exact);
  return static_cast<uint64_t>(std::clamp(rounded, 1.0, static_cast<double>(kMaxAgents)));
}

double density_of(const RunParams& r) {
  if (r.density) return *r.density;
  return static_cast<double>(r.agents) / static_cast<double>(cells_of(r.size));
}

uint64_t cells_of(Size size) {
  return static_cast<uint64_t>(size.width) * static_cast<uint64_t>(size.height) *
         static_cast<uint64_t>(size.depth);
}

void validate(const RunParams& r) {
  validate_table(registry::Section::Run, r, "run.");
  if (!r.density) return;
  // Both given: they must say the same, within 1% (a count written by hand, "1M", rounds).
  const double exact = static_cast<double>(*r.density) * static_cast<double>(cells_of(r.size));
  const uint64_t given = agents_for_density(*r.density, r.size);
  if (r.agents != given && std::fabs(static_cast<double>(r.agents) - exact) > 0.01 * exact) {
    char density[32];
    std::snprintf(density, sizeof density, "%g", static_cast<double>(*r.density));
    throw Error("run.agents = " + format_count(r.agents) + " and run.density = " + density +
                " disagree: that density gives " + format_count(given) + " agents at " + format_size(r.size) +
                "; give one of them");
  }
}

void validate(const DisplayParams& d) {
  validate_table(registry::Section::Display, d, "display.");
}

void validate(const EnvironmentParams& e) {
  validate_table(registry::Section::Environment, e, "environment.");
  if (!e.points_box.empty()) (void)parse_box3(e.points_box);
}

void validate(const Preset& p) {
  validate(p.species);
  validate(p.environment);
  validate(p.model);
  validate(p.spawn);
  validate(p.run);
  validate(p.display);
  check_cave_channel(p.display, p.species.count());
  validate_keyframes(p);
}

void check_cave_channel(const DisplayParams& d, int species) {
  if (d.cave_channel >= species) {
    throw Error("display.cave_channel must be -1 (the sum) or a species' channel, 0 to " +
                std::to_string(species - 1) + " (got " + std::to_string(d.cave_channel) + ")");
  }
}

void check_shares(const SpeciesSet& set) {
  double shares = 0;
  for (const Species& s : set.list) shares += s.share;
  if (!set.list.empty() && !(shares > 0))
    throw Error("species: the shares sum to 0; at least one species needs a share > 0");
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
  for (size_t s = 0; s < n; ++s) {
    const std::string prefix = "species." + std::to_string(s) + ".";
    validate_table(registry::Section::Species, set.list[s], prefix);
    validate_table(registry::Section::Model, set.list[s].model, prefix);
  }
  check_shares(set);
  registry::check(*registry::find(registry::Section::Interaction, "matrix"), set.interaction,
                  "interaction.matrix", n);
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

rule::SpeciesParams make_species_params(const SpeciesSet& resolved, Size size, uint32_t seed, uint64_t agents,
                                        int scale) {
  validate(resolved);
  if (resolved.list.empty()) throw Error("make_species_params: an unresolved (empty) species set");
  rule::SpeciesParams sp{};
  const size_t n = resolved.list.size();
  sp.count = static_cast<int>(n);
  // Detail K: the blur spreads a step's trail K^2 times as far in variance, in the fewest passes that
  // keep every species' diffuse within 0..1 (docs/MODEL.md, "Scale"). K = 1: one pass, diffuse as
  // given (d * 1 / 1 is exact).
  const double k2 = static_cast<double>(scale) * static_cast<double>(scale);
  double spread = 0;
  for (const Species& s : resolved.list) spread = std::max(spread, static_cast<double>(s.model.diffuse) * k2);
  sp.blur_passes = std::max(1, static_cast<int>(std::ceil(spread)));
  // Cumulative shares in double, in order; the last end is exactly N (docs/MODEL.md, "Several species").
  double total = 0;
  for (const Species& s : resolved.list) total += s.share;
  double cumulative = 0;
  for (size_t s = 0; s < static_cast<size_t>(kMaxSpecies); ++s) {
    if (s < n) cumulative += resolved.list[s].share;
    const double end = s + 1 >= n ? static_cast<double>(agents)
                                  : std::floor(static_cast<double>(agents) * cumulative / total);
    sp.end[s] = static_cast<uint32_t>(std::min(end, static_cast<double>(agents)));
    ModelParams m = resolved.list[std::min(s, n - 1)].model;
    m.diffuse = static_cast<float>(static_cast<double>(m.diffuse) * k2 / sp.blur_passes);
    sp.p[s] = make_step_params(m, size, seed, scale);
    for (size_t t = 0; t < static_cast<size_t>(kMaxSpecies); ++t) {
      sp.w[s][t] = s < n && t < n ? resolved.interaction[s * n + t] : 0.0f;
    }
  }
  return sp;
}

rule::SpeciesParams blur_only(rule::SpeciesParams sp) {
  for (rule::StepParams& p : sp.p) p.keep = 1.0f;
  return sp;
}

rule::StepParams make_step_params(const ModelParams& m, Size size, uint32_t seed, int scale) {
  validate(m);
  if (!rule::turn_rule_needs(turn_rule_code(m.turn_rule)).plane) {
    throw Error("turn_rule = \"" + std::string(to_string(m.turn_rule)) +
                "\" is a volume's rule (a size WxHxD): a plane's turn rules are simple, jones");
  }
  // K as a float is exact, and so is a product by 1: K = 1 keeps the preset's bits.
  const auto k = static_cast<float>(scale);
  constexpr float kDegToRad = 0.017453292519943295f;
  rule::StepParams p{};
  p.width = size.width;
  p.height = size.height;
  p.fwidth = static_cast<float>(size.width);
  p.fheight = static_cast<float>(size.height);
  p.inv_width = 1.0f / p.fwidth;
  p.inv_height = 1.0f / p.fheight;
  p.sensor_distance = rule::mul(m.sensor_distance, k);
  const rule::SinCos sa = rule::sin_cos(rule::mul(m.sensor_angle_deg, kDegToRad));
  p.cos_sa = sa.c;
  p.sin_sa = sa.s;
  p.rotation = rule::mul(m.rotation_angle_deg, kDegToRad);
  p.step_size = rule::mul(m.step_size, k);
  p.jitter = m.jitter;
  p.turn_rule = turn_rule_code(m.turn_rule);
  p.seed = seed;
  p.deposit = m.deposit;
  p.keep = rule::sub(1.0f, m.decay);
  p.self_w = rule::sub(1.0f, m.diffuse);
  p.neighbour_w = rule::mul(m.diffuse, 1.0f / 9.0f);
  return p;
}

std::string_view to_string(TurnRule r) {
  switch (r) {
    case TurnRule::Jones: return "jones";
    case TurnRule::Mcpm: return "mcpm";
    default: return "simple";
  }
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
  if (s == "mcpm") return TurnRule::Mcpm;
  bad_choice("turn rule", s, "simple, jones, mcpm");
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
std::string_view to_string(VolumeMode m) {
  switch (m) {
    case VolumeMode::Mip: return "mip";
    case VolumeMode::Iso: return "iso";
    default: return "emission";
  }
}
std::string_view to_string(VolumeSource s) {
  return s == VolumeSource::Trace ? "trace" : "field";
}
std::string_view to_string(SliceAxis a) {
  switch (a) {
    case SliceAxis::X: return "x";
    case SliceAxis::Y: return "y";
    case SliceAxis::Z: return "z";
    default: return "off";
  }
}
VolumeMode parse_volume_mode(std::string_view s) {
  if (s == "emission") return VolumeMode::Emission;
  if (s == "mip") return VolumeMode::Mip;
  if (s == "iso") return VolumeMode::Iso;
  bad_choice("volume mode", s, "emission, mip, iso");
}
VolumeSource parse_volume_source(std::string_view s) {
  if (s == "field") return VolumeSource::Field;
  if (s == "trace") return VolumeSource::Trace;
  bad_choice("volume source", s, "field, trace");
}
SliceAxis parse_slice_axis(std::string_view s) {
  if (s == "off") return SliceAxis::Off;
  if (s == "x") return SliceAxis::X;
  if (s == "y") return SliceAxis::Y;
  if (s == "z") return SliceAxis::Z;
  bad_choice("slice axis", s, "off, x, y, z");
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
  const std::string text(s);
  const auto malformed = [&] {
    return Error("size '" + text +
                 "' is not WIDTHxHEIGHT or WIDTHxHEIGHTxDEPTH (e.g. 1920x1080, 256x256x256)");
  };
  int sides[3] = {0, 0, 1};
  int count = 0;
  bool too_large = false;
  for (size_t at = 0;; ++count) {
    if (count == 3) throw malformed();
    const size_t x = std::min(s.find_first_of("xX", at), s.size());
    const auto r = std::from_chars(s.data() + at, s.data() + x, sides[count]);
    if (r.ptr != s.data() + x || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range))
      throw malformed();
    // Digits too many for an int are a size far out of range, not a malformed one.
    too_large = too_large || r.ec != std::errc() || sides[count] > kMaxSide;
    if (sides[count] < 1) too_large = true;
    if (x == s.size()) break;
    at = x + 1;
  }
  if (count == 0) throw malformed();
  if (too_large)
    throw Error("size '" + text + "' is out of range: each side 1 to " + std::to_string(kMaxSide));
  return Size{sides[0], sides[1], sides[2]};
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
  const std::string plane = std::to_string(s.width) + "x" + std::to_string(s.height);
  return s.depth == 1 ? plane : plane + "x" + std::to_string(s.depth);
}

std::string format_count(uint64_t n) {
  if (n >= 1000000 && n % 1000000 == 0) return std::to_string(n / 1000000) + "M";
  if (n >= 1000000 && n % 100000 == 0) {  // 1.5M, not 1500K: parse_count reads both
    return std::to_string(n / 1000000) + "." + std::to_string(n / 100000 % 10) + "M";
  }
  if (n >= 1000 && n % 1000 == 0) return std::to_string(n / 1000) + "K";
  return std::to_string(n);
}

}  // namespace physarum
