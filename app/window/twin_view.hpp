// The window's twin view: a second simulation B started from the window's current
// state A, perturbed once (the same spec strings as `physarum sensitivity --perturb`), then stepped
// exactly as A: the same steps each frame, A's live parameter changes and keyframes, brush strokes
// and dropped images applied to both. Every `every` frames it measures how far apart the twins
// are (sensitivity/distance.hpp), fits the largest Lyapunov exponent (sensitivity/fit.hpp) and
// keeps A - B for the diverging overlay (render/difference.hpp). Runs are bit-exact, so any
// distance comes from the perturbation alone.
//
// B is a new run of A's kind, built from the window's recipe and then given A's environment,
// field, agents and live parameters. Its step counter starts at 0, and the backends offer no way
// to set it: where the rule reads the step number (jitter > 0, the Jones rule's coin) B draws
// other random numbers than A from the start; `counter_note()` says so in the panel. Keyframes
// are followed at A's step numbers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "render/difference.hpp"
#include "run/run.hpp"
#include "sensitivity/fit.hpp"
#include "sensitivity/perturbation.hpp"
#include "sensitivity/twin_runs.hpp"

namespace physarum::app {

inline constexpr const char* kDefaultTwinPerturbation = "agent:0:theta:1e-4";

enum class TwinDisplay { A, Difference, AbsoluteDifference };

class TwinRun {
 public:
  TwinRun();
  ~TwinRun();
  TwinRun(const TwinRun&) = delete;
  TwinRun& operator=(const TwinRun&) = delete;

  // Starts (or restarts) B from `a`'s current state with `live` (A's preset as applied) and the
  // perturbation `spec`. Throws Error (a bad spec, an agent or cell out of range, a backend that
  // cannot be made) and then the twin stays as it was.
  void start(Backend& a, const run::Recipe& recipe, const Preset& live, const std::string& spec);
  void stop(const std::string& why = {});
  bool active() const { return b_ != nullptr; }

  // After A's step of this frame: `before` is A's preset before it (its keyframes and live values),
  // `from` A's step number before it, `n` the steps A made. Steps B alike, then measures every
  // `every` frames. A different backend (the window rebuilt A) stops the twin, saying why.
  void follow(Backend& a, const Preset& before, uint64_t from, int n);
  // A brush stroke A received, for B.
  void brush(const BrushStroke& stroke);
  // Measures now (also the start's record): distance, agents, fit and the difference plane.
  void measure(Backend& a);

  // The overlay instead of A's field; needs a current GL context (the program is built at the first).
  bool showing_difference() const { return active() && display != TwinDisplay::A; }
  void draw(const render::View& view, const render::Area& area, int fb_w, int fb_h);

  Backend* backend() { return b_ ? &b_->backend() : nullptr; }
  const Backend* backend() const { return b_ ? &b_->backend() : nullptr; }
  const sensitivity::Perturbation& perturbation() const { return perturbation_; }
  double delta() const { return delta_; }  // the perturbation applied (after rounding to float)
  const std::vector<sensitivity::Record>& records() const { return records_; }
  const sensitivity::LyapunovFit& fit() const { return fit_; }
  const std::vector<float>& difference() const { return difference_; }
  float max_abs_difference() const { return max_abs_; }
  // 1 / the difference shown at full colour: gain / the largest |A - B| (0 when they agree).
  float inv_range() const { return max_abs_ > 0 ? gain / max_abs_ : 0.0f; }
  // Empty, or why B's random numbers differ from A's (see above).
  std::string counter_note() const;
  const std::string& stopped_why() const { return stopped_why_; }

  TwinDisplay display = TwinDisplay::Difference;
  int every = 5;      // frames between measurements, 1..600
  float gain = 4.0f;  // the overlay's contrast: full colour at max|A - B| / gain (one hot spot
                      // would otherwise leave the rest pale)
  static constexpr size_t kMaxRecords = 20000;  // then every other one is dropped (the curve halves)

 private:
  void sync_parameters(const Preset& p);  // B's live parameters: p, perturbed when the spec says so

  std::unique_ptr<run::Run> b_;  // stepped by hand at A's step numbers (see above), not by its own keyframes
  Backend* a_ = nullptr;         // the A it follows
  sensitivity::Perturbation perturbation_;
  double delta_ = 0;
  uint64_t start_step_ = 0;   // A's step number at the start
  uint64_t measured_at_ = 0;  // A's step number at the last measurement
  uint64_t b_offset_ = 0;     // A's step number minus B's
  bool counter_differs_ = false;
  int frames_ = 0;
  Preset applied_;  // B's live parameters as last set
  std::vector<sensitivity::Record> records_;
  sensitivity::LyapunovFit fit_;
  std::vector<float> field_a_, field_b_, difference_;
  float max_abs_ = 0;
  bool difference_dirty_ = false;
  std::unique_ptr<render::DifferenceRenderer> renderer_;
  std::string stopped_why_;
};

}  // namespace physarum::app
