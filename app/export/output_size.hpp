// `render --resolution`: the image size as WxH, or as a multiple of the field's size ("4x",
// "2.5x"). Larger than the field, the shader samples the field bicubically (shaders/bicubic.glsl).
#pragma once

#include <string>

#include "sim/params.hpp"

namespace physarum::app {

struct OutputResolution {
  Size size{0, 0};     // WxH as given; 0x0 when a scale was given
  double scale = 1.0;  // a multiple of the field's size (when size is 0x0)
};

// Throws Error: neither WxH nor a number followed by x, or a scale outside (0, 64].
OutputResolution parse_resolution(const std::string& text);

// The image size for a field of `field` cells: WxH as it is, or the field times the scale, each
// side rounded to the nearest pixel. Throws Error when a side comes out below 1 or above 16384.
Size output_size(const OutputResolution& r, Size field);

}  // namespace physarum::app
