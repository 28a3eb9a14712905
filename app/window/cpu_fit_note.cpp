#include "window/cpu_fit_note.hpp"

#include <imgui.h>

#include <string>

#include "window/panel_words.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {

std::optional<run::AreaFit> fit_preset_for_cpu(Preset& p, BackendKind backend, int steps_per_frame) {
  if (backend != BackendKind::Cpu) return std::nullopt;
  const run::AreaFit fit = run::fit_to_budget(p.run, p.species.count(), steps_per_frame);
  if (!fit.scaled) return std::nullopt;
  p.run = fit.run;
  return fit;
}

void cpu_fit_note(WindowCore& core, std::optional<run::AreaFit>& fit, Toasts& toasts) {
  if (!fit || !fit->scaled) return;
  text_wrapped("Smaller to stay smooth on the CPU: " + run::describe_fit(*fit) + ".");
  const std::string label = "Full size (" + format_size(fit->full.size) + ", slower)";
  const bool clicked = ImGui::Button(label.c_str());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Restarts the run at the preset's %s with %s agents",
                      format_size(fit->full.size).c_str(), format_count(fit->full.agents).c_str());
  if (!clicked) return;
  if (const CommandResult r = core.rebuild(fit->full, core.preset.spawn); r) {
    fit.reset();
  } else {
    toasts.error(r.error());
  }
}

}  // namespace physarum::app
