// The interactive window's options (no subcommand): the simulation's, then the window's own.
#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/decimal_option.hpp"
#include "cli/help_format.hpp"
#include "cli/sim_options.hpp"
#include "export/output_paths.hpp"
#include "export_pipeline/output_formats.hpp"
#include "video/video_format.hpp"
#include "video/video_pacer.hpp"
#include "window/ui_scale.hpp"
#include "window/window.hpp"
#include "window/window_recording.hpp"

namespace physarum::app {
namespace {

// --record: a file as the recorder takes it, or a frame pattern whose folder can be made.
void check_record(const std::string& record, OutputPaths& paths) {
  if (video_format_of(record) != VideoFormat::PngSequence) {
    paths.add("--record", record, WritableTarget::RegularFileOrDevice);  // as the recorder takes it
    return;
  }
  try {
    check_frame_folder(record);
  } catch (const Error& e) {
    throw UsageError(std::string("--record: ") + e.what());
  }
}

// The files the window is asked to write, checked before it opens (and before a display is looked
// for): an unwritable --screenshot would otherwise be found only after the last frame. Then the
// screenshot's format: one the window can write a picture as.
void check_window_outputs(const WindowOptions& o) {
  OutputPaths paths;
  if (!o.screenshot.empty()) paths.add("--screenshot", o.screenshot);
  if (!o.record.empty()) check_record(o.record, paths);
  if (o.screenshot.empty()) return;
  try {
    (void)picture_format_of(o.screenshot);
  } catch (const Error& e) {
    throw UsageError(std::string("--screenshot ") + e.what());
  }
}

}  // namespace

CommandFn add_window_options(CLI::App& app) {
  auto o = std::make_shared<WindowOptions>();
  add_sim_options(app, o->sim);
  app.add_option("--frames", o->frames, "Quit after N frames (for scripts and tests)")
      ->type_name("N")
      ->transform(decimal_integer())
      ->check(CLI::NonNegativeNumber);
  app.add_option("--screenshot", o->screenshot,
                 "Save the last frame (panel included) as " + output_extensions(kWindowOffer))
      ->type_name("FILE");
  app.add_option("--window", o->size_window, "Window size in screen units, e.g. 1280x800")->type_name("WxH");
  app.add_flag("!--no-vsync", o->vsync, "Do not wait for the display's refresh (uncapped frame rate)");
  app.add_flag("--fullscreen", o->fullscreen, "Start fullscreen (F11 toggles)");
  app.add_flag("--hide-panel", o->hide_panel, "Start with the panel hidden (Tab toggles)");
  app.add_option("--record", o->record,
                 "Start recording at once (F9 stops and starts) to a video: " +
                     output_extensions({OutputNeeds::Video}))
      ->type_name("FILE");
  app.add_flag("--record-window", o->record_window,
               "Record the whole window with the panel (default: the field)");
  app.add_option("--record-fps", o->record_fps, "Frame rate of recordings")
      ->capture_default_str()
      ->transform(decimal_integer())
      ->check(CLI::Range(1, 240));
  app.add_option("--twin", o->twin,
                 "Start a perturbed twin at once and show A - B (the panel's Twin section), e.g. "
                 "agent:0:theta:1e-4 (the syntax of sensitivity --perturb)")
      ->type_name("SPEC");
  app.add_option(
         "--osc", o->osc_port,
         "Take live control over OSC on this UDP port (e.g. 9000; 0 picks a free one): "
         "/physarum/model/decay 0.02, /physarum/species/1/deposit 3, /physarum/reset, /physarum/record, "
         "/physarum/pause")
      ->type_name("PORT")
      ->transform(decimal_integer())
      ->check(CLI::Range(0, 65535));
  app.add_flag("--midi", o->midi,
               "Take MIDI knobs (control changes) from every MIDI input; the MIDI window learns which knob "
               "moves which slider");
  app.add_flag("--atlas", o->atlas,
               "Open the Atlas window (A) and grow its grid of the live preset at once: sensor x rotation "
               "angle, 6 x 6");
  std::vector<std::string> timings;
  for (const Pacing p : kWindowPacings) timings.emplace_back(pacing_name(p));
  auto* timing =
      app.add_option("--record-timing", o->record_timing,
                     "How window frames become video frames: smooth (each picture once, at most --record-fps "
                     "a second: real time when the window keeps up, faster when it draws fewer), every-frame "
                     "(each window frame once), real-time (frames repeated to keep the clock)")
          ->capture_default_str()
          ->check(CLI::IsMember(timings));
  app.add_flag("--record-every-frame", o->record_every_frame, "The same as --record-timing every-frame")
      ->excludes(timing);
  app.add_option("--ui-scale", o->ui_scale,
                 "Size of the panel's text and controls, e.g. 1.5 (default: the monitor's, or the panel's "
                 "choice; a 4K screen or a laptop gets larger text)")
      ->type_name("K")
      ->check(finite_number())
      ->check(CLI::Range(kMinUiScale, kMaxUiScale));

  for (const char* name : {"--frames", "--screenshot", "--window", "--no-vsync", "--fullscreen",
                           "--hide-panel", "--record", "--record-window", "--record-fps", "--twin", "--osc",
                           "--midi", "--record-timing", "--record-every-frame", "--atlas", "--ui-scale"}) {
    app.get_option(name)->group(kWindowGroup);
  }
  return [o] {
    check_window_outputs(*o);
    return run_window(*o);
  };
}

}  // namespace physarum::app
