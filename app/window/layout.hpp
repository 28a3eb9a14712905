// The window's layout, the picture first: the panel is a full-height side panel on the left
// (resizable by its right edge), the strips that belong to the field (the timeline, the twin's
// distances) sit under it, and the field is fitted into what is left. Performance, Explore and Atlas
// open on request and float over the field, each covering at most half of it when it opens. The
// panel's width, which panel sections are open, the UI scale chosen in the panel and the floating
// windows' places are kept between sessions in ImGui's ini file in the user's config folder; the
// floating windows themselves start closed (a plain start shows the panel and the field).
#pragma once

#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>  // ImRect

#include "render/view.hpp"

namespace physarum::app {

// What the layout keeps between frames and sessions.
struct LayoutState {
  // Open this session: never restored, a start shows the field (an ini file of an earlier version
  // that says they were open is read as closed).
  bool performance_open = false;
  bool explore_open = false;
  bool atlas_open = false;
  float ui_scale = 0;          // the panel's choice, kept; 0: the monitor's (window/ui_scale.hpp)
  float written_at_scale = 0;  // the scale in effect when the file was written (0: not said)
  // Panel sections (ImGui tree nodes) read from the ini file, applied when the panel first shows:
  // (ImGui id, open).
  std::vector<std::pair<uint32_t, int>> restored_sections;
};

// The panel's width at a UI scale of 1: the sliders, their labels and the longest lines read
// whole at 1280x720, and the field keeps two thirds of the window.
inline constexpr float kPanelWidth = 420.0f;
inline constexpr float kPanelMinWidth = 300.0f;
inline constexpr float kPanelMaxFraction = 0.6f;  // of the window's width

// The panel window's name: the ini file keeps its width under it.
inline constexpr const char* kPanelWindow = "physarum";

// Places the panel at the window's left edge, full height, at its remembered width, and Begin()s
// it with a menu bar that opens Performance, Explore and Atlas and hides everything (`visible`). Always
// call end_side_panel(), whatever this returns.
bool begin_side_panel(LayoutState& layout, bool& visible);
// Ends the panel and takes its width off the space the other windows and the field use (ImGui's
// work area of the main viewport).
void end_side_panel();

// After a window that belongs under the field (drawn this frame): moves it into a band along the
// bottom of the work area, as tall as its contents, and takes the band's height off the work area.
// With a `width` (at a UI scale of 1) it sits at the band's right end, else it takes the rest
// of the band's width. Nothing when it did not show.
void dock_under_field(const char* window_name, float width = 0);

// The most of the field's area a floating window covers when it opens.
inline constexpr float kMaxFieldCover = 0.5f;

// Before Begin() of a window that floats over the field (Performance, Atlas): when it opens (it
// did not show last frame) it goes to `pos` (placed by `pivot`), at `size` unless that is 0 (a window
// that sizes itself), where it has no remembered place, or the remembered one (this session's or
// the ini file's) covers more than kMaxFieldCover of the field or lies partly off the window.
// Otherwise it opens where the user left it.
void place_over_field(const char* window_name, ImVec2 pos, ImVec2 pivot, ImVec2 size = ImVec2(0, 0));

// The part of the field's area (ImGui's work area) that `r` covers, 0 to 1.
float field_cover(const ImRect& r);

// After the UI scale changed by `ratio`: the panel's width follows (this session's window or the
// ini file's width, before the panel first shows).
void rescale_panel(float ratio);

// Where the field goes this frame, in framebuffer pixels: what the panel and the strips left of the
// window (all of it when they are hidden). Call after the windows that take space were drawn.
render::Area field_area();

// ImGui's ini file: $XDG_CONFIG_HOME/physarum/imgui.ini, else ~/.config/physarum/imgui.ini, with its
// folder created. Empty (nothing is saved) when neither variable is set or the folder cannot be
// made: never a file in the current folder.
std::filesystem::path prepare_ini_file();

// Keeps LayoutState in ImGui's ini file (a [Physarum][Layout] section) for as long as it lives.
// Destroyed before the ImGui context, it writes the file itself and stops ImGui from writing
// it again without the section.
class LayoutSettings {
 public:
  explicit LayoutSettings(LayoutState& state);
  ~LayoutSettings();
  LayoutSettings(const LayoutSettings&) = delete;
  LayoutSettings& operator=(const LayoutSettings&) = delete;

 private:
  LayoutState& state_;
};

}  // namespace physarum::app
