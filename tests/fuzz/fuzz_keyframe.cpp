// libFuzzer target: arbitrary bytes as a preset with [[keyframe]] tables (seeded with keyframed
// presets). A clean Error is the expected answer; a preset that loads must give a valid preset at
// every step around its keyframes, and write back and read back.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/keyframes.hpp"
#include "sim/preset.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  physarum::Preset p;
  try {
    p = physarum::parse_preset(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
  } catch (const physarum::Error&) {
    return 0;
  }
  // Before, on, between and after each keyframe: where interpolation and holding change.
  std::vector<uint64_t> steps{0};
  for (const physarum::Keyframe& k : p.keyframes) {
    if (k.step > 0) steps.push_back(k.step - 1);
    steps.push_back(k.step);
    steps.push_back(k.step + 1);
  }
  try {
    for (const uint64_t step : steps) {
      physarum::validate(physarum::preset_at(p, step));
    }
    physarum::parse_preset(physarum::preset_to_toml(p), "round-trip");
  } catch (const physarum::Error&) {
    __builtin_trap();  // a preset that loaded must apply at every step and save
  }
  return 0;
}
