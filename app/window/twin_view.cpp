#include "window/twin_view.hpp"

#include <algorithm>

#include "sensitivity/distance.hpp"
#include "sim/keyframes.hpp"
#include "sim/params.hpp"
#include "sim/rule.hpp"

namespace physarum::app {
namespace {

// Whether a species' step draws random numbers (rule.hpp), which hash the step number. (A wall
// draws too, for an agent whose move it blocks; the note speaks of the rule's draws.)
bool reads_step_number(const Preset& p) {
  const auto uses = [](const ModelParams& m) {
    return rule::plane_step_draws(turn_rule_code(m.turn_rule), m.jitter);
  };
  if (p.species.list.empty()) return uses(p.model);
  return std::any_of(p.species.list.begin(), p.species.list.end(),
                     [&](const Species& s) { return uses(s.model); });
}

}  // namespace

TwinRun::TwinRun() = default;
TwinRun::~TwinRun() = default;

void TwinRun::start(Backend& a, const run::Recipe& recipe, const Preset& live, const std::string& spec) {
  const sensitivity::Perturbation p = sensitivity::parse_perturbation(spec);
  // Everything is built aside and swapped in at the end: a failure leaves the twin as it was.
  Preset b_preset = live;
  b_preset.keyframes.clear();
  const double delta = sensitivity::perturb_preset(p, b_preset);
  auto next = std::make_unique<run::Run>(recipe);
  Backend& b = next->backend();
  if (!(b.size() == a.size()) || b.agent_count() != a.agent_count() ||
      b.species_count() != a.species_count()) {
    throw Error("the twin could not be made like the simulation (" + format_size(b.size()) + ", " +
                std::to_string(b.agent_count()) + " agents); apply or reset the simulation first");
  }
  b.set_environment(a.environment());
  set_live_parameters(b, b_preset);
  std::vector<float> field;
  a.read_field(field);
  b.set_field(field, kAllChannels);
  b.set_agents(a.read_agents());
  sensitivity::perturb_state(p, b);

  b_ = std::move(next);
  a_ = &a;
  perturbation_ = p;
  delta_ = delta;
  start_step_ = a.steps_done();
  measured_at_ = start_step_;
  b_offset_ = start_step_;
  applied_ = b_preset;
  frames_ = 0;
  records_.clear();
  fit_ = {};
  stopped_why_.clear();
  measure(a);
}

void TwinRun::stop(const std::string& why) {
  if (!b_) return;
  b_.reset();
  a_ = nullptr;
  stopped_why_ = why;
}

void TwinRun::sync_parameters(const Preset& p) {
  Preset want = p;
  want.keyframes.clear();
  (void)sensitivity::perturb_preset(perturbation_, want);
  if (want.model == applied_.model && want.species == applied_.species) return;
  set_live_parameters(b_->backend(), want);
  applied_ = want;
}

void TwinRun::follow(Backend& a, const Preset& before, uint64_t from, int n) {
  if (!b_) return;
  if (&a != a_ || !(a.size() == b_->backend().size()) || a.agent_count() != b_->backend().agent_count()) {
    stop("the simulation was rebuilt, so the twin stopped");
    return;
  }
  if (n > 0) {
    if (before.keyframes.empty()) {
      sync_parameters(before);
      b_->backend().step(n);
    } else {
      // A's keyframed values change at A's step numbers, step by step (sim/keyframes.hpp).
      KeyframeTimeline timeline(before);
      Preset at = before;
      at.keyframes.clear();  // the timeline holds them; sync_parameters copies `at` every step
      for (int i = 0; i < n; ++i) {
        timeline.apply(at, from + static_cast<uint64_t>(i));
        sync_parameters(at);
        b_->backend().step(1);
      }
    }
  }
  ++frames_;
  if (frames_ % std::clamp(every, 1, 600) == 0 && a.steps_done() != measured_at_) measure(a);
}

void TwinRun::brush(const BrushStroke& stroke) {
  if (b_) b_->backend().brush(stroke);
}

void TwinRun::measure(Backend& a) {
  if (!b_) return;
  a.read_field(field_a_);
  b_->backend().read_field(field_b_);
  const sensitivity::Record r{
      static_cast<int64_t>(a.steps_done() - start_step_), sensitivity::relative_l2(field_a_, field_b_),
      sensitivity::cell_mismatch_fraction(a.read_agents(), b_->backend().read_agents())};
  if (records_.size() >= kMaxRecords) {
    // Every other record goes; the first (the start) stays.
    std::vector<sensitivity::Record> kept;
    for (size_t i = 0; i < records_.size(); i += 2) kept.push_back(records_[i]);
    records_ = std::move(kept);
  }
  records_.push_back(r);
  measured_at_ = a.steps_done();
  std::vector<int64_t> steps;
  std::vector<double> distance;
  for (const auto& rec : records_) {
    steps.push_back(rec.step);
    distance.push_back(rec.field_distance);
  }
  fit_ = sensitivity::fit_lyapunov(steps, distance);
  const Size s = a.size();
  difference_ = render::difference_plane(
      field_a_, field_b_, static_cast<size_t>(s.width) * static_cast<size_t>(s.height), max_abs_);
  difference_dirty_ = true;
}

void TwinRun::draw(const render::View& view, const render::Area& area, int fb_w, int fb_h) {
  if (!b_) return;
  if (!renderer_) renderer_ = std::make_unique<render::DifferenceRenderer>();
  if (difference_dirty_ || !(renderer_->size() == b_->backend().size())) {
    renderer_->upload(difference_.data(), b_->backend().size());
    difference_dirty_ = false;
  }
  renderer_->draw(view, inv_range(), display == TwinDisplay::AbsoluteDifference, area, fb_w, fb_h);
}

std::string TwinRun::counter_note() const {
  if (!b_ || b_offset_ == 0 || !reads_step_number(applied_)) return {};
  return "jitter or the Jones rule read the step number, and the twin's count started at 0 (A was at step " +
         std::to_string(b_offset_) +
         "): their random numbers differ from the start. Start the twin at step 0 "
         "(Reset, then Start) to see only the perturbation.";
}

}  // namespace physarum::app
