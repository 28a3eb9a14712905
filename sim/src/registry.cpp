// The parameter table (sim/registry.hpp) and the typed operations every surface shares.
#include "sim/registry.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "sim/rule.hpp"
#include "sim/text.hpp"
#include "toml_text.hpp"
#include "utf8.hpp"

namespace physarum::registry {
namespace {

// --- Members to and from values. One overload per member type; enumerations through their
// to_string/parse functions in params.hpp.
Value to_value(float v) {
  return v;
}
Value to_value(int v) {
  return int64_t{v};
}
Value to_value(uint32_t v) {
  return int64_t{v};
}
Value to_value(uint64_t v) {
  return static_cast<int64_t>(v);
}
Value to_value(bool v) {
  return v;
}
Value to_value(const std::string& v) {
  return v;
}
Value to_value(Size v) {
  return v;
}
Value to_value(const std::vector<float>& v) {
  return v;
}
Value to_value(const std::optional<float>& v) {
  return v ? Value{*v} : Value{};
}
template <class E>
requires std::is_enum_v<E> Value to_value(E v) {
  return std::string(to_string(v));
}

void assign(float& m, const Value& v) {
  m = std::get<float>(v);
}
void assign(int& m, const Value& v) {
  m = static_cast<int>(std::get<int64_t>(v));
}
void assign(uint32_t& m, const Value& v) {
  m = static_cast<uint32_t>(std::get<int64_t>(v));
}
void assign(uint64_t& m, const Value& v) {
  m = static_cast<uint64_t>(std::get<int64_t>(v));
}
void assign(bool& m, const Value& v) {
  m = std::get<bool>(v);
}
void assign(std::string& m, const Value& v) {
  m = std::get<std::string>(v);
}
void assign(Size& m, const Value& v) {
  m = std::get<Size>(v);
}
void assign(std::vector<float>& m, const Value& v) {
  m = std::get<std::vector<float>>(v);
}
void assign(std::optional<float>& m, const Value& v) {
  m = std::holds_alternative<float>(v) ? std::optional<float>(std::get<float>(v)) : std::nullopt;
}
void assign(TurnRule& m, const Value& v) {
  m = parse_turn_rule(std::get<std::string>(v));
}
void assign(SpawnMode& m, const Value& v) {
  m = parse_spawn_mode(std::get<std::string>(v));
}
void assign(Mapping& m, const Value& v) {
  m = parse_mapping(std::get<std::string>(v));
}
void assign(CaveMode& m, const Value& v) {
  m = parse_cave_mode(std::get<std::string>(v));
}
void assign(Blend& m, const Value& v) {
  m = parse_blend(std::get<std::string>(v));
}
void assign(Background& m, const Value& v) {
  m = parse_background(std::get<std::string>(v));
}
void assign(VolumeMode& m, const Value& v) {
  m = parse_volume_mode(std::get<std::string>(v));
}
void assign(VolumeSource& m, const Value& v) {
  m = parse_volume_source(std::get<std::string>(v));
}
void assign(SliceAxis& m, const Value& v) {
  m = parse_slice_axis(std::get<std::string>(v));
}
void assign(Boundary& m, const Value& v) {
  m = parse_boundary(std::get<std::string>(v));
}
void assign(ImageFit& m, const Value& v) {
  m = parse_image_fit(std::get<std::string>(v));
}

template <auto Member>
struct Access;
template <class Table, class T, T Table::*Member>
struct Access<Member> {
  static Value get(const void* t) { return to_value(static_cast<const Table*>(t)->*Member); }
  static void put(void* t, const Value& v) { assign(static_cast<Table*>(t)->*Member, v); }
};

// An entry: the table, the key, the type and the member; the rest is set by the chained calls.
struct P : Param {
  template <auto Member>
  static P of(Section s, std::string_view name, Type type, double lo, double hi, std::string_view doc) {
    P p{};
    p.section = s;
    p.name = name;
    p.type = type;
    p.lo = lo;
    p.hi = hi;
    p.doc = doc;
    p.get = &Access<Member>::get;
    p.put = &Access<Member>::put;
    return p;
  }
  P& unit(std::string_view u) { return Param::unit = u, *this; }
  P& choices(std::string_view c) { return Param::choices = c, *this; }
  P& volume_choices(std::string_view c) { return Param::volume_choices = c, *this; }
  P& volume_only() { return Param::volume_only = true, *this; }
  P& plane_only() { return Param::plane_only = true, *this; }
  P& ui(double lo, double hi, bool log = false, std::string_view format = "%.3f") {
    ui_lo = lo, ui_hi = hi, ui_log = log, ui_format = format;
    return *this;
  }
  P& explore(double lo, double hi, bool log = false) {
    explore_lo = lo, explore_hi = hi, explore_log = log;
    return *this;
  }
  P& species() { return per_species = true, *this; }
  P& fixed() { return keyframable = false, *this; }
  P& maybe() { return optional = true, *this; }
  P& when_set() { return written_when_default = false, *this; }
};

using S = Section;
using T = Type;
constexpr double kColourMax = 0xffffff;

// clang-format off
// [model], [spawn] and [run].
void rule_and_world(std::vector<P>& t) {
  // [model]: the rule (docs/MODEL.md). Each [[species]] table holds these too.
  t.push_back(P::of<&ModelParams::sensor_angle_deg>(S::Model, "sensor_angle_deg", T::Float, 0, 180,
      "SA: angle between the centre sensor and each side sensor").unit("deg").ui(0, 180, false, "%.1f deg").explore(10, 70).species());
  t.push_back(P::of<&ModelParams::rotation_angle_deg>(S::Model, "rotation_angle_deg", T::Float, 0, 180,
      "RA: how far an agent turns in one step").unit("deg").ui(0, 180, false, "%.1f deg").explore(5, 100).species());
  t.push_back(P::of<&ModelParams::sensor_distance>(S::Model, "sensor_distance", T::Float, 0, 1000,
      "SO: how far ahead the sensors look (mcpm: the mean of a Maxwell-Boltzmann draw)").unit("cells").ui(0, 64, false, "%.2f cells").explore(4, 30, true).species());
  t.push_back(P::of<&ModelParams::step_size>(S::Model, "step_size", T::Float, 0, 100,
      "SS: how far an agent moves in one step").unit("cells").ui(0, 16, false, "%.2f cells").explore(0.5, 2.5).species());
  t.push_back(P::of<&ModelParams::deposit>(S::Model, "deposit", T::Float, 0, 1e6,
      "DEP: trail added per agent per step").ui(0, 20, false, "%.3f").explore(0.5, 4, true).species());
  t.push_back(P::of<&ModelParams::decay>(S::Model, "decay", T::Float, 0, 1,
      "fraction of the trail that evaporates each step").ui(0, 1, true, "%.4f").explore(0.003, 0.1, true).species());
  t.push_back(P::of<&ModelParams::diffuse>(S::Model, "diffuse", T::Float, 0, 1,
      "blend between the cell and its 3x3 mean each step (1 = full blur)").ui(0, 1, false, "%.3f").explore(0.05, 0.6).species());
  t.push_back(P::of<&ModelParams::turn_rule>(S::Model, "turn_rule", T::Choice, 0, 0,
      "simple: turn toward a strictly larger side; jones: Jones 2010 (random turn when both sides beat the centre); mcpm: a volume's Monte Carlo Physarum Machine (Elek et al. 2022)")
      .choices("simple, jones").volume_choices("mcpm").explore(0, 1).species());
  t.push_back(P::of<&ModelParams::jitter>(S::Model, "jitter", T::Float, 0, rule::kTwoPi,
      "random wobble added to the heading each step (a plane's rule: a volume has none)").unit("rad").ui(0, 3.14159, false, "%.3f rad").explore(0, 0.4).species().plane_only());
  t.push_back(P::of<&ModelParams::ring>(S::Model, "ring", T::Int, 1, kMaxRing,
      "volume, simple and jones: the sensors on the cone around the forward one").unit("sensors").ui(1, kMaxRing).species().when_set().volume_only());
  t.push_back(P::of<&ModelParams::sharpness>(S::Model, "sharpness", T::Float, 0, 100,
      "volume, mcpm: S, the turn toward the sensed direction has probability r^S / (1 + r^S), r its reading over the forward one")
      .ui(0, 10, false, "%.2f").species().when_set().volume_only());
  t.push_back(P::of<&ModelParams::trace_decay>(S::Model, "trace_decay", T::Float, 0, 1,
      "volume, mcpm: fraction of the trace (what the agents visited, never sensed) that fades each step")
      .ui(0, 1, true, "%.4f").species().when_set().volume_only());
  // [spawn]: where the agents start; changing it needs new agents.
  t.push_back(P::of<&SpawnParams::mode>(S::Spawn, "mode", T::Choice, 0, 0,
      "random: everywhere, random headings; disc: a filled disc in the centre; ring: a thin ring, all facing the centre; point: all at the centre")
      .choices("random, disc, ring, point").fixed());
  t.push_back(P::of<&SpawnParams::field_strength>(S::Spawn, "field_strength", T::Float, 0, 1e6,
      "a seed image's luminance (0..1) times this becomes the field").ui(0, 50, false, "%.2f").fixed());
  t.push_back(P::of<&SpawnParams::agents_from_image>(S::Spawn, "agents_from_image", T::Bool, 0, 0,
      "respawn agents with probability proportional to the image's brightness").fixed());
  // [run]: the size of the world.
  t.push_back(P::of<&RunParams::size>(S::Run, "size", T::Size, 1, kMaxSide,
      "field width x height in cells, or a volume's width x height x depth in voxels (\"256x256x256\")").unit("cells").fixed());
  t.push_back(P::of<&RunParams::agents>(S::Run, "agents", T::Count, 1, static_cast<double>(kMaxAgents),
      "agent count: 1000, \"250K\", \"4M\", \"1.5M\", \"1G\"").fixed());
  t.push_back(P::of<&RunParams::seed>(S::Run, "seed", T::Int, 0, 4294967295.0,
      "the same preset, seed, size (and image) give the same field, bit for bit").fixed());
  t.push_back(P::of<&RunParams::density>(S::Run, "density", T::Float, 1e-4, 1000,
      "agents per cell: the agent count at any size (replaces run.agents; both must agree)").maybe().when_set().fixed());
  t.push_back(P::of<&RunParams::scale>(S::Run, "scale", T::Int, 1, kMaxScale,
      "detail K: lengths K times the model's in cells, the trail spread K^2 times as far a step (docs/MODEL.md, Scale)").when_set().fixed());
}

// [display], a volume's: how it is drawn (render/volume_renderer.hpp) and seen (render/orbit_camera.hpp).
void volume_display(std::vector<P>& t) {
  t.push_back(P::of<&DisplayParams::volume_mode>(S::Display, "volume_mode", T::Choice, 0, 0,
      "volume: emission = glowing fog, the palette as transfer function; mip = the brightest voxel on each ray; iso = a shaded surface at iso_level")
      .choices("emission, mip, iso").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::volume_density>(S::Display, "volume_density", T::Float, 0, 1000,
      "volume, emission: opacity a voxel of full intensity adds per voxel crossed").ui(0.001, 10, true, "%.3f").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::volume_opacity>(S::Display, "volume_opacity", T::Float, 0.05, 20,
      "volume, emission: opacity follows the mapped intensity to this power (higher: only the bright network is opaque)").ui(0.2, 8, true, "%.2f").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::iso_level>(S::Display, "iso_level", T::Float, 0, 1,
      "volume, iso: the surface's level, a fraction of the display range (mapped, as the palette's position)").ui(0, 1, false, "%.3f").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::volume_source>(S::Display, "volume_source", T::Choice, 0, 0,
      "volume: field = the trail the agents sense; trace = an mcpm run's trace (where the agents went)")
      .choices("field, trace").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::camera_yaw_deg>(S::Display, "camera_yaw_deg", T::Float, -1e6, 1e6,
      "volume camera: turn about the vertical (y) axis; 0 looks along -z").unit("deg").ui(-180, 180, false, "%.1f deg").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::camera_pitch_deg>(S::Display, "camera_pitch_deg", T::Float, -89, 89,
      "volume camera: height above the horizontal plane").unit("deg").ui(-89, 89, false, "%.1f deg").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::camera_distance>(S::Display, "camera_distance", T::Float, 0.01, 100,
      "volume camera: distance from the target in volume diagonals").ui(0.1, 10, true, "%.2f").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::camera_fov_deg>(S::Display, "camera_fov_deg", T::Float, 1, 150,
      "volume camera: vertical field of view").unit("deg").ui(5, 120, false, "%.1f deg").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::camera_target_x>(S::Display, "camera_target_x", T::Float, -10, 10,
      "volume camera: the point looked at, a fraction of the width (0.5 = centre)").ui(0, 1, false, "%.3f").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::camera_target_y>(S::Display, "camera_target_y", T::Float, -10, 10,
      "volume camera: the point looked at, a fraction of the height").ui(0, 1, false, "%.3f").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::camera_target_z>(S::Display, "camera_target_z", T::Float, -10, 10,
      "volume camera: the point looked at, a fraction of the depth").ui(0, 1, false, "%.3f").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::clip_x0>(S::Display, "clip_x0", T::Float, 0, 1,
      "volume clip box: drawn from this fraction of the width").ui(0, 1, false, "%.3f").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::clip_x1>(S::Display, "clip_x1", T::Float, 0, 1,
      "volume clip box: drawn up to this fraction of the width").ui(0, 1, false, "%.3f").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::clip_y0>(S::Display, "clip_y0", T::Float, 0, 1,
      "volume clip box: from this fraction of the height").ui(0, 1, false, "%.3f").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::clip_y1>(S::Display, "clip_y1", T::Float, 0, 1,
      "volume clip box: up to this fraction of the height").ui(0, 1, false, "%.3f").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::clip_z0>(S::Display, "clip_z0", T::Float, 0, 1,
      "volume clip box: from this fraction of the depth").ui(0, 1, false, "%.3f").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::clip_z1>(S::Display, "clip_z1", T::Float, 0, 1,
      "volume clip box: up to this fraction of the depth").ui(0, 1, false, "%.3f").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::slice_axis>(S::Display, "slice_axis", T::Choice, 0, 0,
      "volume: off, or the axis across which a slice of the field is drawn in the 3D view (render --slice writes it)")
      .choices("off, x, y, z").when_set().volume_only());
  t.push_back(P::of<&DisplayParams::slice_at>(S::Display, "slice_at", T::Float, 0, 1,
      "volume: where the slice lies along slice_axis, a fraction of that side").ui(0, 1, false, "%.3f").when_set().volume_only());
}

// [display]: how the field is coloured (render/colormap.hpp).
void display(std::vector<P>& t) {
  t.push_back(P::of<&DisplayParams::palette>(S::Display, "palette", T::Text, 1, 4096,
      "a palette's name: a file in assets/palettes/ without .palette"));
  t.push_back(P::of<&DisplayParams::mapping>(S::Display, "mapping", T::Choice, 0, 0,
      "value to colour mapping").choices("linear, log"));
  t.push_back(P::of<&DisplayParams::exposure>(S::Display, "exposure", T::Float, 1e-6, 1e6,
      "multiplies the field before mapping").ui(0.01, 100, true, "%.3f"));
  t.push_back(P::of<&DisplayParams::gamma>(S::Display, "gamma", T::Float, 0.05, 20,
      "applied after mapping").ui(0.2, 5, true, "%.2f"));
  t.push_back(P::of<&DisplayParams::auto_range>(S::Display, "auto_range", T::Bool, 0, 0,
      "scale to the field's current range each frame"));
  t.push_back(P::of<&DisplayParams::invert>(S::Display, "invert", T::Bool, 0, 0, "flip the palette"));
  t.push_back(P::of<&DisplayParams::cave>(S::Display, "cave", T::Choice, 0, 0,
      "discrete cave map: even = levels equal bands; quantile = bands of equal area; binary = floor/rock at threshold")
      .choices("off, even, quantile, binary"));
  t.push_back(P::of<&DisplayParams::levels>(S::Display, "levels", T::Int, 2, 16,
      "bands for even and quantile cave maps").ui(2, 16));
  t.push_back(P::of<&DisplayParams::threshold>(S::Display, "threshold", T::Float, 0, 1,
      "binary cave: fraction of the range that is floor").ui(0, 1, false, "%.3f"));
  t.push_back(P::of<&DisplayParams::smoothing>(S::Display, "smoothing", T::Int, 0, 8,
      "binary cave: passes of majority smoothing (rounder walls)").ui(0, 8));
  t.push_back(P::of<&DisplayParams::blend>(S::Display, "blend", T::Choice, 0, 0,
      "several species: additive = light on black; ink = inks on white paper").choices("additive, ink"));
  t.push_back(P::of<&DisplayParams::cave_channel>(S::Display, "cave_channel", T::Int, kCaveFromSum, kMaxSpecies - 1,
      "several species, cave maps: -1 = the sum of the channels, 0..3 = that species' channel"));
  t.push_back(P::of<&DisplayParams::background>(S::Display, "background", T::Choice, 0, 0,
      "transparent: each pixel's alpha is its mapped intensity (PNG and WebM keep it)").choices("opaque, transparent"));
  t.push_back(P::of<&DisplayParams::show_walls>(S::Display, "show_walls", T::Bool, 0, 0,
      "draw the walls over the field").when_set());
  t.push_back(P::of<&DisplayParams::show_food>(S::Display, "show_food", T::Bool, 0, 0,
      "tint the field where there is food").when_set());
  t.push_back(P::of<&DisplayParams::walls_colour>(S::Display, "walls_colour", T::Colour, 0, kColourMax,
      "the walls' colour, \"#rrggbb\"").when_set());
  t.push_back(P::of<&DisplayParams::food_colour>(S::Display, "food_colour", T::Colour, 0, kColourMax,
      "the food's tint, \"#rrggbb\"").when_set());
  volume_display(t);
}

// [environment], [[species]] and [interaction].
void environment_and_species(std::vector<P>& t) {
  // [environment]: food and walls (docs/MODEL.md, "Environment"); changing them reloads the maps.
  t.push_back(P::of<&EnvironmentParams::food>(S::Environment, "food", T::Text, 0, 4096,
      "food map image (PNG or JPEG): its brightness is the food E of each cell (a volume's: a (D, H, W) .npy); relative to the preset file").fixed());
  t.push_back(P::of<&EnvironmentParams::walls>(S::Environment, "walls", T::Text, 0, 4096,
      "walls image: cells darker than walls_threshold are walls (a volume's: a (D, H, W) .npy, voxels above it); relative to the preset file").fixed());
  t.push_back(P::of<&EnvironmentParams::food_strength>(S::Environment, "food_strength", T::Float, -1000, 1000,
      "trail added per step where E = 1, for every species without its own (negative repels)").fixed());
  t.push_back(P::of<&EnvironmentParams::boundary>(S::Environment, "boundary", T::Choice, 0, 0,
      "wrap = the torus; walls = a closed box (the outermost ring of cells is wall)").choices("wrap, walls").fixed());
  t.push_back(P::of<&EnvironmentParams::walls_threshold>(S::Environment, "walls_threshold", T::Float, 0, 1,
      "brightness below which a cell of the walls image is wall").fixed());
  t.push_back(P::of<&EnvironmentParams::fit>(S::Environment, "fit", T::Choice, 0, 0,
      "how the maps meet the field: fill (cover, cropped) or fit (letterboxed; the border is wall)").choices("fill, fit").fixed());
  t.push_back(P::of<&EnvironmentParams::points>(S::Environment, "points", T::Text, 0, 4096,
      "a volume's point data, CSV (x,y,z[,weight]) or .npy (N, 3|4): each point is food of its weight; relative to the preset file").fixed());
  t.push_back(P::of<&EnvironmentParams::points_box>(S::Environment, "points_box", T::Text, 0, 4096,
      "the box of the point data that fills the volume, \"xmin:xmax,ymin:ymax,zmin:zmax\" in the data's units (empty: the points' own, aspect kept)").fixed());
  // [[species]]: each species' own keys besides the model keys above.
  t.push_back(P::of<&Species::name>(S::Species, "name", T::Text, 1, 64, "shown in the panel").fixed());
  t.push_back(P::of<&Species::colour>(S::Species, "colour", T::Colour, 0, kColourMax,
      "the species' colour in the picture, \"#rrggbb\""));
  t.push_back(P::of<&Species::share>(S::Species, "share", T::Float, 0, 1e6,
      "its part of the agents (the shares must sum to more than 0)").fixed());
  t.push_back(P::of<&Species::spawn>(S::Species, "spawn", T::Choice, 0, 0, "where its agents start, as spawn.mode")
      .choices("random, disc, ring, point").fixed());
  t.push_back(P::of<&Species::food_strength>(S::Species, "food_strength", T::Float, -1000, 1000,
      "this species' strength of the food map (default: environment.food_strength)").maybe().fixed());
  // [interaction]: W[s][t], how species s follows species t's trail.
  t.push_back(P::of<&SpeciesSet::interaction>(S::Interaction, "matrix", T::Matrix, -kMaxInteraction, kMaxInteraction,
      "W: row s says how species s weighs each species' trail (1 follows, -1 flees)").ui(-10, 10, false, "%.2f").explore(-1, 0.5));
}

std::vector<Param> make_table() {
  std::vector<P> t;
  rule_and_world(t);
  display(t);
  environment_and_species(t);
  return {t.begin(), t.end()};
}
// clang-format on

}  // namespace

const std::vector<Param>& params() {
  static const std::vector<Param> table = make_table();
  return table;
}

}  // namespace physarum::registry

