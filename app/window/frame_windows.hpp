// The ImGui windows of one frame in their order and places (window/layout.hpp): the side panel with
// Performance when open, the strips under the field (the twin's distances, the timeline), Explore
// and Atlas when open. The window's frame and the layout tests both draw them through this.
#pragma once

#include "render/view.hpp"
#include "window/atlas_window.hpp"
#include "window/explore_strip.hpp"
#include "window/panel.hpp"
#include "window/timeline.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {

// Between ImGui::NewFrame() and ImGui::Render(). Sets core.field_area to what the windows leave
// of the window (all of it while Tab hides them) and returns it.
render::Area draw_frame_windows(WindowCore& core, PanelState& panel, Toasts& toasts, TimelineState& timeline,
                                ExploreStrip& explore, AtlasWindow* atlas = nullptr);

}  // namespace physarum::app
