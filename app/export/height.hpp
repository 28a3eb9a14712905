// Height maps: the field through the display mapping (range, exposure, log/linear, gamma), spread
// over the full 16-bit range, as terrain tools import it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "export/grid.hpp"
#include "sim/params.hpp"

namespace physarum::app::exporter {

// The display position t in [0, 1] of every cell, as 0..65535. The range is the grid's own
// minimum..maximum (auto_range) or 0..1. The lowest value maps to 0 and, for a non-flat field
// with exposure >= 1, the highest to 65535.
std::vector<uint16_t> height_samples(const Grid& g, const DisplayParams& d);

// Raw R16: the samples as little-endian uint16, row by row, no header.
std::string r16_bytes(const std::vector<uint16_t>& samples);

}  // namespace physarum::app::exporter
