// The panel's "Twin (butterfly effect)" section: choose a perturbation, start and stop a perturbed
// twin (window/twin_view.hpp), choose what the window shows (A, A - B or |A - B|), and watch the
// distance grow: log10 of the relative L2 distance and the fraction of agents in other cells,
// plotted live, with the fitted Lyapunov exponent.
#pragma once

#include <string>
#include <vector>

#include "window/toast.hpp"
#include "window/twin_view.hpp"
#include "window/window_core.hpp"

namespace physarum::app {

struct TwinPanelState {
  char spec[128] = "agent:0:theta:1e-4";  // kDefaultTwinPerturbation; `--perturb` syntax
};

// Between ImGui::NewFrame() and ImGui::Render(), inside the panel's window: the collapsing header
// "Twin (butterfly effect)" with the controls (open while a twin runs), and while one runs the
// "Twin distance" window with the live plots, docked under the field by the window (layout.hpp).
void twin_panel(WindowCore& core, TwinPanelState& st, Toasts& toasts);

// The distances as the plot shows them: log10 of each record's field distance, a record of 0
// (the twins agree to the bit) at `floor`. Plain, for the tests.
std::vector<float> log10_distances(const std::vector<sensitivity::Record>& records, float floor);

// The fitted growth rate in words: how many steps a difference takes to double, or that it does not grow.
std::string growth_words(double lambda);

}  // namespace physarum::app
