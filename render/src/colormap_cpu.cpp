#include <algorithm>
#include <cmath>

#include "render/colormap.hpp"

namespace physarum::render {
namespace {

uint8_t to_unorm8(float c) {
  return static_cast<uint8_t>(std::lround(std::clamp(c, 0.0f, 1.0f) * 255.0f));
}

// A finite value clamped into [lo, hi]; NaN or an infinity gives `fallback`.
float finite_clamped(float v, float lo, float hi, float fallback) {
  return std::isfinite(v) ? std::clamp(v, lo, hi) : fallback;
}

const DisplayParams kDefaults;

// The part of drawable_display() that colouring one value needs (no copy of the palette name).
float drawable_exposure(float e) {
  return finite_clamped(e, kMinExposure, kMaxExposure, kDefaults.exposure);
}
float drawable_gamma(float g) {
  return finite_clamped(g, kMinGamma, kMaxGamma, kDefaults.gamma);
}

}  // namespace

DisplayParams drawable_display(const DisplayParams& d) {
  DisplayParams out = d;
  if (d.mapping != Mapping::Linear && d.mapping != Mapping::Log) out.mapping = kDefaults.mapping;
  if (d.cave != CaveMode::Off && d.cave != CaveMode::Even && d.cave != CaveMode::Quantile &&
      d.cave != CaveMode::Binary) {
    out.cave = kDefaults.cave;
  }
  out.exposure = drawable_exposure(d.exposure);
  out.gamma = drawable_gamma(d.gamma);
  out.threshold = finite_clamped(d.threshold, 0.0f, 1.0f, kDefaults.threshold);
  out.levels = std::clamp(d.levels, kMinLevels, kMaxLevels);
  out.smoothing = std::clamp(d.smoothing, 0, kMaxSmoothing);
  if (d.blend != Blend::Additive && d.blend != Blend::Ink) out.blend = kDefaults.blend;
  out.cave_channel = std::clamp(d.cave_channel, kCaveFromSum, kMaxSpecies - 1);
  if (d.background != Background::Opaque && d.background != Background::Transparent)
    out.background = kDefaults.background;
  return out;
}

DisplayRange compute_display_range(const float* field, size_t n, const DisplayParams& given) {
  const DisplayParams d = drawable_display(given);
  DisplayRange r;
  if (d.auto_range && n > 0) {
    const auto [mn, mx] = std::minmax_element(field, field + n);
    r.lo = *mn;
    r.hi = *mx;
  }
  const float span = r.hi - r.lo;
  // A span so small that its inverse overflows counts as flat (an infinite scale would turn the
  // low end into 0 * inf = NaN).
  r.inv_span = span > 0 && std::isfinite(1.0f / span) ? 1.0f / span : 0.0f;
  switch (d.cave) {
    case CaveMode::Off: break;
    case CaveMode::Even:
      r.threshold_count = d.levels - 1;
      for (int k = 1; k < d.levels; ++k) {
        const float t = static_cast<float>(k) / static_cast<float>(d.levels);
        r.thresholds[k - 1] = r.lo + span * invert_mapping(t, d.mapping);
      }
      break;
    case CaveMode::Quantile: {
      r.threshold_count = d.levels - 1;
      if (n == 0) break;
      std::vector<float> sorted(field, field + n);
      // Successive nth_element calls on the shrinking tail: O(n * levels), no full sort.
      size_t from = 0;
      for (int k = 1; k < d.levels; ++k) {
        const size_t idx = std::min(n - 1, static_cast<size_t>(k) * n / static_cast<size_t>(d.levels));
        std::nth_element(sorted.begin() + static_cast<ptrdiff_t>(from),
                         sorted.begin() + static_cast<ptrdiff_t>(idx), sorted.end());
        r.thresholds[k - 1] = sorted[idx];
        from = idx;
      }
      break;
    }
    case CaveMode::Binary:
      r.threshold_count = 1;
      r.thresholds[0] = r.lo + span * invert_mapping(d.threshold, d.mapping);
      break;
  }
  return r;
}

float mapped_intensity(float v, const DisplayParams& d, const DisplayRange& r) {
  float x = std::max((v - r.lo) * r.inv_span, 0.0f) * drawable_exposure(d.exposure);
  float t = std::clamp(apply_mapping(x, d.mapping), 0.0f, 1.0f);
  return std::pow(t, 1.0f / drawable_gamma(d.gamma));
}

float continuous_position(float v, const DisplayParams& d, const DisplayRange& r) {
  const float t = mapped_intensity(v, d, r);
  return d.invert ? 1.0f - t : t;
}

void lut_lookup(const Palette& p, float t, uint8_t* rgba) {
  const float f = t * static_cast<float>(kLutSize - 1);
  const int i = std::clamp(static_cast<int>(std::floor(f)), 0, kLutSize - 2);
  const float w = std::clamp(f - static_cast<float>(i), 0.0f, 1.0f);
  for (int c = 0; c < 4; ++c) {
    const float a = p.lut[i * 4 + c] / 255.0f;
    const float b = p.lut[(i + 1) * 4 + c] / 255.0f;
    rgba[c] = to_unorm8(a * (1.0f - w) + b * w);
  }
}

std::vector<uint8_t> binary_cave(const float* field, int width, int height, float threshold, int passes) {
  const size_t n = static_cast<size_t>(width) * static_cast<size_t>(height);
  std::vector<uint8_t> cur(n), next(n);
  for (size_t i = 0; i < n; ++i) cur[i] = field[i] >= threshold ? 1 : 0;
  const int rounds = std::clamp(passes, 0, kMaxSmoothing);
  for (int pass = 0; pass < rounds; ++pass) {
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        int floor_cells = 0;
        for (int dy = -1; dy <= 1; ++dy) {
          const int yy = (y + dy + height) % height;
          for (int dx = -1; dx <= 1; ++dx) {
            const int xx = (x + dx + width) % width;
            floor_cells += cur[static_cast<size_t>(yy) * width + xx];
          }
        }
        next[static_cast<size_t>(y) * width + x] = floor_cells >= 5 ? 1 : 0;
      }
    }
    cur.swap(next);
  }
  return cur;
}

