// A parameter's value, typed (sim/registry.hpp says which type each parameter has). Kept apart
// from the registry so that keyframes (sim/keyframes.hpp) can hold values without the whole table.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace physarum {

struct Size {
  int width = 0;
  int height = 0;
  friend bool operator==(const Size&, const Size&) = default;
};
// A volume's voxels (docs/MODEL.md, "Volume"): W x H x D.
struct Size3 {
  int width = 0;
  int height = 0;
  int depth = 0;
  friend bool operator==(const Size3&, const Size3&) = default;
};

// Float keys hold float, Int/Count/Colour int64_t, Bool bool, Choice/Text a string, Size a Size,
// the interaction matrix its S x S entries row by row. monostate: an optional key that is not set.
using Value = std::variant<std::monostate, float, int64_t, bool, std::string, Size, std::vector<float>>;

}  // namespace physarum
