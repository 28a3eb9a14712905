// libFuzzer target: arbitrary bytes as a preset file. A clean Error is the expected answer.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/preset.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const physarum::Preset p =
        physarum::parse_preset(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    // What was accepted must write back and read back.
    physarum::parse_preset(physarum::preset_to_toml(p), "round-trip");
  } catch (const physarum::Error&) {
  }
  return 0;
}
