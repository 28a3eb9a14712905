// PNG files through stb_image_write.
#pragma once

#include <cstdint>
#include <filesystem>

namespace physarum::render {

// rgba: width*height*4 bytes, rows top to bottom. Throws Error when the file cannot be written.
void write_png_rgba(const std::filesystem::path& file, const uint8_t* rgba, int width, int height);

}  // namespace physarum::render
