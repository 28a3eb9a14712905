// The network as a graph over the field, on demand: the panel's "Network graph" section measures
// the current field as `render --report` does (app/analysis), shows Tero et al.'s three measures,
// and draws the graph's nodes and edges over the field while "Show" is ticked. Measuring costs a
// fraction of a second on a large field, so it happens when asked, not every frame.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "analysis/network.hpp"
#include "render/view.hpp"
#include "sim/params.hpp"

namespace physarum::app {

class WindowCore;

struct GraphOverlay {
  bool show = false;
  std::optional<analysis::NetworkReport> report;  // the last measuring
  uint64_t step = 0;                              // the step it measured
  Size size{};                                    // the field it measured
};

// Where field point (x, y) (cell x's centre is x + 0.5) lands in ImGui's coordinates, for the field
// drawn with `view` into `area` (framebuffer pixels) of a framebuffer `scale` times ImGui's units
// whose top-left corner is at ImGui's `origin`.
struct ScreenPoint {
  float x = 0, y = 0;
};
ScreenPoint field_point_on_screen(const render::View& view, const render::Area& area, Size field,
                                  float scale_x, float scale_y, ScreenPoint origin, double x, double y);

// The panel's section (a collapsing header) and, while shown, the graph over the field.
void graph_overlay_section(WindowCore& core, GraphOverlay& g);

}  // namespace physarum::app
