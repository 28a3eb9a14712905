// Reading a file a user named (an image, a preset, a palette): regular files only. A FIFO would block
// the program forever, a device can be endless, a directory reads as an error deep inside a parser;
// each is refused up front with a message that says what was given instead.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace physarum {

// The whole file. `what` names it in messages ("image", "preset"). Throws Error when the path is
// missing or unreadable, is not a regular file, or holds more than max_bytes.
std::string read_input_file(const std::filesystem::path& file, std::string_view what, size_t max_bytes);

}  // namespace physarum
