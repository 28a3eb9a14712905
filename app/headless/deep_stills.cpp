#include "headless/deep_stills.hpp"

#include <algorithm>
#include <cmath>

#include "sim/png_writer.hpp"

namespace physarum::app {

std::vector<uint16_t> png16_samples(const std::vector<float>& rgba, bool alpha) {
  const size_t n = rgba.size() / 4;
  const size_t channels = alpha ? 4 : 3;
  std::vector<uint16_t> s(n * channels);
  for (size_t i = 0; i < n; ++i) {
    for (size_t c = 0; c < channels; ++c) {
      const float v = std::clamp(rgba[4 * i + c], 0.0f, 1.0f);
      s[channels * i + c] = static_cast<uint16_t>(std::lround(v * 65535.0f));
    }
  }
  return s;
}

void write_deep_stills(const std::vector<std::string>& png16s, const std::vector<std::string>& exrs,
                       const std::vector<float>& rgba, Size size, bool alpha, const DeepStillOptions& o,
                       const std::string& comment) {
  if (!png16s.empty()) {
    const std::vector<uint16_t> samples = png16_samples(rgba, alpha);
    for (const auto& f : png16s) {
      write_png(f, samples, size.width, size.height, alpha ? 4 : 3, 16, {{"Comment", comment}});
    }
  }
  const exporter::ExrSample sample = exporter::parse_exr_sample(o.exr_sample);
  for (const auto& f : exrs) exporter::write_exr(f, rgba, size.width, size.height, alpha, sample);
}

}  // namespace physarum::app
