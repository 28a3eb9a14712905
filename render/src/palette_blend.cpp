#include "render/palette_blend.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "sim/keyframes.hpp"

namespace physarum::render {

Palette blend_palettes(const Palette& a, const Palette& b, double w) {
  w = std::clamp(w, 0.0, 1.0);
  Palette out = w >= 1.0 ? b : a;
  for (size_t i = 0; i < out.lut.size(); ++i) out.lut[i] = blend_channel(a.lut[i], b.lut[i], w);
  return out;
}

Palette palette_at(const PaletteSet& set, const Preset& p, uint64_t step) {
  const auto named = [&](const std::string& name) -> const Palette& {
    return set.palettes[set.index_of(name)];
  };
  const std::optional<KeyBlend> b = blend_at(p, "display.palette", step);
  if (!b || !std::holds_alternative<std::string>(b->from) || !std::holds_alternative<std::string>(b->to)) {
    return named(p.display.palette);
  }
  const Palette& from = named(std::get<std::string>(b->from));
  if (b->weight <= 0.0) return from;
  return blend_palettes(from, named(std::get<std::string>(b->to)), b->weight);
}

bool PaletteFollower::update(const PaletteSet& set, const Preset& p, uint64_t step) {
  Palette next = palette_at(set, p, step);
  if (known_ && next.lut == current_.lut) return false;
  current_ = std::move(next);
  known_ = true;
  return true;
}

}  // namespace physarum::render
