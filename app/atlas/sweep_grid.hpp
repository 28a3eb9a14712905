// The atlas's grid: two registry keys, each swept over n values (linear or geometric), one world
// per cell. Parsed and checked against the preset before anything runs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "run/recipe.hpp"
#include "sim/params.hpp"

namespace physarum::app::atlas {

inline constexpr int kMaxAxisValues = 64;

struct Axis {
  std::string key;   // as the registry names it: "model.sensor_angle_deg", "species.1.decay"
  std::string unit;  // the registry's unit ("deg", "cells", "" for none)
  double a = 0, b = 0;
  int n = 1;
  bool log = false;
  bool integer = false;  // an Int key: each value rounded to the nearest whole number

  // a + (b - a) i / (n - 1), or a (b / a)^(i / (n - 1)) with log; n = 1 gives a.
  double value(int i) const;
  // "KEY=VALUE" for --set: the value as the registry reads it back.
  std::string assignment(int i) const;
  // "sensor_angle_deg (deg)": the axis label.
  std::string label() const;
};

// `text` is KEY=a:b:n or KEY=a:b:n:log; `option` ("--x") names it in messages. KEY must be a
// numeric (Float or Int) key that `preset` holds, outside [run]; n is 1 to kMaxAxisValues; log
// needs a and b above 0. Throws UsageError naming the option and the value.
Axis parse_axis(std::string_view option, std::string_view text, const Preset& preset);

// The keys of `preset` an axis can sweep (parse_axis takes them), in the registry's order as
// `physarum params` lists them: its numbers outside [run], each species' own.
std::vector<std::string> sweepable_keys(const Preset& preset);

// One world's recipe: `base` with the two axes' assignments at (ix, iy) after its own --set.
run::Recipe world_recipe(const run::Recipe& base, const Axis& x, int ix, const Axis& y, int iy);

// An animated atlas's frame `it`: `base` with the third axis's assignment after its own --set, so
// the grid's two axes (world_recipe, after it) win where they name the same key.
run::Recipe frame_recipe(const run::Recipe& base, const Axis& t, int it);

// Every value of each axis resolved once (the other axes at their first values): a value outside
// its key's range is refused, naming the option and the value, before any world runs. `t`, the
// third axis of an animation, may be null.
void check_axes(const run::Recipe& base, const Axis& x, const Axis& y, const Axis* t = nullptr);

}  // namespace physarum::app::atlas
