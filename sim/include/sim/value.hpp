// A parameter's value, typed (sim/registry.hpp says which type each parameter has). Kept apart
// from the registry so that keyframes (sim/keyframes.hpp) can hold values without the whole table.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace physarum {

// A field's cells, W x H, or a volume's voxels, W x H x D (docs/MODEL.md, "Volume"). A depth of 1 is
// the plane: the two-dimensional model.
struct Size {
  int width = 0;
  int height = 0;
  int depth = 1;
  bool volume() const { return depth != 1; }
  friend bool operator==(const Size&, const Size&) = default;
};

// Float keys hold float, Int/Count/Colour int64_t, Bool bool, Choice/Text a string, Size a Size,
// the interaction matrix its S x S entries row by row. monostate: an optional key that is not set.
using Value = std::variant<std::monostate, float, int64_t, bool, std::string, Size, std::vector<float>>;

}  // namespace physarum
