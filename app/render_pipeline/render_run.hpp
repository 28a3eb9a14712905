// `physarum render` run whole: the outputs planned and checked (their formats from the one table of
// output formats, export_pipeline/output_formats.hpp; the size, the encoder, the budget) before any
// work, the run grown from the preset resolved once, its frames drawn offscreen into videos
// (headless_render.hpp), then the stills, the field and the network report; or an ensemble's report
// over many seeds (report/render_ensemble.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "export_pipeline/output_formats.hpp"
#include "report/render_ensemble.hpp"
#include "report/render_report.hpp"
#include "run/recipe.hpp"
#include "video/video_quality.hpp"

namespace physarum::app {

struct RenderRequest {
  run::Recipe sim;
  uint64_t steps = 500;
  std::vector<std::string> outs;
  std::string resolution;        // "WxH" or "4x"; empty = the field's size
  int every = 0;                 // video: a frame every N steps (0 = steps / 300, at least 1)
  std::optional<uint64_t> from;  // video: grow silently to this step, the first frame there
  std::optional<double> loop_s;  // video: a seamless loop of this many seconds
  int fps = 30;
  int video_stop_limit_s = 30;  // after the last frame or Ctrl-C, before a stalled encoder is ended
  bool quiet = false;
  ReportOptions report;
  EnsembleOptions ensemble;  // --seeds, --shard, --merge
  std::string output_budget;
  VideoQuality quality;           // --crf, --video-preset, --gif-*
  DeepStillOptions deep;          // --depth, --exr-type
  std::optional<double> orbit_s;  // a volume: a turntable of this many seconds of video
  std::string slice;              // a volume: "z=0.5", the 2D picture of that plane
  // What the run chose for the user ("640x360 with 60K agents (...)"), said once the run is made.
  std::function<void(const std::string& chosen)> say_chosen = [](const std::string&) {};
};

// Runs the request; returns the exit code (128 + signal after Ctrl-C or SIGTERM, the videos so far
// finalised). Throws UsageError for what the request cannot have, before any work; Error when the
// work fails.
int render(const RenderRequest& r);

}  // namespace physarum::app
