// An image dropped on the window seeds the field or becomes the food or walls map. A modifier held
// at the drop chooses at once (Shift: food, Ctrl: walls); otherwise a small dialog asks. Loading goes
// through the same functions as --image, --food and --walls.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/params.hpp"
#include "window/toast.hpp"
#include "window/window_core.hpp"

namespace physarum::app {

enum class DropKind { Seed, Food, Walls };

// A file dropped on the window, with the modifier keys (GLFW_MOD_*) held at the drop.
struct DroppedFile {
  std::string path;
  int mods = 0;
};

// Shift: food, Ctrl: walls (Ctrl wins when both are held); none: ask.
std::optional<DropKind> drop_kind_for_mods(int mods);

// Loads `path` as `kind` into the running simulation. The food and walls maps keep the rest of the
// environment and are remembered in core.preset.environment (a reset or a saved preset keeps them).
// False, with the reason in `message` and nothing changed, for a bad image or a refused map.
bool load_dropped_image(WindowCore& core, const std::string& path, DropKind kind, ImageFit fit,
                        std::string* message);

// The files that wait for the dialog's answer, one at a time, oldest first.
class DropDialog {
 public:
  // Files with a modifier load at once; the others wait for the dialog.
  void take(WindowCore& core, std::vector<DroppedFile>& dropped, ImageFit fit, Toasts& toasts);
  // Between ImGui::NewFrame and Render: the modal for the first waiting file; a choice loads it.
  void draw(WindowCore& core, ImageFit fit, Toasts& toasts);
  // The dialog's answer for the first waiting file: load it as `kind`, or (nullopt) drop it.
  void answer(WindowCore& core, std::optional<DropKind> kind, ImageFit fit, Toasts& toasts);
  // Esc while the dialog shows: the first file is not used (and Esc does not quit the window).
  void cancel_first();
  const std::vector<std::string>& waiting() const { return waiting_; }

 private:
  std::vector<std::string> waiting_;
};

}  // namespace physarum::app
