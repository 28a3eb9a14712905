#include "video/progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace physarum::app {

std::string format_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  const auto total = static_cast<uint64_t>(seconds + 0.5);
  const uint64_t h = total / 3600, m = (total / 60) % 60, s = total % 60;
  char buf[48];
  if (h > 0) {
    std::snprintf(buf, sizeof buf, "%llu:%02llu:%02llu", static_cast<unsigned long long>(h),
                  static_cast<unsigned long long>(m), static_cast<unsigned long long>(s));
  } else {
    std::snprintf(buf, sizeof buf, "%llu:%02llu", static_cast<unsigned long long>(m),
                  static_cast<unsigned long long>(s));
  }
  return buf;
}

std::string format_progress(const ProgressState& s, int columns) {
  const double fps = s.elapsed_s > 0 ? static_cast<double>(s.frames) / s.elapsed_s : 0.0;
  const double steps_per_s = s.elapsed_s > 0 ? static_cast<double>(s.step) / s.elapsed_s : 0.0;
  char text[200];
  char frames[64];
  if (s.step < s.record_from) {
    std::snprintf(frames, sizeof frames, "growing, recording from step %llu",
                  static_cast<unsigned long long>(s.record_from));
  } else {
    std::snprintf(frames, sizeof frames, "frames %llu", static_cast<unsigned long long>(s.frames));
  }
  std::string eta = "--:--";
  if (s.total_steps > 0 && steps_per_s > 0 && s.step <= s.total_steps) {
    eta = format_duration(static_cast<double>(s.total_steps - s.step) / steps_per_s);
  }
  if (s.total_steps > 0) {
    std::snprintf(text, sizeof text, " %3d%%  step %llu/%llu  %s  %.1f fps  ETA %s",
                  static_cast<int>(100.0 * static_cast<double>(std::min(s.step, s.total_steps)) /
                                   static_cast<double>(s.total_steps)),
                  static_cast<unsigned long long>(s.step), static_cast<unsigned long long>(s.total_steps),
                  frames, fps, eta.c_str());
  } else {
    std::snprintf(text, sizeof text, " step %llu  %s  %.1f fps", static_cast<unsigned long long>(s.step),
                  frames, fps);
  }
  std::string line = text;
  // The bar takes whatever width the numbers leave, between 10 and 40 cells.
  const int bar_cells = std::min(40, columns - 1 - static_cast<int>(line.size()) - 2);
  if (s.total_steps > 0 && bar_cells >= 10) {
    const double frac =
        std::clamp(static_cast<double>(s.step) / static_cast<double>(s.total_steps), 0.0, 1.0);
    const int filled = static_cast<int>(frac * bar_cells);
    // Built by appending: g++ 12 warns falsely (-Wrestrict) about "[" + std::string(...) at -O3.
    std::string bar(1, '[');
    bar.append(static_cast<size_t>(filled), '#').append(static_cast<size_t>(bar_cells - filled), '.');
    bar.append(1, ']').append(line);
    line = std::move(bar);
  }
  if (columns > 1 && static_cast<int>(line.size()) > columns - 1)
    line.resize(static_cast<size_t>(columns - 1));
  return line;
}

ProgressBar::ProgressBar(uint64_t total_steps, bool enabled, std::FILE* out, bool force)
    : total_(total_steps),
      active_(enabled && out != nullptr && (force || ::isatty(::fileno(out)) == 1)),
      out_(out),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

ProgressBar::~ProgressBar() {
  finish();
}

int ProgressBar::columns() const {
  struct winsize ws {};
  if (::ioctl(::fileno(out_), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

void ProgressBar::draw(bool final_draw) {
  const auto now = std::chrono::steady_clock::now();
  ProgressState s;
  s.step = step_;
  s.total_steps = total_;
  s.frames = frames_;
  s.record_from = record_from_;
  s.elapsed_s = std::chrono::duration<double>(now - start_).count();
  // \r returns to the line start; \033[K clears what a longer previous line left behind.
  std::fprintf(out_, "\r%s\033[K%s", format_progress(s, columns()).c_str(), final_draw ? "\n" : "");
  std::fflush(out_);
  last_draw_ = now;
}

void ProgressBar::update(uint64_t step, uint64_t frames) {
  step_ = step;
  frames_ = frames;
  if (!active_ || finished_) return;
  if (std::chrono::steady_clock::now() - last_draw_ < std::chrono::milliseconds(100)) return;
  draw(false);
}

void ProgressBar::finish() {
  if (!active_ || finished_) return;
  finished_ = true;
  draw(true);
}

}  // namespace physarum::app
