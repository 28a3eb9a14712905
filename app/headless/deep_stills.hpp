// Stills for print and compositing: a 16-bit PNG (--depth 16) and OpenEXR (.exr, half or float,
// linear). Both come from the field drawn once more at the end into a float colour target, so
// they hold the shader's colours before any rounding to 8 bits.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "export/exr_writer.hpp"
#include "sim/params.hpp"

namespace physarum::app {

struct DeepStillOptions {
  int depth = 8;                    // .png stills: 8 or 16 bits a channel
  std::string exr_sample = "half";  // .exr: half or float
};

// 16-bit samples of a float image (4 a pixel, display values): round(v * 65535), clamped to
// [0, 1]; RGBA with `alpha`, else RGB.
std::vector<uint16_t> png16_samples(const std::vector<float>& rgba, bool alpha);

// Writes each 16-bit PNG and EXR of the float image `rgba` (rows top to bottom); `comment` goes
// into the PNGs' text chunks.
void write_deep_stills(const std::vector<std::string>& png16s, const std::vector<std::string>& exrs,
                       const std::vector<float>& rgba, Size size, bool alpha, const DeepStillOptions& o,
                       const std::string& comment);

}  // namespace physarum::app
