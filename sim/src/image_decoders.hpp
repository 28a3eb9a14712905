// The two decoders behind load_luma, and what they share: the per-pixel brightness and the limits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/image.hpp"

namespace physarum::image_detail {

// Brightness of one pixel: Rec. 709 luma weights applied to the gamma-encoded sRGB values in [0, 1]
// (Y' = 0.2126 R' + 0.7152 G' + 0.0722 B', no linearisation: what a person sees as "bright" in the
// file). Alpha composites over black, so transparent parts seed nothing.
float luma_of(const float* c, int channels);

// One row of `width` pixels of `channels` samples (8-bit, or 16-bit big-endian as PNG stores them)
// into brightness values.
void row_to_luma(const unsigned char* row, int width, int channels, int bytes_per_sample, float* out);

// The same row as red, green and blue (3 floats a pixel, [0, 1]): grey samples go into all three,
// alpha composites over black as for luma.
void row_to_rgb(const unsigned char* row, int width, int channels, int bytes_per_sample, float* out);

// Throws Error when width x height is over kMaxImagePixels, or when decoding needs more memory than
// kImageMemoryBudget (`decoder_bytes` is the decoder's own, beside the 4-byte-per-pixel result).
void check_size(const std::string& name, long long width, long long height, double decoder_bytes);

// `name` is "image 'path'" for messages. Both throw Error for anything but a complete, valid file.
// With `colour` the image's `rgb` is filled too (beside `luma`).
LumaImage decode_png(std::string_view bytes, const std::string& name, bool colour = false);
LumaImage decode_jpeg(std::string_view bytes, const std::string& name, bool colour = false);

}  // namespace physarum::image_detail
