#include "window/history.hpp"

#include "sim/keyframes.hpp"

namespace physarum::app {

bool differ_as_edits(const Preset& a, const Preset& b) {
  if (a.keyframes != b.keyframes) return true;
  if (a.keyframes.empty()) return !(a == b);
  try {
    return !(preset_at(a, 0) == preset_at(b, 0));
  } catch (const Error&) {
    return !(a == b);
  }
}

void ParamHistory::reset(const Preset& p) {
  undo_.clear();
  redo_.clear();
  settled_ = p;
  started_ = true;
}

bool ParamHistory::observe(const Preset& now, bool editing) {
  if (!started_) {
    reset(now);
    return false;
  }
  if (editing || !differ_as_edits(settled_, now)) return false;
  undo_.push_back(settled_);
  if (undo_.size() > kDepth) undo_.pop_front();
  redo_.clear();
  settled_ = now;
  return true;
}

std::optional<Preset> ParamHistory::undo(const Preset& now) {
  if (undo_.empty()) return std::nullopt;
  redo_.push_back(now);
  settled_ = undo_.back();
  undo_.pop_back();
  return settled_;
}

std::optional<Preset> ParamHistory::redo(const Preset& now) {
  if (redo_.empty()) return std::nullopt;
  undo_.push_back(now);
  settled_ = redo_.back();
  redo_.pop_back();
  return settled_;
}

}  // namespace physarum::app