void map_field_to_rgba(const float* field, int width, int height, const DisplayParams& given,
                       const DisplayRange& r, const Palette& p, uint8_t* out) {
  const DisplayParams d = drawable_display(given);
  const size_t n = static_cast<size_t>(width) * static_cast<size_t>(height);
  const bool transparent = d.background == Background::Transparent;
  auto put_entry = [&](size_t i, int entry, float alpha) {
    for (int c = 0; c < 4; ++c) out[i * 4 + c] = p.lut[entry * 4 + c];
    if (transparent) out[i * 4 + 3] = to_unorm8(alpha);
  };
  switch (d.cave) {
    case CaveMode::Off:
      for (size_t i = 0; i < n; ++i) {
        const float t = mapped_intensity(field[i], d, r);
        lut_lookup(p, d.invert ? 1.0f - t : t, out + i * 4);
        if (transparent) out[i * 4 + 3] = to_unorm8(t);
      }
      break;
    case CaveMode::Even:
    case CaveMode::Quantile: {
      const int count = std::clamp(r.threshold_count, 0, kMaxThresholds);
      const int levels = count + 1;
      for (size_t i = 0; i < n; ++i) {
        int level = 0;
        for (int k = 0; k < count; ++k) level += field[i] >= r.thresholds[k] ? 1 : 0;
        const float alpha = levels > 1 ? static_cast<float>(level) / static_cast<float>(levels - 1) : 0.0f;
        if (d.invert) level = levels - 1 - level;
        put_entry(i, levels > 1 ? level * (kLutSize - 1) / (levels - 1) : 0, alpha);
      }
      break;
    }
    case CaveMode::Binary: {
      const auto cave = binary_cave(field, width, height, r.thresholds[0], d.smoothing);
      for (size_t i = 0; i < n; ++i) {
        const bool floor_cell = (cave[i] != 0) != d.invert;
        put_entry(i, floor_cell ? kLutSize - 1 : 0, cave[i] != 0 ? 1.0f : 0.0f);
      }
      break;
    }
  }
}

ChannelColours channel_colours(const SpeciesSet& resolved) {
  ChannelColours c;
  c.count = std::clamp(static_cast<int>(resolved.list.size()), 1, kMaxSpecies);
  for (int s = 0; s < c.count && s < static_cast<int>(resolved.list.size()); ++s) {
    const uint32_t rgb = resolved.list[static_cast<size_t>(s)].colour;
    c.rgb[s] = {static_cast<float>((rgb >> 16) & 0xff) / 255.0f,
                static_cast<float>((rgb >> 8) & 0xff) / 255.0f, static_cast<float>(rgb & 0xff) / 255.0f};
  }
  return c;
}

int drawable_cave_channel(int cave_channel, int channels) {
  return cave_channel >= 0 && cave_channel < channels ? cave_channel : kCaveFromSum;
}

std::vector<float> cave_values(const float* planes, int channels, size_t cells, int cave_channel) {
  const int c = drawable_cave_channel(cave_channel, channels);
  if (c >= 0)
    return std::vector<float>(planes + static_cast<size_t>(c) * cells,
                              planes + static_cast<size_t>(c + 1) * cells);
  std::vector<float> sum(planes, planes + cells);
  for (int k = 1; k < channels; ++k) {
    const float* plane = planes + static_cast<size_t>(k) * cells;
    for (size_t i = 0; i < cells; ++i) sum[i] += plane[i];  // channel order, as the shaders add
  }
  return sum;
}

