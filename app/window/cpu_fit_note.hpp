// A preset opened smaller on the CPU (run/area_fit.hpp): the panel says what the window chose and
// offers the preset's full size, which reallocates at once.
#pragma once

#include <optional>

#include "run/area_fit.hpp"
#include "sim/backend.hpp"

namespace physarum::app {

class WindowCore;
class Toasts;

// A preset about to open from the panel on a backend of kind `backend`: on the CPU its run is
// fitted into the frame budget at its own density, as the preset the window starts with is (p.run
// becomes the fitted run); nothing otherwise, or when it already fits.
std::optional<run::AreaFit> fit_preset_for_cpu(Preset& p, BackendKind backend, int steps_per_frame);

// Draws the note and the button while `fit` is set and scaled; the button rebuilds the run at
// fit->full and clears `fit` (the note no longer applies). A refused rebuild is a toast.
void cpu_fit_note(WindowCore& core, std::optional<run::AreaFit>& fit, Toasts& toasts);

}  // namespace physarum::app
