// The window's layout, the picture first (window/layout.hpp): the field is fitted into what the
// side panel and the strips under it leave, the mouse maps through that rectangle, no window covers
// the field at start at 1280x720 or 1920x1080, every panel line reads whole, the layout comes back
// from the XDG config folder, and Esc asks before losing a recording or unsaved changes.
#include <glad/gl.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "gl_support.hpp"
#include "imgui_headless.hpp"
#include "render/field_renderer.hpp"
#include "run/preset_library.hpp"
#include "test_support.hpp"
#include "window/atlas_window.hpp"
#include "window/brush.hpp"
#include "window/frame_windows.hpp"
#include "window/layout.hpp"
#include "window/panel_words.hpp"
#include "window/performance_window.hpp"
#include "window/quit_guard.hpp"
#include "window/timeline.hpp"
#include "window/twin_panel.hpp"
#include "window/ui_scale.hpp"
#include "window_support.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;
using test::ScopedEnv;

TEST(WindowLayout, TheViewFitsTheFieldIntoItsAreaAndTheMouseMapsThroughIt) {
  const Size field{960, 540};
  const render::Area area{420, 0, 860, 720};  // 1280x720 less a 420-wide panel
  render::View v;
  const float fit = std::min(860.0f / 960.0f, 720.0f / 540.0f);  // width-limited: letterboxed
  EXPECT_FLOAT_EQ(v.scale(area, field), fit);
  float fx = 0, fy = 0;
  v.to_field(420 + 430, 360, area, field, fx, fy);  // the area's centre: the field's
  EXPECT_NEAR(fx, 480.0f, 1e-3f);
  EXPECT_NEAR(fy, 270.0f, 1e-3f);
  v.to_field(420, 360 - 270 * fit, area, field, fx, fy);  // the area's left edge, the letterbox's top
  EXPECT_NEAR(fx, 0.0f, 1e-3f);
  EXPECT_NEAR(fy, 0.0f, 1e-3f);
  // The shaders place the field about the framebuffer's centre: that centre's cell, through the area.
  float cx = 0, cy = 0;
  v.framebuffer_center_cell(area, 1280, 720, field, cx, cy);
  EXPECT_NEAR(cx, 480.0f + (640.0f - 850.0f) / fit, 1e-3f);
  EXPECT_NEAR(cy, 270.0f, 1e-3f);

  // Zoom keeps the cell under the cursor where it is.
  float bx = 0, by = 0;
  v.to_field(700, 300, area, field, bx, by);
  v.zoom_at(4.0f, 700, 300, area, field);
  v.to_field(700, 300, area, field, fx, fy);
  EXPECT_NEAR(fx, bx, 1e-2f);
  EXPECT_NEAR(fy, by, 1e-2f);
  // Zoomed in, the field reaches under the panel, but the brush paints only what is seen.
  v.to_field(100, 360, area, field, fx, fy);
  ASSERT_TRUE(fx >= 0 && fx < 960 && fy >= 0 && fy < 540) << fx << ", " << fy;
  const BrushSettings brush;
  EXPECT_FALSE(brush_stroke_at(v, 100, 360, area, field, brush, false));
  const auto stroke = brush_stroke_at(v, 700, 300, area, field, brush, false);
  ASSERT_TRUE(stroke);
  EXPECT_NEAR(stroke->x, bx, 1e-2f);
  EXPECT_NEAR(stroke->y, by, 1e-2f);
}