namespace {

// One channel's range for continuous colouring: auto-range starts at its black level, not its min.
void lift_to_black_level(const float* plane, size_t cells, const DisplayParams& d, float hi, float& lo,
                         float& inv_span) {
  if (!d.auto_range || cells == 0 || !(inv_span > 0)) return;
  double sum = 0;
  for (size_t i = 0; i < cells; ++i) sum += plane[i];
  const float black = channel_black_level(lo, hi, static_cast<float>(sum / static_cast<double>(cells)));
  const float span = hi - black;
  lo = black;
  inv_span = span > 0 && std::isfinite(1.0f / span) ? 1.0f / span : 0.0f;
}

}  // namespace

DisplayRange compute_channels_range(const float* planes, int channels, size_t cells,
                                    const DisplayParams& given) {
  const DisplayParams d = drawable_display(given);
  if (channels <= 1) {
    DisplayRange r = compute_display_range(planes, cells, d);
    // Cave levels keep the min: their thresholds, not lo, place every cell.
    if (d.cave == CaveMode::Off) lift_to_black_level(planes, cells, d, r.hi, r.lo, r.inv_span);
    return r;
  }
  const std::vector<float> cave = cave_values(planes, channels, cells, d.cave_channel);
  DisplayRange r = compute_display_range(cave.data(), cells, d);
  for (int c = 0; c < channels && c < kMaxSpecies; ++c) {
    const float* plane = planes + static_cast<size_t>(c) * cells;
    const DisplayRange one = compute_display_range(plane, cells, d);
    r.channel_lo[c] = one.lo;
    r.channel_inv_span[c] = one.inv_span;
    lift_to_black_level(plane, cells, d, one.hi, r.channel_lo[c], r.channel_inv_span[c]);
  }
  return r;
}

float channel_black_level(float lo, float hi, float mean) {
  const float span = hi - lo;
  if (!(span > 0) || !std::isfinite(mean)) return lo;
  const float r = (mean - lo) / span;
  const float w = std::clamp((r - kBlackLevelFrom) / (kBlackLevelFull - kBlackLevelFrom), 0.0f, 1.0f);
  return lo + w * (mean - lo);
}

void blend_channels(const float* v, const DisplayParams& d, const DisplayRange& r,
                    const ChannelColours& colours, uint8_t* rgba) {
  const bool ink = d.blend == Blend::Ink;
  std::array<float, 3> rgb{};
  rgb.fill(ink ? 1.0f : 0.0f);
  float alpha = 0.0f;
  for (int c = 0; c < colours.count; ++c) {
    DisplayRange one;
    one.lo = r.channel_lo[c];
    one.inv_span = r.channel_inv_span[c];
    const float intensity = mapped_intensity(v[c], d, one);
    alpha = std::max(alpha, intensity);
    const float t = d.invert ? 1.0f - intensity : intensity;
    for (int k = 0; k < 3; ++k) {
      const float col = colours.rgb[c][k];
      rgb[k] = ink ? rgb[k] * (1.0f * (1.0f - t) + col * t) : rgb[k] + t * col;
    }
  }
  for (int k = 0; k < 3; ++k) rgba[k] = to_unorm8(rgb[k]);
  rgba[3] = d.background == Background::Transparent ? to_unorm8(alpha) : 255;
}

void map_channels_to_rgba(const float* planes, int width, int height, const DisplayParams& given,
                          const DisplayRange& r, const Palette& p, const ChannelColours& colours,
                          uint8_t* out) {
  const DisplayParams d = drawable_display(given);
  const size_t n = static_cast<size_t>(width) * static_cast<size_t>(height);
  if (colours.count <= 1) {
    map_field_to_rgba(planes, width, height, d, r, p, out);
    return;
  }
  if (d.cave != CaveMode::Off) {
    const std::vector<float> cave = cave_values(planes, colours.count, n, d.cave_channel);
    map_field_to_rgba(cave.data(), width, height, d, r, p, out);
    return;
  }
  std::array<float, kMaxSpecies> v{};
  for (size_t i = 0; i < n; ++i) {
    for (int c = 0; c < colours.count; ++c) v[c] = planes[static_cast<size_t>(c) * n + i];
    blend_channels(v.data(), d, r, colours, out + i * 4);
  }
}

std::vector<uint8_t> render_channels_to_rgba(const std::vector<float>& planes, int width, int height,
                                             const DisplayParams& d, const Palette& p,
                                             const ChannelColours& colours) {
  const size_t n = static_cast<size_t>(width) * static_cast<size_t>(height);
  std::vector<uint8_t> out(n * 4);
  const DisplayRange r = compute_channels_range(planes.data(), colours.count, n, d);
  map_channels_to_rgba(planes.data(), width, height, d, r, p, colours, out.data());
  return out;
}

std::vector<uint8_t> render_field_to_rgba(const std::vector<float>& field, int width, int height,
                                          const DisplayParams& d, const Palette& p) {
  std::vector<uint8_t> out(field.size() * 4);
  const DisplayRange r = compute_channels_range(field.data(), 1, field.size(), d);
  map_field_to_rgba(field.data(), width, height, d, r, p, out.data());
  return out;
}

}  // namespace physarum::render
