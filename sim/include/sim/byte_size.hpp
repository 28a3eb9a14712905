// Sizes in bytes as people read and write them: what a file or an output budget weighs, in
// messages, the window's panel and --output-budget.
#pragma once

#include <cstdint>
#include <string>

namespace physarum {

// "12.3 MB", "512 KB", "300 bytes".
std::string format_bytes(uint64_t bytes);

// A size in bytes as people write it: a decimal number with a unit, "512MB", "4GB", "1.5TB",
// "64KiB" (KB, MB, GB, TB are powers of 1000; KiB, MiB, GiB, TiB of 1024; B or no unit: bytes;
// case-insensitive). More than 0 and at most 1 EB. Throws Error naming the text and what is wrong.
uint64_t parse_byte_size(const std::string& text);

}  // namespace physarum