TEST(WindowLayout, TheFieldIsDrawnIntoItsAreaAndTheRestIsBackground) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  WindowCore core(test::small_window_recipe());
  core.step();
  // The 64x48 field alone in a 100x75 framebuffer...
  std::vector<uint8_t> alone;
  {
    test::Fbo fbo(100, 75);
    core.render(100, 75);
    alone = render::read_framebuffer_rgba(100, 75);
  }
  // ...and in the right 100x75 of a 160x75 one, the left 60 columns left to a panel.
  test::Fbo fbo(160, 75);
  core.field_area = render::Area{60, 0, 100, 75};
  core.render(160, 75);
  const auto placed = render::read_framebuffer_rgba(160, 75);
  size_t differ = 0, background = 0;
  for (int y = 0; y < 75; ++y) {
    for (int x = 0; x < 160; ++x) {
      const uint8_t* p = &placed[(static_cast<size_t>(y) * 160 + static_cast<size_t>(x)) * 4];
      if (x < 60) {
        background += p[0] == 18 && p[1] == 18 && p[2] == 20;  // kBackground, 0.07 0.07 0.08
      } else {
        differ +=
            std::memcmp(p, &alone[(static_cast<size_t>(y) * 100 + static_cast<size_t>(x - 60)) * 4], 3) != 0;
      }
    }
  }
  EXPECT_EQ(background, 60u * 75u);
  // The same picture; a pixel centre that falls exactly on a cell's edge may round either way.
  EXPECT_LT(differ, 100u * 75u / 50u) << differ << " pixels differ";
}

bool overlap(const ImRect& r, const render::Area& a) {
  const float x0 = std::max(r.Min.x, a.x), x1 = std::min(r.Max.x, a.x + a.w);
  const float y0 = std::max(r.Min.y, a.y), y1 = std::min(r.Max.y, a.y + a.h);
  return x1 - x0 > 0.5f && y1 - y0 > 0.5f;
}

// The windows shown this frame, but the panel's own popups and children.
std::vector<ImGuiWindow*> shown_windows() {
  std::vector<ImGuiWindow*> out;
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
    if (w->Active && !w->Hidden && !(w->Flags & ImGuiWindowFlags_ChildWindow)) out.push_back(w);
  return out;
}

struct Session {
  WindowCore core{test::small_window_recipe()};
  PanelState panel;
  Toasts toasts;
  TimelineState timeline;
  ExploreStrip explore{1};
  AtlasWindow atlas;
  render::Area frames(int n) {
    render::Area a;
    for (int i = 0; i < n; ++i) {
      ImGui::NewFrame();
      a = draw_frame_windows(core, panel, toasts, timeline, explore, &atlas);
      ImGui::Render();
    }
    return a;
  }
};

// `width_share`: the least of the window's width the field keeps (the panel, dragged wider, takes
// more).
void expect_field_uncovered(const render::Area& area, float w, float h, float width_share = 0.6f) {
  EXPECT_GE(area.w, width_share * w) << "the field keeps most of the width";
  EXPECT_GE(area.h, 0.5f * h) << "and at least half the height";
  EXPECT_NEAR(area.x + area.w, w, 0.5f);
  for (ImGuiWindow* win : shown_windows()) {
    EXPECT_FALSE(overlap(win->Rect(), area))
        << win->Name << " at " << win->Pos.x << "," << win->Pos.y << " size " << win->Size.x << "x"
        << win->Size.y << " covers the field area " << area.x << "," << area.y << " " << area.w << "x"
        << area.h;
  }
}

// Opens every section and sub-section the panel draws (ImGui keeps a tree node's state under the
// hash of its label within the panel window).
void open_every_section() {
  ImGuiWindow* panel = ImGui::FindWindowByName(kPanelWindow);
  ASSERT_NE(panel, nullptr);
  for (const char* label :
       {"Simulation", "Record", "Model", "Display", "Presets", "Seed image & brush",
        "Twin (butterfly effect)", "Help", "Size, agents, detail, seed, spawn (restarts the run)",
        "Add / remove species (restarts the run)"}) {
    panel->StateStorage.SetInt(ImHashStr(label, 0, panel->ID), 1);
  }
}

// Every line stayed inside its window: ImGui moves CursorMaxPos past whatever an item needed, also
// where the window's edge clipped it.
void expect_lines_fit(const char* name) {
  const ImGuiWindow* w = ImGui::FindWindowByName(name);
  ASSERT_NE(w, nullptr) << name;
  EXPECT_LE(w->DC.CursorMaxPos.x, w->WorkRect.Max.x + 1.0f)
      << name << ": a line runs " << w->DC.CursorMaxPos.x - w->WorkRect.Max.x << " px past the edge";
}

