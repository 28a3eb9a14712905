// Esc quits, but not at once when something would be lost: with a recording running or changes
// to the preset that were not saved or a detail render running, the first Esc asks and a second one, soon
// after, quits.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "sim/params.hpp"

namespace physarum::app {

// What an Esc would lose.
struct AtStake {
  bool recording = false;
  bool unsaved = false;
  bool rendering = false;  // a detail render in the background (window/detail_render.hpp)
  bool any() const { return recording || unsaved || rendering; }
};

class QuitGuard {
 public:
  using Clock = std::chrono::steady_clock;
  // How long a question stands: as long as its toast shows (toast.hpp), so the second Esc answers
  // what the user can still read.
  static constexpr std::chrono::seconds kAnswerWithin{5};

  // An Esc at `now`: true to quit (nothing at stake, or the question was asked within
  // kAnswerWithin); false when the question is to be asked now (see question()).
  bool press(const AtStake& stake, Clock::time_point now);
  // What the first Esc says.
  static std::string question(const AtStake& stake);

 private:
  std::optional<Clock::time_point> asked_;
};

// The preset as last loaded or saved, to tell unsaved changes: it follows the window's preset
// whenever that comes from another file or its file was written again (a save).
class SavedPreset {
 public:
  // Once a frame (and at the start) with the live preset and where it came from (empty: none).
  void observe(const Preset& live, const std::string& file);
  // True when `live` differs from the loaded or saved preset as an edit would (history.hpp).
  bool unsaved(const Preset& live) const;

 private:
  bool started_ = false;
  Preset saved_;
  std::string file_;
  std::filesystem::file_time_type written_{};
};

}  // namespace physarum::app
