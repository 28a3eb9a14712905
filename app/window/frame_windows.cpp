#include "window/frame_windows.hpp"

#include "window/layout.hpp"

namespace physarum::app {
namespace {

// The twin's plots read at this width; beside it the timeline gets the rest of the band.
constexpr float kTwinStripWidth = 380.0f;

}  // namespace

render::Area draw_frame_windows(WindowCore& core, PanelState& panel, Toasts& toasts, TimelineState& timeline,
                                ExploreStrip& explore, AtlasWindow* atlas) {
  draw_panel(core, panel, toasts);
  run_panel_guarded(toasts, [&] {
    if (!panel.visible) return;
    dock_under_field("Twin distance", kTwinStripWidth);
    if (draw_timeline(core, timeline, toasts)) dock_under_field("Timeline");
    if (panel.layout.explore_open) explore.draw(core, toasts);
    if (atlas && panel.layout.atlas_open) atlas->draw(core, toasts, panel.layout.atlas_open);
  });
  core.field_area = field_area();
  return core.field_area;
}

}  // namespace physarum::app