TEST(WindowLayout, AtStartNoWindowCoversTheFieldAndEveryPanelLineFits) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  for (const ImVec2 size : {ImVec2(1280, 720), ImVec2(1920, 1080)}) {
    SCOPED_TRACE(std::to_string(static_cast<int>(size.x)) + "x" + std::to_string(static_cast<int>(size.y)));
    test::HeadlessImGui imgui(size.x, size.y);
    Session s;
    const render::Area area = s.frames(3);
    const ImGuiWindow* panel = ImGui::FindWindowByName(kPanelWindow);
    ASSERT_NE(panel, nullptr);
    EXPECT_EQ(panel->Pos.x, 0.0f);
    EXPECT_EQ(panel->Size.y, size.y) << "the panel is full height";
    EXPECT_NEAR(area.x, panel->Size.x, 0.5f) << "the field starts where the panel ends";
    expect_field_uncovered(area, size.x, size.y);
    EXPECT_EQ(ImGui::FindWindowByName("Performance"), nullptr) << "Performance opens on request";
    EXPECT_EQ(ImGui::FindWindowByName("Explore"), nullptr) << "Explore opens on request";

    open_every_section();
    s.panel.layout.performance_open = true;
    s.frames(3);
    expect_lines_fit(kPanelWindow);
    expect_lines_fit("Performance");
    EXPECT_TRUE(cut_off_choices().empty()) << cut_off_choices().front();

    s.panel.visible = false;  // Tab: the field takes the whole window
    const render::Area all = s.frames(2);
    EXPECT_EQ(all, render::Area::whole(static_cast<int>(size.x), static_cast<int>(size.y)));
  }
}

TEST(UiScale, TheMonitorsScaleIsItsDesktopSettingElseItsPixelDensityOver96Dpi) {
  EXPECT_EQ(monitor_ui_scale(2.0f, 3840, 597), 2.0f) << "the desktop's setting first";
  EXPECT_EQ(monitor_ui_scale(1.0f, 3840, 597), 1.5f) << "a 27-inch 4K screen: 163 dpi";
  EXPECT_EQ(monitor_ui_scale(1.0f, 3840, 344), 2.75f) << "a 15.6-inch 4K laptop: 283 dpi";
  EXPECT_EQ(monitor_ui_scale(1.0f, 1920, 344), 1.25f) << "a 15.6-inch full-HD laptop: 142 dpi";
  EXPECT_EQ(monitor_ui_scale(1.0f, 1920, 527), 1.0f) << "a 24-inch full-HD screen: 92 dpi";
  EXPECT_EQ(monitor_ui_scale(1.0f, 1920, 0), 1.0f) << "no size told";
  EXPECT_EQ(monitor_ui_scale(1.0f, 1280, 1600), 1.0f) << "20 dpi: a projector's or a wrong size";
  EXPECT_EQ(monitor_ui_scale(1.0f, 3840, 60), 1.0f) << "narrower than 100 mm: not believed";
  EXPECT_EQ(monitor_ui_scale(5.0f, 3840, 597), 3.0f) << "at most 3";
  EXPECT_EQ(chosen_ui_scale(1.25f, 2.0f, 1.5f), 1.25f) << "--ui-scale first";
  EXPECT_EQ(chosen_ui_scale(0, 2.0f, 1.5f), 2.0f) << "then the panel's choice";
  EXPECT_EQ(chosen_ui_scale(0, 0, 1.5f), 1.5f) << "then the monitor's";
}

