// A preset opened smaller on the CPU (run/area_fit.hpp): the panel says what the window chose and
// offers the preset's full size, which reallocates at once.
#pragma once

#include <optional>

#include "run/area_fit.hpp"

namespace physarum::app {

class WindowCore;
class Toasts;

// Draws the note and the button while `fit` is set and scaled; the button rebuilds the run at
// fit->full and clears `fit` (the note no longer applies). A refused rebuild is a toast.
void cpu_fit_note(WindowCore& core, std::optional<run::AreaFit>& fit, Toasts& toasts);

}  // namespace physarum::app
