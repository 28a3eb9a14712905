#include "video/video_pacer.hpp"

#include <algorithm>

namespace physarum::app {

namespace {

uint64_t ticks(VideoPacer::Clock::duration d, int fps) {
  const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
  return static_cast<uint64_t>(std::max<int64_t>(ns, 0)) * static_cast<uint64_t>(fps) / 1'000'000'000u;
}

}  // namespace

VideoPacer::VideoPacer(int fps, Pacing pacing, std::optional<Clock::time_point> started)
    : fps_(fps), pacing_(pacing), started_(started) {}

void VideoPacer::capture(Clock::time_point captured) {
  if (!first_) first_ = started_ && pacing_ == Pacing::RealTime ? std::min(*started_, captured) : captured;
  last_ = std::max(last_, captured);
}

uint64_t VideoPacer::repeats_for(Clock::time_point captured) const {
  const uint64_t due = ticks(captured - first_.value_or(captured), fps_) + 1 - forgotten_;
  if (due <= scheduled_) return 0;
  return pacing_ == Pacing::Smooth ? 1 : due - scheduled_;
}

void VideoPacer::schedule(uint64_t repeats, Clock::time_point captured) {
  scheduled_ += repeats;
  if (pacing_ != Pacing::Smooth) return;
  const uint64_t due = ticks(captured - first_.value_or(captured), fps_) + 1 - forgotten_;
  if (due > scheduled_) forgotten_ += due - scheduled_;
}

std::string_view pacing_name(Pacing p) {
  switch (p) {
    case Pacing::EveryFrame: return "every-frame";
    case Pacing::RealTime: return "real-time";
    case Pacing::Smooth: return "smooth";
  }
  return "smooth";
}

std::optional<Pacing> pacing_named(std::string_view name) {
  for (const Pacing p : kWindowPacings)
    if (pacing_name(p) == name) return p;
  return std::nullopt;
}

uint64_t VideoPacer::hold_last_until(Clock::time_point now) {
  if (pacing_ != Pacing::RealTime || !started_ || !first_ || now <= *first_) return 0;
  // Video frames 0 .. n-1 cover first .. now.
  const uint64_t due = ticks(now - *first_, fps_);
  const uint64_t tail = due > scheduled_ ? due - scheduled_ : 0;
  scheduled_ += tail;
  last_ = now;
  return tail;
}

double VideoPacer::wall_s() const {
  return first_ ? std::chrono::duration<double>(last_ - *first_).count() : 0.0;
}

}  // namespace physarum::app