TEST(UiScale, AtScale2TheTextAndThePanelAreTwiceAsLargeAndEveryLineStillFits) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  for (const float scale : {1.0f, 2.0f}) {
    SCOPED_TRACE(scale);
    test::HeadlessImGui imgui(1920, 1080);
    apply_ui_scale(scale);
    EXPECT_EQ(ui_scale(), scale);
    EXPECT_EQ(ImGui::GetIO().Fonts->Fonts[0]->FontSize, 13.0f * scale) << "the font is built at the scale";
    EXPECT_EQ(ImGui::GetStyle().FramePadding.x, 4.0f * scale) << "and the style's sizes follow";
    Session s;
    const render::Area area = s.frames(3);
    const ImGuiWindow* panel = ImGui::FindWindowByName(kPanelWindow);
    ASSERT_NE(panel, nullptr);
    EXPECT_NEAR(panel->Size.x, kPanelWidth * scale, 0.5f);
    EXPECT_NEAR(area.x, panel->Size.x, 0.5f) << "the field is fitted beside it";
    expect_field_uncovered(area, 1920, 1080, 1.0f - kPanelMaxFraction);
    open_every_section();
    s.panel.layout.performance_open = true;
    s.panel.recording.active = true;  // the Record buttons' row as while recording: "Stop recording"
    s.frames(3);
    expect_lines_fit(kPanelWindow);
    expect_lines_fit("Performance");
    EXPECT_TRUE(cut_off_choices().empty()) << cut_off_choices().front();
    // Another scale chosen in the panel: the panel's width follows.
    apply_ui_scale(scale * 1.25f);
    rescale_panel(1.25f);
    s.frames(2);
    EXPECT_NEAR(ImGui::FindWindowByName(kPanelWindow)->Size.x, kPanelWidth * scale * 1.25f, 1.0f);
  }
}

TEST(WindowLayout, TheTwinAndTheTimelineSitUnderTheFieldBesideThePanel) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  for (const ImVec2 size : {ImVec2(1280, 720), ImVec2(1920, 1080)}) {
    SCOPED_TRACE(std::to_string(static_cast<int>(size.x)));
    test::HeadlessImGui imgui(size.x, size.y);
    Session s;
    ASSERT_TRUE(s.core.start_twin("agent:0:theta:1e-4"));
    add_keyframe_here(s.core.preset, 0);
    s.core.twin.measure(s.core.backend());
    const render::Area area = s.frames(4);
    expect_field_uncovered(area, size.x, size.y);
    for (const char* name : {"Twin distance", "Timeline"}) {
      const ImGuiWindow* w = ImGui::FindWindowByName(name);
      ASSERT_TRUE(w && w->Active) << name;
      EXPECT_GE(w->Pos.x, area.x - 0.5f) << name << " is beside the panel";
      EXPECT_LE(w->Pos.x + w->Size.x, size.x + 0.5f) << name;
      EXPECT_GE(w->Pos.y, area.y + area.h - 0.5f) << name << " is under the field";
      EXPECT_LE(w->Pos.y + w->Size.y, size.y + 0.5f) << name;
      // All of it shows: its last line ends inside it.
      EXPECT_LE(w->DC.CursorMaxPos.y, w->Pos.y + w->Size.y - w->WindowPadding.y + 1.0f)
          << name << " is cut off";
    }
  }
}

TEST(WindowLayout, ThePanelIsWidenedByDraggingItsEdgeAndTheFieldMakesRoom) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  test::HeadlessImGui imgui(1280, 720);
  ImGuiIO& io = ImGui::GetIO();
  io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors;  // as the GLFW backend says: edges resize
  Session s;
  s.frames(2);
  const float edge = ImGui::FindWindowByName(kPanelWindow)->Size.x;
  const float drag[][2] = {{edge, 0},       {edge, 1},       {edge + 50, 1},
                           {edge + 100, 1}, {edge + 100, 1}, {edge + 100, 0}};
  render::Area area;
  for (const auto& [x, down] : drag) {
    io.MousePos = ImVec2(x, 360);
    io.MouseDown[0] = down != 0;
    area = s.frames(1);
  }
  area = s.frames(1);
  const float width = ImGui::FindWindowByName(kPanelWindow)->Size.x;
  EXPECT_NEAR(width, edge + 100, 2.0f);
  EXPECT_NEAR(area.x, width, 0.5f);
  expect_field_uncovered(area, 1280, 720, 1.0f - kPanelMaxFraction);
}

