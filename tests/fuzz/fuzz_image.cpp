// libFuzzer target: arbitrary bytes as a seed image. A clean Error is the expected answer to
// garbage; anything else (a crash, a sanitizer report, another exception) is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sim/image.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const physarum::LumaImage img =
        physarum::decode_luma(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    // Touch every value: a result that lies about its size shows up under ASan.
    float sum = 0;
    for (float v : img.luma) sum += v;
    if (img.luma.size() != static_cast<size_t>(img.width) * static_cast<size_t>(img.height) || sum < 0) {
      __builtin_trap();
    }
  } catch (const physarum::Error&) {
  }
  return 0;
}
