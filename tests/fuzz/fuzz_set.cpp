// libFuzzer target: arbitrary bytes as one `--set section.key=value`. A clean Error is the
// expected answer; an accepted value must leave a preset that still writes back and reads back.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/preset.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // An odd first byte: a preset of two species, so species keys and the matrix are reached too.
  static const physarum::Preset two = physarum::parse_preset("[[species]]\n[[species]]\n", "two");
  physarum::Preset p = size > 0 && (data[0] & 1) ? two : physarum::Preset{};
  if (size > 0) {
    ++data;
    --size;
  }
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