TEST(WindowLayout, TheIniFileIsInTheXdgConfigFolderAndNeverInTheCurrentOne) {
  const fs::path tmp = test::temp_dir();
  {
    ScopedEnv xdg("XDG_CONFIG_HOME", (tmp / "xdg").string());
    EXPECT_EQ(prepare_ini_file(), tmp / "xdg" / "physarum" / "imgui.ini");
    EXPECT_TRUE(fs::is_directory(tmp / "xdg" / "physarum")) << "the folder is made";
  }
  ScopedEnv home("HOME", (tmp / "home").string());
  for (const char* unset_or_empty : {static_cast<const char*>(nullptr), ""}) {
    ScopedEnv xdg("XDG_CONFIG_HOME", unset_or_empty);
    EXPECT_EQ(prepare_ini_file(), tmp / "home" / ".config" / "physarum" / "imgui.ini");
  }
  {
    ScopedEnv xdg("XDG_CONFIG_HOME", nullptr);
    ScopedEnv no_home("HOME", nullptr);
    EXPECT_EQ(prepare_ini_file(), fs::path()) << "nowhere to keep it: not kept, not the current folder";
  }
  test::write_file(tmp / "a-file", "");
  ScopedEnv xdg("XDG_CONFIG_HOME", (tmp / "a-file").string());
  EXPECT_EQ(prepare_ini_file(), fs::path()) << "a folder that cannot be made";
}

// One session of the panel: draws it with `section` toggled as asked (when given), at `width`.
void panel_session(const fs::path& ini, LayoutState& st, const char* open_section, const char* closed_section,
                   float* width) {
  const std::string file = ini.string();
  test::HeadlessImGui imgui(1280, 720, file.c_str());
  LayoutSettings settings(st);
  for (int frame = 0; frame < 2; ++frame) {
    ImGui::NewFrame();
    bool visible = true;
    if (begin_side_panel(st, visible)) {
      if (open_section && frame == 0) ImGui::SetNextItemOpen(true);
      ImGui::CollapsingHeader(open_section ? open_section : "Display");
      if (closed_section && frame == 0) ImGui::SetNextItemOpen(false);
      ImGui::CollapsingHeader(closed_section ? closed_section : "Record", ImGuiTreeNodeFlags_DefaultOpen);
      if (frame == 1) *width = ImGui::GetWindowWidth();
    }
    end_side_panel();
    ImGui::Render();
  }
  if (open_section) ImGui::SetWindowSize(kPanelWindow, ImVec2(500, 720));  // dragged at its edge
}

bool section_open(const char* label) {
  const ImGuiWindow* panel = ImGui::FindWindowByName(kPanelWindow);
  return panel && panel->StateStorage.GetInt(ImHashStr(label, 0, panel->ID), -1) == 1;
}

