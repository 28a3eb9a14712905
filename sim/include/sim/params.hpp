// Parameters of the model, of spawning, of a run and of the display, with validation.
// A Preset bundles them; preset.hpp reads and writes them as TOML.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/keyframes.hpp"
#include "sim/rule.hpp"
#include "sim/value.hpp"

namespace physarum {

// Every error the library reports: a message a person can act on. Never exit() in a library.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A run that does not fit in host or GPU memory: the caller may retry with a smaller one (bench
// skips that size) where other errors are real failures.
class OutOfMemoryError : public Error {
 public:
  using Error::Error;
};

// Mcpm is a volume's rule (docs/MODEL.md, "MCPM"); a plane refuses it.
enum class TurnRule { Simple, Jones, Mcpm };
enum class SpawnMode { Random, Disc, Ring, Point };

inline constexpr int kMaxRing = 16;  // a volume's ring sensors (ModelParams::ring)

struct ModelParams {
  float sensor_angle_deg = 45.0f;
  float rotation_angle_deg = 45.0f;
  float sensor_distance = 5.0f;
  float step_size = 1.0f;
  float deposit = 1.0f;
  float decay = 0.01f;
  float diffuse = 0.2f;
  TurnRule turn_rule = TurnRule::Simple;
  float jitter = 0.0f;  // radians
  // The volume's own (docs/MODEL.md, "Volume"); a plane ignores them. ring: the sensors on the cone
  // of the ring rules; sharpness: MCPM's exponent S; trace_decay: the fraction of MCPM's trace that
  // fades each step.
  int ring = 4;
  float sharpness = 2.0f;
  float trace_decay = 0.04f;
  friend bool operator==(const ModelParams&, const ModelParams&) = default;
};

struct SpawnParams {
  SpawnMode mode = SpawnMode::Random;
  float field_strength = 3.0f;
  bool agents_from_image = false;
  friend bool operator==(const SpawnParams&, const SpawnParams&) = default;
};

// `density` (agents per cell), when given, decides the agent count at any size: agents =
// agents_for_density(density, size). `scale` is the detail K (docs/MODEL.md, "Scale"): the model's
// lengths in cells are K times the preset's and the trail spreads K^2 times as far a step, so the
// pattern of the preset at size / K is drawn K times finer.
struct RunParams {
  Size size{1920, 1080};
  uint64_t agents = 2'000'000;
  uint32_t seed = 1;
  std::optional<float> density;
  int scale = 1;
  friend bool operator==(const RunParams&, const RunParams&) = default;
};

// How the field is coloured. Plain data: sim knows nothing of GL; render interprets it.
enum class Mapping { Linear, Log };
enum class CaveMode { Off, Even, Quantile, Binary };
// Several species: how the channels' colours combine. Additive: light on black (each channel adds
// its colour); Ink: inks on white paper (each channel multiplies the paper by its colour).
enum class Blend { Additive, Ink };
// cave_channel: the cave map of several species reads the sum of the channels, or one channel.
inline constexpr int kCaveFromSum = -1;
// Opaque: every pixel has alpha 1. Transparent: a pixel's alpha is the field's mapped intensity
// there (render/colormap.hpp, pixel_alpha), for stills and videos that keep alpha (PNG, WebM).
enum class Background { Opaque, Transparent };
// A volume's picture (render/volume_renderer.hpp). Emission: emission-absorption along each ray,
// the palette as transfer function; Mip: the largest value on the ray; Iso: the first surface where
// the value crosses iso_level, shaded.
enum class VolumeMode { Emission, Mip, Iso };
// What a volume's picture shows: the field, or an MCPM run's trace (what the agents visited).
enum class VolumeSource { Field, Trace };
// The slicing plane of a volume: none, or the plane of constant x, y or z at slice_at.
enum class SliceAxis { Off, X, Y, Z };
struct DisplayParams {
  std::string palette = "inferno";
  Mapping mapping = Mapping::Log;
  float exposure = 1.0f;
  float gamma = 1.0f;
  bool auto_range = true;
  bool invert = false;
  CaveMode cave = CaveMode::Off;
  int levels = 5;                   // 2..16
  float threshold = 0.5f;           // binary cave: fraction of the range that is floor
  int smoothing = 0;                // binary cave: passes of majority smoothing, 0..8
  Blend blend = Blend::Additive;    // several species, cave off: how the channels' colours combine
  int cave_channel = kCaveFromSum;  // several species, cave maps: the sum (-1) or channel 0..3
  Background background = Background::Opaque;
  // Overlays of the environment (docs/MODEL.md, "Environment"), drawn over the field in the window
  // and in headless renders: walls in a solid colour, food as a tint of its colour whose weight
  // grows with E (render/environment_overlay.hpp). A run without walls or food draws nothing.
  bool show_walls = true;
  bool show_food = true;
  uint32_t walls_colour = 0x3b5b7aU;  // 0xRRGGBB
  uint32_t food_colour = 0x3ddc6aU;   // 0xRRGGBB
  // A volume's (render/orbit_camera.hpp, render/volume_renderer.hpp); a plane ignores them.
  VolumeMode volume_mode = VolumeMode::Emission;
  float volume_density = 1.0f;  // emission: opacity a voxel of full intensity adds per voxel crossed
  float volume_opacity = 2.0f;  // emission: opacity follows intensity to this power
  float iso_level = 0.5f;       // iso: the surface's level, a fraction of the display range
  VolumeSource volume_source = VolumeSource::Field;
  // The orbit camera looks at the target (fractions of the volume, 0.5 = centre) from yaw degrees
  // about the vertical axis and pitch above the horizontal, camera_distance volume diagonals away.
  float camera_yaw_deg = 35.0f;
  float camera_pitch_deg = 25.0f;
  float camera_distance = 1.6f;
  float camera_fov_deg = 40.0f;  // vertical
  float camera_target_x = 0.5f;
  float camera_target_y = 0.5f;
  float camera_target_z = 0.5f;
  // The clip box: the part of the volume that is drawn, fractions of each side.
  float clip_x0 = 0.0f, clip_x1 = 1.0f;
  float clip_y0 = 0.0f, clip_y1 = 1.0f;
  float clip_z0 = 0.0f, clip_z1 = 1.0f;
  SliceAxis slice_axis = SliceAxis::Off;
  float slice_at = 0.5f;  // the slicing plane's position, a fraction of its axis
  friend bool operator==(const DisplayParams&, const DisplayParams&) = default;
};

// Several species (docs/MODEL.md, "Several species"). Each has its own model (decay and diffuse are its
// channel's), spawn mode, share of the agents and colour.
inline constexpr int kMaxSpecies = rule::kMaxSpecies;
inline constexpr float kMaxInteraction = 10.0f;  // |W[s][t]|
struct Species {
  std::string name = "species";
  uint32_t colour = 0xffffffU;  // 0xRRGGBB
  float share = 1.0f;           // >= 0; the shares of all species must sum to more than 0
  ModelParams model;
  SpawnMode spawn = SpawnMode::Random;
  std::optional<float> food_strength;  // none: [environment] food_strength (docs/MODEL.md, "Environment")
  friend bool operator==(const Species&, const Species&) = default;
};
// The species of a run and the interaction matrix W (S x S, row-major: W[s][t] = interaction[s * S + t]).
// An empty list means one species: the Preset's (or SimConfig's) model and spawn mode, W = [[1]].
struct SpeciesSet {
  std::vector<Species> list;
  std::vector<float> interaction;
  int count() const { return list.empty() ? 1 : static_cast<int>(list.size()); }
  friend bool operator==(const SpeciesSet&, const SpeciesSet&) = default;
};

// How an image meets the field (seed image, food and wall maps). Fit: all of the image, letterboxed;
// Fill: covers, cropped.
enum class ImageFit { Fit, Fill };
// The field's edges (docs/MODEL.md, "Environment"): a torus, or a closed box of walls.
enum class Boundary { Wrap, Walls };

// The environment of a preset: where its maps come from (image files; empty: none) and how they
// are read. The app loads the images into a sim Environment (sim/environment.hpp).
struct EnvironmentParams {
  std::string food;                    // food map image: its brightness is E
  std::string walls;                   // walls image: cells darker than walls_threshold are walls
  float food_strength = 1.0f;          // every species' strength, unless its [[species]] gives one
  Boundary boundary = Boundary::Wrap;  // wrap | walls
  float walls_threshold = 0.5f;        // [0, 1]
  ImageFit fit = ImageFit::Fill;       // fill | fit, as the seed image
  // A volume's point data (docs/MODEL.md, "Point data"): a CSV or .npy of points, each of which is
  // food of its weight; points_box, "xmin:xmax,ymin:ymax,zmin:zmax" in the data's units, is the box
  // that fills the volume ("": the points' own box, aspect kept).
  std::string points;
  std::string points_box;
  friend bool operator==(const EnvironmentParams&, const EnvironmentParams&) = default;
};

struct Preset {
  ModelParams model;
  SpawnParams spawn;
  RunParams run;
  DisplayParams display;
  SpeciesSet species;               // empty: one species, `model` and `spawn.mode`
  std::vector<Keyframe> keyframes;  // docs/MODEL.md, "Keyframes"; empty: the values above throughout
  EnvironmentParams environment;    // docs/MODEL.md, "Environment"; empty paths: none
  friend bool operator==(const Preset&, const Preset&) = default;
};

// Limits. Sizes up to 16384 on a side and 1e9 agents; more is refused as absurd.
inline constexpr int kMaxSide = 16384;
inline constexpr uint64_t kMaxAgents = 1'000'000'000ULL;
// The detail K of run.scale: up to ceil(64 * diffuse) blur passes a step on 64 times the cells at 8.
inline constexpr int kMaxScale = 8;

// The agents `density` (per cell) gives on a field of `size`, at least 1. Rounded to whole thousands
// from 10K on, so a count reads as "377K" in the panel; that moves the density by at most 5%, far
// less than the look changes with it. The one rule for every count that follows an area.
uint64_t agents_for_density(double density, Size size);
// W x H cells of a plane, W x H x D voxels of a volume.
uint64_t cells_of(Size size);
// Agents per cell of a run: its density when given, else agents / cells.
double density_of(const RunParams& r);

// Throw Error naming the field and its allowed range when a value is out of range or not finite.
void validate(const ModelParams& m);
void validate(const SpawnParams& s);
void validate(const RunParams& r);
void validate(const DisplayParams& d);
void validate(const EnvironmentParams& e);  // strength in [-1000, 1000], threshold in [0, 1]
void validate(const Preset& p);             // keyframes included (validate_keyframes)
// 1 to kMaxSpecies species, each model valid, shares >= 0 summing to > 0, W of S x S entries in
// [-10, 10]. Messages name "species.N.key" or "interaction.matrix".
void validate(const SpeciesSet& s);
// The parts of validate() that look across tables, also checked when one value changes
// (registry::set): the shares of a species set sum to more than 0; the cave channel is -1 or
// below the number of species.
void check_shares(const SpeciesSet& s);
void check_cave_channel(const DisplayParams& d, int species);
// The species list a run uses: `s` itself, or for an empty set the one species made of `model`
// and `spawn` with W = [[1]].
SpeciesSet resolve_species(const SpeciesSet& s, const ModelParams& model, SpawnMode spawn);
// True when the set is one species with W = [[1]]: backends then take the single-species path.
bool is_single_plain(const SpeciesSet& resolved);

// A turn rule's code in the kernels' parameters; rule.hpp says what a step of each needs
// (rule::turn_rule_needs). One case a rule, as there.
constexpr rule::TurnRuleCode turn_rule_code(TurnRule r) {
  switch (r) {
    case TurnRule::Simple: return rule::kTurnSimple;
    case TurnRule::Jones: return rule::kTurnJones;
    case TurnRule::Mcpm: return rule::kTurnMcpm;
  }
  return rule::kTurnSimple;  // as to_string reads a value outside the enum
}

// The kernels' view of the parameters (derived in one place so every backend agrees).
// At detail `scale` K the sensor distance and the step size are K times the model's (docs/MODEL.md,
// "Scale"); K = 1 leaves every bit as it is.
rule::StepParams make_step_params(const ModelParams& m, Size size, uint32_t seed, int scale = 1);
// The same for every species of a resolved set, with the matrix and the species' id ranges for
// `agents` agents (docs/MODEL.md, "Several species"). Validates first.
rule::SpeciesParams make_species_params(const SpeciesSet& resolved, Size size, uint32_t seed, uint64_t agents,
                                        int scale = 1);
// The field update's constants of the blur passes after a step's first (docs/MODEL.md, "Scale"): the
// same weights with keep = 1, so a pass neither decays nor (the counts being 0) deposits.
// make_species_params at detail K sets blur_passes = ceil(max diffuse * K^2) (at least 1) and each
// species' diffuse to diffuse * K^2 / blur_passes.
rule::SpeciesParams blur_only(rule::SpeciesParams sp);

// Text forms used by presets and the command line.
std::string_view to_string(TurnRule r);
std::string_view to_string(SpawnMode m);
std::string_view to_string(Mapping m);
std::string_view to_string(CaveMode m);
std::string_view to_string(Blend b);
std::string_view to_string(Background b);
TurnRule parse_turn_rule(std::string_view s);  // throws Error listing the choices
SpawnMode parse_spawn_mode(std::string_view s);
Mapping parse_mapping(std::string_view s);
CaveMode parse_cave_mode(std::string_view s);
Blend parse_blend(std::string_view s);
Background parse_background(std::string_view s);
std::string_view to_string(VolumeMode m);
std::string_view to_string(VolumeSource s);
std::string_view to_string(SliceAxis a);
VolumeMode parse_volume_mode(std::string_view s);      // "emission" | "mip" | "iso"
VolumeSource parse_volume_source(std::string_view s);  // "field" | "trace"
SliceAxis parse_slice_axis(std::string_view s);        // "off" | "x" | "y" | "z"
std::string_view to_string(ImageFit f);
std::string_view to_string(Boundary b);
ImageFit parse_image_fit(std::string_view s);  // "fill" | "fit"
Boundary parse_boundary(std::string_view s);   // "wrap" | "walls"
Size parse_size(std::string_view s);           // "1920x1080"
uint64_t parse_count(std::string_view s);      // "1000", "250K", "4M", "1.5M", "1G"
std::string format_size(Size s);
std::string format_count(uint64_t n);       // "2M", "250K", "1234"
uint32_t parse_colour(std::string_view s);  // "#rrggbb"
std::string format_colour(uint32_t rgb);    // "#rrggbb"

}  // namespace physarum
