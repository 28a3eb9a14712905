// Undo and redo of parameter changes: a small history of whole-preset snapshots. The window shows
// it the preset after every frame; a change that settled (no slider still being dragged) becomes
// one step, whatever made it: a panel widget, an explore draw, a preset load, a keyframe edit.
// Changes the keyframes make while a run plays are not edits: snapshots are compared with the
// keyframed keys at their step-0 values.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>

#include "sim/params.hpp"

namespace physarum::app {

class ParamHistory {
 public:
  static constexpr size_t kDepth = 100;

  // Starts the history at `p` (the window's first preset): nothing to undo.
  void reset(const Preset& p);
  // Called once a frame with the live preset. `editing`: a widget is held (a drag in progress),
  // so the change is not complete yet. Returns true when a step was recorded.
  bool observe(const Preset& now, bool editing);
  // The preset to go back (forward) to, given the live one; nullopt when there is none. The caller
  // applies it; the next observe() sees it as the settled state, not as a new edit.
  std::optional<Preset> undo(const Preset& now);
  std::optional<Preset> redo(const Preset& now);
  bool can_undo() const { return !undo_.empty(); }
  bool can_redo() const { return !redo_.empty(); }

 private:
  std::deque<Preset> undo_, redo_;
  Preset settled_;
  bool started_ = false;
};

// True when a and b differ as edits (keyframed keys compared at step 0, keyframes themselves too).
bool differ_as_edits(const Preset& a, const Preset& b);

}  // namespace physarum::app