TEST(WindowLayout, SectionsThePanelWidthAndTheUiScaleComeBackButTheFloatingWindowsStartClosed) {
  const fs::path tmp = test::temp_dir();
  ScopedEnv xdg("XDG_CONFIG_HOME", (tmp / "config").string());
  const fs::path ini = prepare_ini_file();
  ASSERT_EQ(ini, tmp / "config" / "physarum" / "imgui.ini");
  const bool cwd_had_one = fs::exists("imgui.ini");
  float width = 0;
  {
    LayoutState st;
    st.performance_open = true;
    st.atlas_open = true;
    st.ui_scale = 1.5f;
    panel_session(ini, st, "Display", "Record", &width);
    EXPECT_NEAR(width, kPanelWidth, 0.5f);
  }
  const std::string text = test::read_file(ini);
  EXPECT_NE(text.find("[Physarum][Layout]"), std::string::npos) << text;
  EXPECT_NE(text.find("UiScale=1.5"), std::string::npos) << text;
  EXPECT_NE(text.find("WrittenAtScale=1"), std::string::npos) << text;
  EXPECT_EQ(text.find("Performance="), std::string::npos) << "open windows are not kept: " << text;

  // A file of an earlier version, which kept the windows open, reads them closed too.
  test::write_file(ini, text + "[Physarum][Layout]\nPerformance=1\nExplore=1\nAtlas=1\n");
  LayoutState next;
  const std::string file = ini.string();
  test::HeadlessImGui imgui(1280, 720, file.c_str());
  LayoutSettings settings(next);
  ImGui::NewFrame();  // reads the file
  EXPECT_FALSE(next.performance_open);
  EXPECT_FALSE(next.explore_open);
  EXPECT_FALSE(next.atlas_open);
  EXPECT_EQ(next.ui_scale, 1.5f) << "the panel's choice of UI scale";
  EXPECT_EQ(next.written_at_scale, 1.0f);
  bool visible = true;
  begin_side_panel(next, visible);
  EXPECT_NEAR(ImGui::GetWindowWidth(), 500.0f, 0.5f) << "the width the user dragged it to";
  EXPECT_TRUE(ImGui::CollapsingHeader("Display")) << "opened last time";
  EXPECT_FALSE(ImGui::CollapsingHeader("Record", ImGuiTreeNodeFlags_DefaultOpen)) << "closed last time";
  end_side_panel();
  ImGui::Render();
  EXPECT_TRUE(section_open("Display"));
  if (!cwd_had_one) {
    EXPECT_FALSE(fs::exists("imgui.ini")) << "nothing written into the current folder";
  }
}

// The part of `area` that `w` covers.
float cover(const ImGuiWindow* w, const render::Area& area) {
  const float x0 = std::max(w->Pos.x, area.x), x1 = std::min(w->Pos.x + w->Size.x, area.x + area.w);
  const float y0 = std::max(w->Pos.y, area.y), y1 = std::min(w->Pos.y + w->Size.y, area.y + area.h);
  return x1 > x0 && y1 > y0 ? (x1 - x0) * (y1 - y0) / (area.w * area.h) : 0.0f;
}

// The file an earlier version left after a session with Atlas, Explore and Performance open, the
// Atlas at its old default place (two thirds of the field at 1280x720).
constexpr const char* kIniWithWindowsOpen =
    "[Window][Atlas]\nPos=430,10\nSize=640,700\nCollapsed=0\n\n"
    "[Window][Performance]\nPos=900,400\nSize=300,200\nCollapsed=0\n\n"
    "[Window][Explore]\nPos=800,300\nSize=470,410\nCollapsed=0\n\n"
    "[Physarum][Layout]\nPerformance=1\nExplore=1\nAtlas=1\n\n";

