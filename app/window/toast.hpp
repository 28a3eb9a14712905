// Short messages that appear at the bottom of the window and fade (a screenshot saved, a file that
// could not be read). Plain state here; draw_toasts() shows them with ImGui.
#pragma once

#include <chrono>
#include <deque>
#include <string>

namespace physarum::app {

class Toasts {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr double kShowSeconds = 4.0;  // fully visible
  static constexpr double kFadeSeconds = 1.0;  // then fading out

  void info(std::string text) { push(std::move(text), false); }
  void error(std::string text) { push(std::move(text), true); }

  struct Entry {
    std::string text;
    bool error = false;
    Clock::time_point born;
  };
  // Drops the expired ones; what is left, oldest first.
  const std::deque<Entry>& live(Clock::time_point now);
  // 1 while showing, falling to 0 while fading.
  static float alpha(const Entry& e, Clock::time_point now);
  const std::deque<Entry>& entries() const { return entries_; }

 private:
  void push(std::string text, bool error);
  std::deque<Entry> entries_;
};

// Draws the live toasts at the bottom centre of the main viewport (between NewFrame and Render).
void draw_toasts(Toasts& toasts);

}  // namespace physarum::app
