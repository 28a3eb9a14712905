// The window's network graph overlay lands on the field: a node's screen point, taken back through
// the view's own inverse (render::View::to_field, what the mouse uses), is the node's cell centre;
// the panel's section measures only when asked and draws the graph only while it is shown.
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>

#include "analysis/network_graph.hpp"
#include "analysis/report_maps.hpp"
#include "gl_support.hpp"
#include "imgui_headless.hpp"
#include "window/graph_overlay.hpp"
#include "window/window_core.hpp"

namespace physarum::app {
namespace {

TEST(GraphOverlay, FieldPointsLandWhereTheViewSaysTheyAre) {
  const Size field{960, 540};
  const render::Area area{300, 40, 1600, 1000};  // the panel on the left, a strip above
  render::View view;
  view.zoom = 2.5f;
  view.center_x = 0.3f;
  view.center_y = 0.6f;
  const float scale = 2.0f;  // a framebuffer twice ImGui's units (HiDPI)
  const ScreenPoint origin{10, 20};
  for (const auto& [x, y] : {std::pair{0.0, 0.0}, std::pair{287.0, 324.0}, std::pair{959.0, 539.0}}) {
    const ScreenPoint p = field_point_on_screen(view, area, field, scale, scale, origin, x, y);
    float fx = 0, fy = 0;
    view.to_field((p.x - origin.x) * scale, (p.y - origin.y) * scale, area, field, fx, fy);
    EXPECT_NEAR(fx, x + 0.5, 1e-3);
    EXPECT_NEAR(fy, y + 0.5, 1e-3);
  }
}

// One ImGui frame drawing the section (open when `open`); the background list's vertices.
struct Frame {
  int vertices = 0;
  ImVec2 lo{1e9f, 1e9f}, hi{-1e9f, -1e9f};  // their bounding box
};
Frame section_frame(WindowCore& core, GraphOverlay& g, bool open) {
  ImGui::NewFrame();
  ImGui::SetNextItemOpen(open);
  graph_overlay_section(core, g);
  Frame f;
  const ImDrawList* dl = ImGui::GetBackgroundDrawList();
  f.vertices = dl->VtxBuffer.Size;
  for (const ImDrawVert& v : dl->VtxBuffer) {
    f.lo = ImVec2(std::min(f.lo.x, v.pos.x), std::min(f.lo.y, v.pos.y));
    f.hi = ImVec2(std::max(f.hi.x, v.pos.x), std::max(f.hi.y, v.pos.y));
  }
  ImGui::Render();
  return f;
}

TEST(GraphOverlay, TheSectionMeasuresWhenAskedAndDrawsTheGraphOnlyWhileShown) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  run::Recipe o;
  o.preset = "towns";
  o.backend = "cpu";
  o.threads = 2;
  o.size = "240x135";
  o.agents = "4K";  // about the preset's density
  WindowCore core(o);
  core.backend().step(400);
  // The field fills the right part of an 800x600 window whose framebuffer is twice its units.
  test::HeadlessImGui imgui(800, 600);
  ImGui::GetIO().DisplayFramebufferScale = ImVec2(2, 2);
  core.field_area = render::Area{600, 0, 1000, 1200};

  GraphOverlay g;
  Frame f = section_frame(core, g, true);
  EXPECT_FALSE(g.report) << "nothing is measured before it is asked for";
  EXPECT_EQ(f.vertices, 0);

  g.show = true;
  f = section_frame(core, g, true);
  ASSERT_TRUE(g.report && g.report->graph);
  EXPECT_EQ(g.step, 400u);
  // Measured as `render --report` measures the same field, with its 24 towns as the first nodes.
  std::vector<float> field, food;
  std::vector<uint8_t> walls;
  core.backend().read_field(field);
  core.backend().read_food(food);
  core.backend().read_walls(walls);
  const analysis::NetworkReport direct =
      analysis::analyse_run_field(core.field_size(), field, food, walls, analysis::NetworkOptions{});
  EXPECT_EQ(g.report->towns, 24);
  EXPECT_EQ(g.report->graph->nodes.size(), direct.graph->nodes.size());
  EXPECT_EQ(g.report->graph->edges.size(), direct.graph->edges.size());
  // A mark for every node (a filled circle has at least 3 vertices) and a quad for every line, all
  // inside the field's area in ImGui's units (x 300..800, y 0..600; a node's mark is 5 units wide).
  const auto& graph = *g.report->graph;
  const auto lines =
      std::count_if(graph.edges.begin(), graph.edges.end(), [](const auto& e) { return e.a != e.b; });
  EXPECT_GE(f.vertices, static_cast<int>(3 * graph.nodes.size() + 4 * static_cast<size_t>(lines)));
  EXPECT_GE(f.lo.x, 300.0f - 6.0f);
  EXPECT_LE(f.hi.x, 800.0f + 6.0f);
  EXPECT_GE(f.lo.y, 0.0f - 6.0f);
  EXPECT_LE(f.hi.y, 600.0f + 6.0f);
  // The field is 240 cells wide in 500 units (letterboxed to 281 units high): the marks spread over it.
  EXPECT_GT(f.hi.x - f.lo.x, 250.0f);

  // Drawn while shown, with the section closed too; hidden: nothing drawn, the measuring kept.
  EXPECT_GT(section_frame(core, g, false).vertices, 0);
  // A reset starts another run: the old graph is not its field's, so it is measured again.
  ASSERT_TRUE(core.reset());
  core.backend().step(10);
  (void)section_frame(core, g, false);
  ASSERT_TRUE(g.report);
  EXPECT_EQ(g.step, 10u);
  g.show = false;
  EXPECT_EQ(section_frame(core, g, true).vertices, 0);
  EXPECT_TRUE(g.report);
}

}  // namespace
}  // namespace physarum::app
