// `physarum render`: its options into a request for the headless pipeline (headless/render_run.hpp),
// which runs the simulation headless and draws it with the window's shader into an offscreen
// framebuffer through EGL (no display needed). Outputs by extension, from the one table of output
// formats (export_pipeline/output_formats.hpp): stills, the field, videos.
#include <CLI/CLI.hpp>
#include <limits>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/output_options.hpp"
#include "cli/sim_options.hpp"
#include "cli/video_options.hpp"
#include "export_pipeline/output_formats.hpp"
#include "render_pipeline/render_run.hpp"

namespace physarum::app {
namespace {

// --report, --graph and the network's threshold.
void add_report_options(CLI::App& cmd, ReportOptions& r) {
  cmd.add_option("--report", r.file,
                 "Measure the final network and write JSON: towns, towns_connected, network_length, "
                 "mst_length, fault_tolerance, and Tero et al.'s cost, efficiency and fault_tolerance_tero "
                 "on its graph (towns are the food map's blobs; none without one); with --seeds, over the "
                 "seeds")
      ->type_name("FILE.json");
  cmd.add_option("--graph", r.graph,
                 "Write the final network as a graph: towns, junctions and ends as nodes, the lines between "
                 "them as edges with their length and mean trail level; GraphML (.graphml) or node-link "
                 "JSON (.json)")
      ->type_name("FILE");
  cmd.add_option("--report-threshold", r.threshold,
                 "Report and graph: the high trail level V (network pieces must reach it)")
      ->check(finite_number())
      ->type_name("V");
  cmd.add_option("--report-low", r.low_ratio,
                 "Report and graph: network cells have trail >= R x the high level and hang on to a cell "
                 "at the high level (hysteresis; 1 is a single threshold)")
      ->check(finite_number())
      ->type_name("R")
      ->check(CLI::Range(0.001, 1.0))
      ->capture_default_str();
  cmd.add_option("--report-fraction", r.fraction,
                 "Report and graph: without --report-threshold, this share of the open cells is at or "
                 "above the high level")
      ->check(finite_number())
      ->type_name("F")
      ->check(CLI::Range(0.001, 1.0))
      ->capture_default_str();
}

// --seeds, --shard and --merge: a report over many runs.
void add_ensemble_options(CLI::App& cmd, EnsembleOptions& o) {
  cmd.add_option("--seeds", o.seeds,
                 "Run the recipe once per seed from A to B and write one --report over them: each measure's "
                 "mean, standard deviation and 95% interval, and each seed's own report (no --out: "
                 "render one seed with --seed S to see it)")
      ->type_name("A..B");
  cmd.add_option("--shard", o.shard,
                 "With --seeds: run only slice K of N of the seeds (every N-th, round robin); join the "
                 "slices' reports with --merge")
      ->type_name("K/N");
  cmd.add_option("--merge", o.merge,
                 "Join the --report files of an ensemble's shards into --report FILE: the same file the "
                 "whole ensemble writes; nothing runs")
      ->type_name("FILE...")
      ->expected(1, std::numeric_limits<int>::max());
}

}  // namespace

CommandFn add_render_command(CLI::App& app) {
  auto o = std::make_shared<RenderRequest>();
  o->say_chosen = say_chosen;
  CLI::App* cmd = app.add_subcommand(
      "render", "Run headless and draw the field with the window's shader (EGL, no display needed)");
  add_sim_options(*cmd, o->sim);
  cmd->add_option("--steps", o->steps, "Simulation steps")
      ->capture_default_str()
      ->transform(decimal_integer())
      ->check(CLI::Range(0, 100'000'000));
  cmd->add_option("--out", o->outs,
                  "Output file, by extension: " + output_formats_help(kRenderOffer) +
                      "; repeatable; required unless --seeds or --merge")
      ->type_name("FILE");
  cmd->add_option("--resolution", o->resolution,
                  "Image size, WxH or a multiple of the field's size such as 4x (default: the field's size, "
                  "one pixel per cell); larger than the field the field is sampled bicubically")
      ->type_name("WxH|Nx");
  cmd->add_option("--every", o->every, "Video: one frame every N steps (default: steps / 300)")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--from", o->from,
                  "Video: grow silently to step N and record from there (the first frame is step N; "
                  "keyframes still apply from step 0); --steps stays the last step")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::Range(0, 100'000'000));
  cmd->add_option("--loop", o->loop_s,
                  "Video: a seamless loop SECONDS long. The run renders a cross-fade's worth more (a second, "
                  "at most a quarter of the loop) and fades those last frames into the first ones, which "
                  "then close the video: its last frame flows into its first. The frame steps fit "
                  "between --from (or 0) and --steps unless --every is given; the run ends at the last "
                  "frame. Combine with --from so the loop shows a grown network")
      ->type_name("SECONDS")
      ->check(finite_number())
      ->check(CLI::Range(0.0, 1.0e6));
  cmd->add_option("--fps", o->fps, "Video frame rate")
      ->capture_default_str()
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 240));
  cmd->add_option("--video-stop-limit", o->video_stop_limit_s,
                  "Video: seconds the encoder gets to take the last frames and finish (also after Ctrl-C) "
                  "before it is ended; what it wrote stays playable")
      ->type_name("SECONDS")
      ->capture_default_str()
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 3600));
  cmd->add_flag("-q,--quiet", o->quiet, "No progress bar on stderr");
  add_report_options(*cmd, o->report);
  add_ensemble_options(*cmd, o->ensemble);
  add_video_quality_options(*cmd, o->quality);
  add_deep_still_options(*cmd, o->deep);
  add_output_budget_option(*cmd, o->output_budget);
  cmd->add_option("--orbit", o->orbit_s,
                  "A volume: the camera turns once about it every SECONDS of video (a turntable; yaw from "
                  "display.camera_yaw_deg), while the run grows")
      ->type_name("SECONDS")
      ->check(finite_number())
      ->check(CLI::Range(0.01, 1.0e6));
  cmd->add_option("--slice", o->slice,
                  "A volume: draw the plane across x, y or z at fraction F of that side (z=0.5) with the 2D "
                  "colouring instead of the 3D view")
      ->type_name("AXIS=F");
  return [o] { return render(*o); };
}

}  // namespace physarum::app
