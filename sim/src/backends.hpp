// Internal: constructors of the concrete backends, called by create_backend() (backend.cpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/backend.hpp"
#include "sim/rule.hpp"
#include "sim/world_batch.hpp"

namespace physarum {

// Checks shared by every backend (backend.cpp), so that CPU and CUDA refuse the same inputs with
// the same messages. Each throws Error; a refused input changes nothing. The bounds keep every
// float->int conversion of the rule and of the brush defined, and sums of field values finite.
inline constexpr float kMaxAbsTheta = 1.0e4f;        // |heading| of an agent handed in, radians
inline constexpr float kMaxAbsBrushXY = 1.0e6f;      // |brush centre|, cells
inline constexpr float kMaxAbsFieldValue = 1.0e30f;  // |field value| and |brush amount|
// Sizes, ids a permutation of 0..expected_count-1, 0 <= x < width, 0 <= y < height, |theta| <= 1e4.
void validate_agents(const AgentState& agents, uint64_t expected_count, Size size);
// Finite; |x|, |y| <= 1e6; 0 <= radius <= max(width, height); |amount| <= 1e30.
// The channel is kAllChannels or 0..species-1.
void validate_brush(const BrushStroke& stroke, Size size, int species);

// Calls visit(cell) for each cell a brush stroke covers (docs/MODEL.md: integer offsets dx, dy
// from the cell under the brush with dx^2 + dy^2 <= r^2), dy outer and dx inner, each wrapped
// onto the torus: a cell may come twice when the disc is wider than the field.
template <class Visit>
void for_each_brushed_cell(const BrushStroke& b, Size size, Visit&& visit) {
  const int cx = static_cast<int>(std::floor(b.x));
  const int cy = static_cast<int>(std::floor(b.y));
  const int r = static_cast<int>(std::ceil(b.radius));
  for (int dy = -r; dy <= r; ++dy) {
    for (int dx = -r; dx <= r; ++dx) {
      if (!rule::brush_covers(dx, dy, b.radius)) continue;
      int x = (cx + dx) % size.width;
      int y = (cy + dy) % size.height;
      if (x < 0) x += size.width;
      if (y < 0) y += size.height;
      visit(static_cast<size_t>(y) * static_cast<size_t>(size.width) + static_cast<size_t>(x));
    }
  }
}
// width * height values (or species planes of them for kAllChannels), each finite with |v| <= 1e30;
// the channel is kAllChannels or 0..species-1.
void validate_field(const std::vector<float>& values, Size size, int channel, int species);
// set_species on a running backend: `s` resolved against the run's model and spawn mode (as at
// the start), refused when it has another number of species than the run's `channels`.
SpeciesSet resolve_species_change(const SpeciesSet& s, const ModelParams& model, SpawnMode spawn,
                                  int channels);

// The environment as a step uses it (docs/MODEL.md, "Environment"): the wall cells, and the cells
// that emit (E > 0, not a wall) with their E, each in row-major order.
struct EnvironmentCells {
  std::vector<uint32_t> walls;
  std::vector<uint32_t> food;
  std::vector<float> food_values;
};
EnvironmentCells environment_cells(const Environment& e, const std::vector<uint8_t>& run_walls);

// Every value of a config checked, as create_backend checks it; throws Error naming the first bad one.
void validate_config(const SimConfig& config);

std::unique_ptr<Backend> make_cpu_backend(const SimConfig& config, AgentState agents);

#if defined(PHYSARUM_HAS_CUDA)
// sim/cuda/plane/cuda_backend.cu. Throws Error on any CUDA failure (out of memory included), having
// released whatever it allocated.
std::unique_ptr<Backend> make_cuda_backend(const SimConfig& config, AgentState agents);
// A batch (sim/world_batch.hpp) of the checked `worlds`; `agents`: each world's, world after world.
std::unique_ptr<WorldBatch> make_cuda_batch(const std::vector<SimConfig>& worlds, AgentState agents);
// Name of CUDA device 0, or "" when no usable device/driver is present (never throws).
std::string cuda_device_name();
#endif

}  // namespace physarum
