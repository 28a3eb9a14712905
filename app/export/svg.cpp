#include "export/svg.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <regex>

#include "sim/params.hpp"

namespace physarum::app::exporter {
namespace {

std::string mm(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  std::string s = buf;
  if (s == "-0.000") s = "0.000";
  return s;
}

// An XML comment may not contain "--" nor end with "-".
std::string comment_safe(std::string s) {
  size_t at;
  while ((at = s.find("--")) != std::string::npos) s.replace(at, 2, "- -");
  if (!s.empty() && s.back() == '-') s += ' ';
  return s;
}

// One <path> a line, in millimetres; closed lines end with Z.
void append_paths(std::string& s, const std::vector<Polyline>& lines, const Placement& p) {
  for (const Polyline& line : lines) {
    if (line.points.size() < 2) continue;
    s += "  <path d=\"";
    for (size_t i = 0; i < line.points.size(); ++i) {
      s += i == 0 ? "M" : " L";
      s += mm(p.offset_x + line.points[i].x * p.scale) + " " + mm(p.offset_y + line.points[i].y * p.scale);
    }
    if (line.closed) s += " Z";
    s += "\"/>\n";
  }
}

}  // namespace

Paper parse_paper(const std::string& s) {
  if (s == "a4" || s == "A4") return {210, 297};
  if (s == "a3" || s == "A3") return {297, 420};
  static const std::regex custom(R"(([0-9]+(\.[0-9]+)?)x([0-9]+(\.[0-9]+)?)mm)");
  std::smatch m;
  if (!std::regex_match(s, m, custom)) {
    throw Error("--paper " + s + ": expected a4, a3 or WxHmm with sides 10..10000 mm (e.g. 300x200mm)");
  }
  for (const int side : {1, 3}) {
    const std::string digits = m[side].str();
    double mm = 0;
    const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), mm);
    // Too many digits for a double is far out of range, like any side beyond the limits.
    if (r.ec != std::errc() || mm < 10 || mm > 10000) {
      throw Error("--paper " + s + ": a side of " +
                  (digits.size() > 16 ? digits.substr(0, 16) + "..." : digits) +
                  " mm is outside 10..10000 mm");
    }
  }
  return {std::stod(m[1].str()), std::stod(m[3].str())};
}

Placement place_on_paper(int grid_width, int grid_height, Paper paper, double margin_mm) {
  Placement p;
  p.paper_w = paper.width_mm;
  p.paper_h = paper.height_mm;
  if ((grid_width > grid_height) != (p.paper_w > p.paper_h) && grid_width != grid_height)
    std::swap(p.paper_w, p.paper_h);
  const double margin = std::min(margin_mm, std::min(p.paper_w, p.paper_h) / 4);
  // Grid points run from 0 to W - 1; the drawing spans that.
  const double gw = std::max(grid_width - 1, 1), gh = std::max(grid_height - 1, 1);
  p.scale = std::min((p.paper_w - 2 * margin) / gw, (p.paper_h - 2 * margin) / gh);
  p.offset_x = (p.paper_w - gw * p.scale) / 2;
  p.offset_y = (p.paper_h - gh * p.scale) / 2;
  return p;
}

std::string contours_svg(const std::vector<ContourLevel>& levels, const Placement& p, double stroke_mm,
                         const std::string& recipe, const std::vector<Polyline>* network) {
  std::string s;
  s += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  s += "<!-- " + comment_safe(recipe) + " -->\n";
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + mm(p.paper_w) + "mm\" height=\"" +
       mm(p.paper_h) + "mm\" viewBox=\"0 0 " + mm(p.paper_w) + " " + mm(p.paper_h) + "\">\n";
  for (size_t k = 0; k < levels.size(); ++k) {
    char value[32];
    std::snprintf(value, sizeof value, "%.9g", static_cast<double>(levels[k].value));
    s += " <g id=\"level-" + std::to_string(k + 1) + "\" data-level=\"" + value +
         "\" fill=\"none\" stroke=\"black\" stroke-width=\"" + mm(stroke_mm) +
         "\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n";
    append_paths(s, levels[k].lines, p);
    s += " </g>\n";
  }
  if (network) {
    s += " <g id=\"network\" fill=\"none\" stroke=\"black\" stroke-width=\"" + mm(stroke_mm) +
         "\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n";
    append_paths(s, *network, p);
    s += " </g>\n";
  }
  s += "</svg>\n";
  return s;
}

}  // namespace physarum::app::exporter
