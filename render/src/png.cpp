#include "render/png.hpp"

#include <stb_image_write.h>

#include "sim/params.hpp"

namespace physarum::render {

void write_png_rgba(const std::filesystem::path& file, const uint8_t* rgba, int width, int height) {
  if (!stbi_write_png(file.c_str(), width, height, 4, rgba, width * 4)) {
    throw Error("cannot write PNG " + file.string() + " (no such folder, no permission or disk full?)");
  }
}

}  // namespace physarum::render