TEST(WindowLayout, APlainStartShowsTheFieldUncoveredAndAWindowOpensOverAtMostHalfOfIt) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  for (const ImVec2 size : {ImVec2(1280, 720), ImVec2(1920, 1080)}) {
    SCOPED_TRACE(std::to_string(static_cast<int>(size.x)));
    const fs::path ini = test::temp_dir() / "imgui.ini";
    test::write_file(ini, kIniWithWindowsOpen);
    const std::string file = ini.string();
    test::HeadlessImGui imgui(size.x, size.y, file.c_str());
    Session s;
    LayoutSettings settings(s.panel.layout);
    const render::Area area = s.frames(3);
    for (const char* name : {"Atlas", "Explore", "Performance"}) {
      const ImGuiWindow* w = ImGui::FindWindowByName(name);
      EXPECT_TRUE(w == nullptr || !w->Active) << name << " is open at a plain start";
    }
    expect_field_uncovered(area, size.x, size.y);

    // Opened (the menu bar, A, E, P): the Atlas's old place covered most of the field and gives way
    // to the default; Performance's small one is kept.
    s.panel.layout.atlas_open = s.panel.layout.explore_open = s.panel.layout.performance_open = true;
    const render::Area field = s.frames(3);
    for (const char* name : {"Atlas", "Explore", "Performance"}) {
      const ImGuiWindow* w = ImGui::FindWindowByName(name);
      ASSERT_TRUE(w && w->Active) << name;
      EXPECT_LE(cover(w, field), kMaxFieldCover) << name << " " << w->Size.x << "x" << w->Size.y;
    }
    const ImGuiWindow* atlas = ImGui::FindWindowByName("Atlas");
    if (size.x == 1280) {  // the old place covered 72% of this field
      EXPECT_LE(atlas->Size.x, 0.4f * field.w + 0.5f) << "beside the panel, most of the field in view";
      EXPECT_GE(atlas->Pos.x, field.x) << "not over the panel";
    } else {  // and 28% of this one: kept
      EXPECT_EQ(atlas->Pos.x, 430.0f);
      EXPECT_EQ(atlas->Size.x, 640.0f);
    }
    const ImGuiWindow* perf = ImGui::FindWindowByName("Performance");
    EXPECT_EQ(perf->Pos.x, 900.0f) << "where the user left it";
    EXPECT_EQ(perf->Pos.y, 400.0f);
    expect_lines_fit("Atlas");

    // Closed and opened again in the session: where the user moved it.
    ImGui::SetWindowPos("Atlas", ImVec2(field.x + 100, atlas->Pos.y));
    s.panel.layout.atlas_open = false;
    s.frames(2);
    s.panel.layout.atlas_open = true;
    s.frames(2);
    EXPECT_EQ(ImGui::FindWindowByName("Atlas")->Pos.x, field.x + 100);
  }
}

TEST(QuitGuard, EscQuitsAtOnceWhenNothingIsAtStake) {
  QuitGuard g;
  EXPECT_TRUE(g.press(AtStake{}, QuitGuard::Clock::now()));
}

TEST(QuitGuard, WithARecordingUnsavedChangesOrADetailRenderTheFirstEscAsksAndASecondSoonAfterQuits) {
  const auto t0 = QuitGuard::Clock::now();
  for (const AtStake stake :
       {AtStake{true, false, false}, AtStake{false, true, false}, AtStake{true, true, false},
        AtStake{false, false, true}, AtStake{true, true, true}}) {
    QuitGuard g;
    EXPECT_FALSE(g.press(stake, t0)) << "the first Esc asks";
    EXPECT_TRUE(g.press(stake, t0 + std::chrono::seconds(2))) << "the second quits";
    QuitGuard late;
    EXPECT_FALSE(late.press(stake, t0));
    const auto after = t0 + QuitGuard::kAnswerWithin + std::chrono::seconds(1);
    EXPECT_FALSE(late.press(stake, after)) << "a question no longer shown is asked again";
    EXPECT_TRUE(late.press(stake, after + std::chrono::seconds(1)));
    const std::string q = QuitGuard::question(stake);
    EXPECT_EQ(q.find("recording") != std::string::npos, stake.recording) << q;
    EXPECT_EQ(q.find("unsaved") != std::string::npos, stake.unsaved) << q;
    EXPECT_EQ(q.find("detail render") != std::string::npos, stake.rendering) << q;
    EXPECT_NE(q.find("Esc again"), std::string::npos) << q;
  }
}

TEST(QuitGuard, UnsavedMeansDifferentFromWhatWasLoadedOrLastSaved) {
  const fs::path dir = test::temp_dir();
  Preset p;
  SavedPreset saved;
  saved.observe(p, "");
  EXPECT_FALSE(saved.unsaved(p));
  p.model.decay = 0.05f;  // an edit
  saved.observe(p, "");
  EXPECT_TRUE(saved.unsaved(p));
  const fs::path file = run::save_user_preset(p, dir, "mine");
  saved.observe(p, file.string());  // saved as a new file: nothing unsaved
  EXPECT_FALSE(saved.unsaved(p));
  p.model.decay = 0.07f;
  saved.observe(p, file.string());
  EXPECT_TRUE(saved.unsaved(p));
  p.model.decay = 0.05f;  // back to what was saved
  EXPECT_FALSE(saved.unsaved(p));
  p.model.decay = 0.08f;
  fs::last_write_time(file, fs::last_write_time(file) + std::chrono::seconds(2));  // saved again
  saved.observe(p, file.string());
  EXPECT_FALSE(saved.unsaved(p));
  Preset other = p;  // another preset loaded from another file
  other.model.sensor_distance = 20.0f;
  saved.observe(other, (dir / "other.toml").string());
  EXPECT_FALSE(saved.unsaved(other));
}

