// OpenEXR stills for compositing: linear RGB or RGBA, half or float samples. Written through
// AtomicFileWriter: a failure leaves any existing file untouched.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace physarum::app::exporter {

enum class ExrSample { Half, Float };

// "half" or "float"; throws Error naming anything else.
ExrSample parse_exr_sample(const std::string& text);

// sRGB-encoded (what a display shows, what PNG stores) to linear light, as EXR holds it.
double srgb_to_linear(double encoded);

// `rgba`: width * height * 4 display values in [0, 1] (sRGB-encoded colour, straight alpha), rows
// top to bottom. Colour is made linear; with `alpha` it is premultiplied, as EXR's A channel
// expects, else only R, G and B are written. ZIP compression, lossless.
std::string encode_exr(const std::vector<float>& rgba, int width, int height, bool alpha, ExrSample sample);
void write_exr(const std::filesystem::path& file, const std::vector<float>& rgba, int width, int height,
               bool alpha, ExrSample sample);

}  // namespace physarum::app::exporter