namespace physarum::registry {
namespace {

const void* table_of(const Preset& p, const Key& k) {
  switch (k.param->section) {
    case Section::Model:
      return k.species >= 0 ? &p.species.list[static_cast<size_t>(k.species)].model : &p.model;
    case Section::Spawn: return &p.spawn;
    case Section::Run: return &p.run;
    case Section::Display: return &p.display;
    case Section::Environment: return &p.environment;
    case Section::Species: return &p.species.list[static_cast<size_t>(k.species)];
    case Section::Interaction: return &p.species;
  }
  return nullptr;
}

std::string known_names(Section s, bool species_keys) {
  std::string out;
  for (const Param& p : params()) {
    const bool in = species_keys ? (p.section == Section::Species || p.per_species) : p.section == s;
    if (!in) continue;
    if (!out.empty()) out += ", ";
    out += p.name;
  }
  return out;
}

constexpr Section kTables[] = {Section::Model, Section::Spawn, Section::Run, Section::Display,
                               Section::Environment};

// "species.N.key": the species' index and key.
Key resolve_species_key(const Preset& p, std::string_view dotted) {
  const std::string_view rest = dotted.substr(std::string_view("species.").size());
  const size_t dot = rest.find('.');
  const std::string_view num = rest.substr(0, dot);
  size_t index = 0;
  const auto r = std::from_chars(num.data(), num.data() + num.size(), index);
  if (dot == std::string_view::npos || num.empty() || r.ec != std::errc() ||
      r.ptr != num.data() + num.size()) {
    throw Error("expected species.N.key, e.g. species.0.decay");
  }
  const size_t n = p.species.list.size();
  if (index >= n) {
    throw Error(n == 0 ? std::string("this preset has no [[species]] tables")
                       : "species " + std::to_string(index) + " does not exist (0 to " +
                             std::to_string(n - 1) + ")");
  }
  const std::string_view key = rest.substr(dot + 1);
  const Param* param = find(Section::Species, key);
  if (param == nullptr) param = find(Section::Model, key);
  if (param == nullptr || (param->section == Section::Model && !param->per_species)) {
    throw Error("unknown key '" + std::string(dotted) +
                "' (known keys of a species: " + known_names(Section::Species, true) + ")");
  }
  return Key{param, static_cast<int>(index)};
}

// The species-only keys first (name, colour, share, spawn), then the model keys, then the optional
// ones (food_strength): the order a [[species]] table is written in.
std::vector<const Param*> species_order() {
  std::vector<const Param*> out;
  for (const Param& p : params())
    if (p.section == Section::Species && !p.optional) out.push_back(&p);
  for (const Param& p : params())
    if (p.per_species) out.push_back(&p);
  for (const Param& p : params())
    if (p.section == Section::Species && p.optional) out.push_back(&p);
  return out;
}

// What a stored value may break elsewhere in the preset.
void check_dependents(const Preset& p, const Key& k) {
  if (k.param->section == Section::Species && k.param->name == "share") check_shares(p.species);
  if (k.param->section == Section::Display && k.param->name == "cave_channel")
    check_cave_channel(p.display, p.species.count());
}

}  // namespace

std::string_view section_name(Section s) {
  switch (s) {
    case Section::Model: return "model";
    case Section::Spawn: return "spawn";
    case Section::Run: return "run";
    case Section::Display: return "display";
    case Section::Environment: return "environment";
    case Section::Species: return "species";
    case Section::Interaction: return "interaction";
  }
  return "";
}

const Param* find(Section s, std::string_view name) {
  for (const Param& p : params()) {
    if (p.section == s && p.name == name) return &p;
  }
  return nullptr;
}

std::string Key::name() const {
  if (species >= 0) return "species." + std::to_string(species) + "." + std::string(param->name);
  return std::string(section_name(param->section)) + "." + std::string(param->name);
}

Key resolve(const Preset& p, std::string_view dotted) {
  const size_t dot = dotted.find('.');
  if (dot == std::string_view::npos) throw Error("expected section.key, e.g. model.decay");
  const std::string_view section = dotted.substr(0, dot);
  const std::string_view key = dotted.substr(dot + 1);
  if (section == "species") return resolve_species_key(p, dotted);
  if (section == "interaction") {
    if (key != "matrix")
      throw Error("unknown key '" + std::string(dotted) + "' (known keys in [interaction]: matrix)");
    if (p.species.list.empty()) throw Error("interaction.matrix needs a preset with [[species]] tables");
    return Key{find(Section::Interaction, "matrix"), -1};
  }
  for (Section s : kTables) {
    if (section_name(s) != section) continue;
    const Param* param = find(s, key);
    if (param == nullptr) {
      throw Error("unknown key '" + std::string(dotted) + "' (known keys in [" + std::string(section) +
                  "]: " + known_names(s, false) + ")");
    }
    if (!p.species.list.empty() && (s == Section::Model || dotted == "spawn.mode")) {
      throw Error("this preset has [[species]] tables; set species.N." +
                  std::string(s == Section::Model ? key : std::string_view("spawn")) + " instead");
    }
    return Key{param, -1};
  }
  throw Error("unknown section '" + std::string(section) +
              "' (known: model, spawn, run, display, environment, species, interaction)");
}

std::vector<Key> keys_of(const Preset& p) {
  std::vector<Key> out;
  const bool several = !p.species.list.empty();
  for (const Param& param : params()) {
    if (param.section == Section::Species || param.section == Section::Interaction) continue;
    if (several &&
        (param.section == Section::Model || (param.section == Section::Spawn && param.name == "mode")))
      continue;
    out.push_back(Key{&param, -1});
  }
  if (!several) return out;
  const std::vector<const Param*> order = species_order();
  for (size_t s = 0; s < p.species.list.size(); ++s) {
    for (const Param* param : order) out.push_back(Key{param, static_cast<int>(s)});
  }
  out.push_back(Key{find(Section::Interaction, "matrix"), -1});
  return out;
}

Value get(const Preset& p, const Key& k) {
  return k.param->get(table_of(p, k));
}

void set(Preset& p, const Key& k, const Value& v) {
  check(*k.param, v, k.name(), p.species.list.size());
  void* table = const_cast<void*>(table_of(p, k));
  Value old = k.param->get(table);
  k.param->put(table, v);
  try {
    check_dependents(p, k);
  } catch (const Error&) {
    k.param->put(table, old);
    throw;
  }
}

void put(Preset& p, const Key& k, const Value& v) {
  k.param->put(const_cast<void*>(table_of(p, k)), v);
}

Value default_value(const Param& param) {
  static const Preset defaults;
  static const Species species;
  static const SpeciesSet set;
  if (param.section == Section::Species) return param.get(&species);
  if (param.section == Section::Interaction) return param.get(&set);
  return get(defaults, Key{&param, -1});
}

}  // namespace physarum::registry
