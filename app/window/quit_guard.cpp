#include "window/quit_guard.hpp"

#include <system_error>

#include "window/history.hpp"

namespace physarum::app {

bool QuitGuard::press(const AtStake& stake, Clock::time_point now) {
  if (!stake.any()) return true;
  if (asked_ && now - *asked_ <= kAnswerWithin) return true;
  asked_ = now;
  return false;
}

std::string QuitGuard::question(const AtStake& stake) {
  std::string what;
  if (stake.recording) what = "A recording is running (quitting stops and saves it)";
  if (stake.rendering) {
    what += what.empty() ? "A detail render is running" : ", a detail render is running";
    what += " (quitting stops it)";
  }
  if (stake.unsaved) {
    what += what.empty() ? "The preset has unsaved changes" : ", and the preset has unsaved changes";
    what += " (Presets: Save current as preset)";
  }
  return what + ". Press Esc again to quit, or carry on.";
}

void SavedPreset::observe(const Preset& live, const std::string& file) {
  std::error_code ec;
  const auto written =
      file.empty() ? std::filesystem::file_time_type{} : std::filesystem::last_write_time(file, ec);
  if (started_ && file == file_ && (ec || written == written_)) return;
  started_ = true;
  saved_ = live;
  file_ = file;
  written_ = ec ? std::filesystem::file_time_type{} : written;
}

bool SavedPreset::unsaved(const Preset& live) const {
  return started_ && differ_as_edits(saved_, live);
}

}  // namespace physarum::app
