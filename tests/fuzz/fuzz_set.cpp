// libFuzzer target: arbitrary bytes as one `--set section.key=value`. A clean Error is the
// expected answer; an accepted value must leave a preset that still writes back and reads back.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/preset.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  physarum::Preset p;
  try {
    physarum::apply_override(p, std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const physarum::Error&) {
    return 0;
  }
  try {
    physarum::parse_preset(physarum::preset_to_toml(p), "round-trip");
  } catch (const physarum::Error&) {
    __builtin_trap();  // an override produced a preset that cannot be saved and loaded
  }
  return 0;
}
