#include "window/graph_overlay.hpp"

#include <imgui.h>

#include <vector>

#include "analysis/network_graph.hpp"
#include "analysis/report_maps.hpp"
#include "window/window_core.hpp"

namespace physarum::app {
namespace {

void measure(WindowCore& core, GraphOverlay& g) {
  Backend& b = core.backend();
  std::vector<float> field, food;
  std::vector<uint8_t> walls;
  b.read_field(field);
  b.read_food(food);
  b.read_walls(walls);
  g.report = analysis::analyse_run_field(b.size(), field, food, walls, analysis::NetworkOptions{});
  g.step = b.steps_done();
  g.size = b.size();
}

void measures_text(const analysis::NetworkReport& r) {
  const auto value = [](const std::optional<double>& v) { return v ? *v : -1.0; };
  ImGui::Text("%zu nodes, %zu edges; %d towns, %s", r.graph->nodes.size(), r.graph->edges.size(), r.towns,
              r.towns == 0 ? "no food map" : (r.towns_connected ? "all linked" : "not all linked"));
  if (r.towns < 2) return;
  ImGui::Text("cost %.2f x the towns' spanning tree", value(r.cost));
  if (r.efficiency) {
    ImGui::Text("efficiency %.2f (town-to-town paths / the tree's)", *r.efficiency);
  } else {
    ImGui::TextUnformatted("efficiency: not every town is on the graph");
  }
  ImGui::Text("fault tolerance %.2f (%d of %d links are bridges)", value(r.fault_tolerance_tero), r.bridges,
              r.links);
  // The paper's figures, to compare with; wrapped, as the panel may be narrower than the line.
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("Tero et al. 2010: Physarum 1.75, 0.85, 0.14; Tokyo rail 1.8, 0.85, 0.04");
  ImGui::PopTextWrapPos();
}

void draw_graph(const WindowCore& core, const analysis::NetworkGraph& graph, Size field) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const ImVec2 s = ImGui::GetIO().DisplayFramebufferScale;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const auto at = [&](const analysis::GraphNode& n) {
    const ScreenPoint p =
        field_point_on_screen(core.view, core.field_area, field, s.x, s.y, {vp->Pos.x, vp->Pos.y}, n.x, n.y);
    return ImVec2(p.x, p.y);
  };
  for (const analysis::GraphEdge& e : graph.edges) {
    const auto& a = graph.nodes[static_cast<size_t>(e.a)];
    const auto& b = graph.nodes[static_cast<size_t>(e.b)];
    if (e.a != e.b) dl->AddLine(at(a), at(b), IM_COL32(255, 90, 90, 220), 1.5f);
  }
  for (const analysis::GraphNode& n : graph.nodes) {
    const bool town = n.kind == analysis::NodeKind::Town;
    const ImU32 colour = town                                     ? IM_COL32(255, 230, 0, 255)
                         : n.kind == analysis::NodeKind::Junction ? IM_COL32(90, 170, 255, 255)
                                                                  : IM_COL32(235, 235, 235, 255);
    dl->AddCircleFilled(at(n), town ? 5.0f : 3.0f, colour);
  }
}

}  // namespace

ScreenPoint field_point_on_screen(const render::View& view, const render::Area& area, Size field,
                                  float scale_x, float scale_y, ScreenPoint origin, double x, double y) {
  const float s = view.scale(area, field);
  const float px = area.center_x() + (static_cast<float>(x) + 0.5f - view.center_cell_x(field)) * s;
  const float py = area.center_y() + (static_cast<float>(y) + 0.5f - view.center_cell_y(field)) * s;
  return {origin.x + px / scale_x, origin.y + py / scale_y};
}

void graph_overlay_section(WindowCore& core, GraphOverlay& g) {
  // A graph of another run (another field size, or a reset to before the step it measured) is not
  // this field's: dropped, and measured again while it is shown.
  const Size now = core.field_size();
  if (g.report && (g.size.width != now.width || g.size.height != now.height || core.steps_done() < g.step))
    g.report.reset();
  if (ImGui::CollapsingHeader("Network graph")) {
    if (ImGui::Button("Measure now")) measure(core, g);
    ImGui::SameLine();
    ImGui::Checkbox("Show over the field", &g.show);
    if (g.report) {
      ImGui::TextDisabled("measured at step %llu", static_cast<unsigned long long>(g.step));
      measures_text(*g.report);
    }
  }
  if (g.show && !g.report) measure(core, g);
  if (g.show && g.report && g.report->graph && core.field_area.w > 0 && core.field_area.h > 0) {
    draw_graph(core, *g.report->graph, now);
  }
}

}  // namespace physarum::app
