// Contour drawings for pen plotters: SVG in millimetres on a chosen paper, one <g> per level, each
// line one <path> (closed with Z where it closes), the recipe in an XML comment.
#pragma once

#include <string>
#include <vector>

#include "export/contours.hpp"

namespace physarum::app::exporter {

struct Paper {
  double width_mm = 210;
  double height_mm = 297;
};
// "a4", "a3" (portrait; turned to landscape by the writer when the field is wider than tall) or
// "WxHmm" ("300x200mm"). Throws Error for anything else.
Paper parse_paper(const std::string& s);

struct ContourLevel {
  float value = 0;
  std::vector<Polyline> lines;  // grid coordinates of a grid grid_width x grid_height
};

struct Placement {  // grid coordinates -> millimetres
  double scale = 1;
  double offset_x = 0;
  double offset_y = 0;
  double paper_w = 0;
  double paper_h = 0;
};
// The grid, grid_width x grid_height cells, fitted into the paper inside a margin, centred, aspect
// kept; the paper is turned when its orientation does not match the grid's.
Placement place_on_paper(int grid_width, int grid_height, Paper paper, double margin_mm);

// With `network`, a last <g id="network"> holds it as a single-line drawing (the skeleton of the
// thresholded trail, analysis::skeleton_polylines), in the same grid coordinates as the levels.
std::string contours_svg(const std::vector<ContourLevel>& levels, const Placement& p, double stroke_mm,
                         const std::string& recipe, const std::vector<Polyline>* network = nullptr);

}  // namespace physarum::app::exporter