TEST(WindowWords, WhatDidNotRunIsLeftOutAndNothingReadsInf) {
  EXPECT_EQ(timing_text(0.0), "");
  EXPECT_EQ(timing_text(-1.0), "");
  EXPECT_EQ(timing_text(std::nan("")), "");
  EXPECT_EQ(timing_text(6.1284), "6.128 ms");
  EXPECT_EQ(rate_text(9.9e5), "990 thousand");
  EXPECT_EQ(rate_text(1.234e7), "12.3 million");
  EXPECT_EQ(rate_text(2.5e9), "2.5 billion");
  for (const double lambda : {0.0, -0.01, std::nan(""), -HUGE_VAL}) {
    const std::string w = growth_words(lambda);
    EXPECT_EQ(w.find("inf"), std::string::npos) << w;
    EXPECT_NE(w.find("not growing"), std::string::npos) << w;
  }
  EXPECT_NE(growth_words(std::log(2.0) / 50.0).find("doubles every 50 steps"), std::string::npos)
      << growth_words(std::log(2.0) / 50.0);
}

// The twin's growth words wrap at spaces, never inside a number: ImGui's own wrapping (TextWrapped)
// breaks after a '.', which put "lambda = 0." on one line and "0244 per step" on the next.
TEST(WindowWords, WrappedTextBreaksAtSpacesNeverInsideANumber) {
  const std::string text = growth_words(0.0244);
  ASSERT_EQ(text, "the difference doubles every 28.4 steps (lambda = 0.0244 per step)");
  // A width by hand: one unit a character.
  const auto chars = [](std::string_view s) { return static_cast<float>(s.size()); };
  EXPECT_EQ(
      wrap_at_spaces(text, 30, chars),
      (std::vector<std::string>{"the difference doubles every", "28.4 steps (lambda = 0.0244", "per step)"}));
  EXPECT_EQ(wrap_at_spaces("lambda = 0.0244 per step", 11, chars),
            (std::vector<std::string>{"lambda =", "0.0244 per", "step"}));
  // A word wider than the line has a line of its own, whole; the text's own newlines stay.
  EXPECT_EQ(wrap_at_spaces("d = 1.25e-05 at step 300", 3, chars),
            (std::vector<std::string>{"d =", "1.25e-05", "at", "step", "300"}));
  EXPECT_EQ(wrap_at_spaces("a b\nc  d", 100, chars), (std::vector<std::string>{"a b", "c  d"}));
  EXPECT_EQ(wrap_at_spaces("", 10, chars), (std::vector<std::string>{""}));

  // In ImGui's font, at a width where ImGui's wrap splits the number, each line is whole words.
  test::HeadlessImGui imgui;
  ImGui::NewFrame();
  const std::string line = "lambda = 0.0244 per step";
  const float width = ImGui::CalcTextSize("lambda = 0.02").x;
  const char* imgui_break =
      ImGui::GetFont()->CalcWordWrapPositionA(1.0f, line.c_str(), line.c_str() + line.size(), width);
  EXPECT_EQ(std::string(line.c_str(), imgui_break), "lambda = 0.") << "ImGui's wrap, which this replaces";
  const auto measure = [](std::string_view s) {
    return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x;
  };
  EXPECT_EQ(wrap_at_spaces(line, width, measure),
            (std::vector<std::string>{"lambda =", "0.0244 per", "step"}));
  ImGui::EndFrame();
}

}  // namespace
}  // namespace physarum::app
