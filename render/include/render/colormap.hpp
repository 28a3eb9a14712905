// How a field value becomes a colour: the display range, cave-map thresholds, and a CPU version
// of the colour shader (shaders/field_colour.glsl) that the tests hold the GPU image against. The
// range and thresholds are computed once (here on the host, or by shaders/range_*.comp on the
// GPU) and both colourings use them; cave levels compare raw values with thresholds, so the CPU
// and the GPU pick the same level for every cell.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "render/palette.hpp"
#include "sim/display_mapping.hpp"
#include "sim/params.hpp"

namespace physarum::render {

// The mapping itself (linear or log, and its inverse) is sim/display_mapping.hpp's.
inline constexpr int kMaxThresholds = 16;

// The display values the renderers accept (the ranges sim's validate(DisplayParams) allows). A
// caller such as the panel can hand anything (a typed levels of 100 would write past the
// thresholds array, smoothing 1e9 would run 1e9 passes, gamma 0 divides by zero), so both
// renderers pass what they are given through drawable_display() before using it.
inline constexpr int kMinLevels = 2;
inline constexpr int kMaxLevels = 16;  // levels - 1 thresholds; at most kMaxThresholds
inline constexpr int kMaxSmoothing = 8;
inline constexpr float kMinGamma = 0.05f, kMaxGamma = 20.0f;
inline constexpr float kMinExposure = 1.0e-6f, kMaxExposure = 1.0e6f;
static_assert(kMaxLevels - 1 <= kMaxThresholds);

// `d` with every value clamped into the ranges above; NaN and infinities (which have no place
// to clamp to that means anything) become the defaults of DisplayParams. Unknown enum values
// become the defaults too.
DisplayParams drawable_display(const DisplayParams& d);

// Mirrors the shader storage block `RangeBuf` in shaders/range.glsl (std430), so the host can
// upload it as is.
struct DisplayRange {
  uint32_t min_key = 0;  // used only by the GPU reduction
  uint32_t max_key = 0;
  float lo = 0;
  float inv_span = 0;  // 1 / (hi - lo); 0 when hi <= lo (a flat field maps to the low end)
  float hi = 1;
  int32_t threshold_count = 0;
  float pad[2] = {0, 0};
  std::array<float, kMaxThresholds> thresholds{};  // ascending, value space
  // Several species: each channel's own range (lo, hi, min/max keys as above); lo/hi and the
  // thresholds above are then those of the cave value (the sum of the channels or one channel).
  std::array<uint32_t, kMaxSpecies> channel_min_key{};
  std::array<uint32_t, kMaxSpecies> channel_max_key{};
  std::array<float, kMaxSpecies> channel_lo{};
  std::array<float, kMaxSpecies> channel_inv_span{};
};
static_assert(sizeof(DisplayRange) == 32 + 4 * kMaxThresholds + 16 * kMaxSpecies);

// lo/hi from the field (auto-range) or [0, 1]; thresholds for the cave modes: Even spaces
// levels - 1 thresholds evenly on the mapped scale, Quantile puts them at the k/levels quantiles
// of the field, Binary has one at `threshold` of the mapped scale.
DisplayRange compute_display_range(const float* field, size_t n, const DisplayParams& d);

// A value's mapped intensity in [0, 1]: after range, exposure, mapping and gamma, before invert.
// With a transparent background it is the pixel's alpha (several species: the largest of the
// channels'; cave levels: level / (levels - 1); binary cave: 1 floor, 0 wall, both before
// invert), and the colour channels keep the palette's colour: straight alpha, as PNG stores it.
float mapped_intensity(float v, const DisplayParams& d, const DisplayRange& r);
// Continuous colouring of one value: t in [0, 1] after range, exposure, mapping, gamma, invert.
float continuous_position(float v, const DisplayParams& d, const DisplayRange& r);
// RGBA8 of position t, interpolating between the two nearest LUT entries as the shader does.
void lut_lookup(const Palette& p, float t, uint8_t* rgba);

// The whole image, rows top to bottom (field row 0 first), width*height*4 bytes.
void map_field_to_rgba(const float* field, int width, int height, const DisplayParams& d,
                       const DisplayRange& r, const Palette& p, uint8_t* out);
std::vector<uint8_t> render_field_to_rgba(const std::vector<float>& field, int width, int height,
                                          const DisplayParams& d, const Palette& p);

// ---- Several species: the field is S planes (S, H, W), one channel per species. ----
// Cave off: each channel is placed in [0, 1] as one species' field would be (continuous_position
// with that channel's own range), and the channels' colours combine: Additive sums t_c * colour_c
// (clamped to 1) on black; Ink multiplies white paper by mix(1, colour_c, t_c) for every channel.
// Cave maps colour the cave value (the sum of the channels in channel order, or one channel) with
// the palette exactly as one species' field. With one channel every function below is the
// single-field one above, pixel for pixel.
struct ChannelColours {
  int count = 1;
  std::array<std::array<float, 3>, kMaxSpecies> rgb{};  // 0..1
};
ChannelColours channel_colours(const SpeciesSet& resolved);  // each species' colour
// The channel the cave map reads: `cave_channel` when it names one of `channels`, else the sum (-1).
int drawable_cave_channel(int cave_channel, int channels);
// The cave value of every cell: channel `cave_channel`, or for -1 the sum in channel order.
std::vector<float> cave_values(const float* planes, int channels, size_t cells, int cave_channel);
// Auto range, continuous colouring: each channel (one species: the field) starts at a black level
// between its min and its mean. A grown network sits on a dark background near the min, and its
// mean is close to the min (under kBlackLevelFrom of the span): the black level is the min. A field
// with no structure yet (the first frames after a random spawn) has its mean far above the min,
// and from the min, log-mapped, nearly every cell is bright: a video opens on a flash of flat
// bright noise, and several species' colours wash out to white. There the black level moves up to
// the mean (fully at kBlackLevelFull), so the noise around the mean reads dark and the network
// fades in as it rises above it. Display only: the field is untouched.
inline constexpr float kBlackLevelFrom = 0.02f;
inline constexpr float kBlackLevelFull = 0.2f;
// min + w * (mean - min), w = clamp((r - kBlackLevelFrom) / (kBlackLevelFull - kBlackLevelFrom), 0, 1),
// r = (mean - min) / (max - min); exactly `lo` when w = 0. Same float operations in range_finish.comp.
float channel_black_level(float lo, float hi, float mean);
// One species: compute_display_range, from the black level when the cave map is off. Several:
// compute_display_range of the cave value, plus each channel's range (auto-range: from its black
// level to its max). The renderers use this; compute_display_range alone is the plain min..max.
DisplayRange compute_channels_range(const float* planes, int channels, size_t cells, const DisplayParams& d);
// RGB of one cell in cave-off mode from its channel values `v` (count of `colours`).
void blend_channels(const float* v, const DisplayParams& d, const DisplayRange& r,
                    const ChannelColours& colours, uint8_t* rgba);
void map_channels_to_rgba(const float* planes, int width, int height, const DisplayParams& d,
                          const DisplayRange& r, const Palette& p, const ChannelColours& colours,
                          uint8_t* out);
std::vector<uint8_t> render_channels_to_rgba(const std::vector<float>& planes, int width, int height,
                                             const DisplayParams& d, const Palette& p,
                                             const ChannelColours& colours);

// Binary cave: 1 = floor (value >= threshold), 0 = wall; then `passes` rounds of 3x3 majority
// (a cell is floor when at least 5 of the 9 cells around and including it are), wrapping.
std::vector<uint8_t> binary_cave(const float* field, int width, int height, float threshold, int passes);

}  // namespace physarum::render
