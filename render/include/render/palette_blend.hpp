// Palettes blend between keyframes. A preset whose keyframes name display.palette shows, between two
// of them, both palettes' lookup tables mixed entry by entry and channel by channel with the ease's
// weight (sim/keyframes.hpp, blend_at), so one palette fades into the next instead of switching at
// the keyframe. The window and `physarum render` both draw what palette_at gives.
#pragma once

#include <cstdint>

#include "render/palette.hpp"
#include "sim/params.hpp"

namespace physarum::render {

// Entry by entry, each of R, G, B, A blended as a keyframed colour is (sim/keyframes.hpp, blend_channel).
// Named after a, or after b once w reaches 1.
Palette blend_palettes(const Palette& a, const Palette& b, double w);

// The palette `p` shows at `step`: its display.palette, or with keyframes naming display.palette
// the blend of the two around the step. Names not in `set` fall back as PaletteSet::index_of does.
Palette palette_at(const PaletteSet& set, const Preset& p, uint64_t step);

// What a renderer shows, kept so that its table is uploaded only when it changes.
class PaletteFollower {
 public:
  // True when the table of palette_at(set, p, step) differs from the one last returned by current()
  // (or none was yet): the caller uploads current() then.
  bool update(const PaletteSet& set, const Preset& p, uint64_t step);
  const Palette& current() const { return current_; }
  // The next update() reports a change (the renderer was given another palette meanwhile).
  void forget() { known_ = false; }

 private:
  Palette current_;
  bool known_ = false;
};

}  // namespace physarum::render
