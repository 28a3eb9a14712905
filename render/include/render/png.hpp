// PNG files through stb_image_write.
#pragma once

#include <cstdint>
#include <filesystem>

namespace physarum::render {

// rgba: width*height*4 bytes, rows top to bottom. Written through a temporary file renamed into place
// (sim/atomic_file.hpp): throws Error when the file cannot be written completely, and an existing
// file is then untouched.
void write_png_rgba(const std::filesystem::path& file, const uint8_t* rgba, int width, int height);

}  // namespace physarum::render
