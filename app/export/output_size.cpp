#include "export/output_size.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace physarum::app {

namespace {
constexpr double kMaxScale = 64.0;
constexpr int kMaxImageSide = 16384;  // the largest texture every GL 4.5 driver here allocates
}  // namespace

OutputResolution parse_resolution(const std::string& text) {
  OutputResolution r;
  const bool scale = text.size() >= 2 && (text.back() == 'x' || text.back() == 'X');
  if (!scale) {
    r.size = parse_size(text);
    return r;
  }
  const std::string number = text.substr(0, text.size() - 1);
  double s = 0;
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), s);
  if (ec != std::errc() || end != number.data() + number.size() || !std::isfinite(s) ||
      number.find_first_not_of("0123456789.") != std::string::npos) {
    throw Error("'" + text + "' is neither WIDTHxHEIGHT (1920x1080) nor a multiple of the field's size (4x)");
  }
  if (!(s > 0.0 && s <= kMaxScale)) {
    throw Error("'" + text + "': the multiple must be more than 0 and at most 64");
  }
  r.scale = s;
  return r;
}

Size output_size(const OutputResolution& r, Size field) {
  if (r.size.width > 0) return r.size;
  const Size out{static_cast<int>(std::lround(field.width * r.scale)),
                 static_cast<int>(std::lround(field.height * r.scale))};
  if (out.width < 1 || out.height < 1 || out.width > kMaxImageSide || out.height > kMaxImageSide) {
    char scale[32];
    std::snprintf(scale, sizeof scale, "%g", r.scale);
    throw Error(format_size(field) + " times " + scale + " is " + std::to_string(out.width) + "x" +
                std::to_string(out.height) + ": each side must be 1 to " + std::to_string(kMaxImageSide) +
                " pixels");
  }
  return out;
}

}  // namespace physarum::app
