#include "atlas/atlas_outputs.hpp"

#include <algorithm>
#include <cstdio>

#include "atlas/mosaic.hpp"
#include "export/output_budget.hpp"
#include "export/output_paths.hpp"
#include "sim/atomic_file.hpp"
#include "sim/npy.hpp"
#include "sim/png_writer.hpp"
#include "sim/text.hpp"
#include "system/process.hpp"
#include "video/encoder_probe.hpp"
#include "video/recorder.hpp"
#include "video/video_format.hpp"

namespace physarum::app::atlas {
namespace {

using run::UsageError;

// A still without --t, a video with it: anything else is refused, naming the value.
void check_out_kind(const AtlasRequest& o, bool animated) {
  const std::optional<VideoFormat> video = video_format_of(o.out);
  if (animated && (!video || *video == VideoFormat::PngSequence)) {
    throw UsageError("--out " + o.out + ": with --t the atlas is a video (.mp4, .webm or .gif)");
  }
  if (!animated && video) {
    throw UsageError("--out " + o.out +
                     ": a video animates the atlas along a third key; add --t KEY=a:b:n, or write a .png");
  }
  if (!animated && lowercase_extension(o.out) != ".png") {
    throw UsageError("--out " + o.out + ": the atlas is a .png (or, with --t, a video)");
  }
  if (!animated && o.fps != 0) {
    throw UsageError("--fps " + std::to_string(o.fps) + ": the frame rate of a video, which needs --t");
  }
}

// The recorder's own check of the video's quality, naming --fps where it names the GIF's rate (the
// atlas's GIF plays at the video's rate).
void check_quality(const AtlasRequest& o, VideoFormat f, int w, const std::string& encoder) {
  std::string why = quality_problem(video_quality(o, w), f, encoder);
  if (why.empty()) return;
  const std::string gif_fps = "--gif-fps";
  throw UsageError(why.rfind(gif_fps, 0) == 0 ? "--fps" + why.substr(gif_fps.size())
                                              : "--out " + o.out + ": " + why);
}

// The bytes --out may take, written and in memory: a still's PNG, or a video's frames in flight.
void add_picture(OutputBudget& budget, const AtlasRequest& o, const Preset& p, const Axes& a) {
  const Size s = p.run.size;
  // The canvas, the bare mosaic and every tile are in memory at once while the picture is made.
  const MosaicLayout l = layout_for(a.x.n, a.y.n, s.width, s.height);
  const uint64_t pixels =
      uint64_t{4} * static_cast<uint64_t>(l.canvas_width()) * static_cast<uint64_t>(l.canvas_height());
  const std::string tiles =
      std::to_string(a.x.n) + " x " + std::to_string(a.y.n) + " tiles of " + format_size(s);
  if (!a.t) {
    const uint64_t png = png_bytes_bound(l.canvas_width(), l.canvas_height(), 4, 1);
    budget.add("--out " + o.out, tiles, {png, png + 3 * pixels});
    return;
  }
  // As `render` counts a video: the frames in flight to the encoder, nothing on disk but a GIF's
  // bound (it stores every pixel of every frame).
  const auto in_flight = static_cast<uint64_t>(RecorderOptions{}.ring_slots);
  const bool gif = video_format_of(o.out) == VideoFormat::Gif;
  const uint64_t gif_bytes =
      gif ? estimate_gif(video_quality(o, l.canvas_width()), l.canvas_width(), l.canvas_height(),
                         static_cast<uint64_t>(a.frames()), fps_of(o))
                .bound_bytes
          : 0;
  budget.add("--out " + o.out, std::to_string(a.frames()) + " frames of " + tiles,
             {gif_bytes, (3 + in_flight) * pixels});
}

std::string csv_number(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

}  // namespace

int fps_of(const AtlasRequest& o) {
  return o.fps > 0 ? o.fps : kDefaultAtlasFps;
}

VideoQuality video_quality(const AtlasRequest& o, int canvas_width) {
  VideoQuality q;
  q.gif_fps = fps_of(o);
  q.gif_width = std::clamp(canvas_width, 16, 4096);  // the GIF check's range; never wider than the frames
  return q;
}

std::string checked_encoder(const AtlasRequest& o, int w, int h) {
  const VideoFormat f = *video_format_of(o.out);
  // What the user can fix in the command comes first, whatever is installed.
  if (f != VideoFormat::Mp4) check_quality(o, f, w, "");
  (void)resolve_ffmpeg("ffmpeg");
  std::string encoder;
  try {
    encoder = encoder_for_format(f, w, h);
  } catch (const Error& e) {
    throw UsageError("--out " + o.out + ": " + e.what());
  }
  if (f == VideoFormat::Mp4) check_quality(o, f, w, encoder);
  return encoder;
}

void check_outputs(const AtlasRequest& o, const Preset& p, const Axes& a) {
  check_out_kind(o, a.t.has_value());
  if (!o.npy.empty() && lowercase_extension(o.npy) != ".npy")
    throw UsageError("--npy " + o.npy + ": the stack of fields is a .npy");
  OutputPaths paths;
  paths.add("--out", o.out);
  if (!o.csv.empty()) paths.add("--csv", o.csv);
  if (!o.npy.empty()) paths.add("--npy", o.npy);
  OutputBudget budget;
  add_picture(budget, o, p, a);
  const Size s = p.run.size;
  const int worlds = a.worlds();
  const uint64_t fields = uint64_t{4} * static_cast<uint64_t>(worlds) * static_cast<uint64_t>(s.width) *
                          static_cast<uint64_t>(s.height);
  if (!o.npy.empty())
    budget.add("--npy " + o.npy, std::to_string(worlds) + " fields of " + format_size(s),
               {fields + 128, fields});
  budget.check(o.output_budget);
}

void write_csv(const std::string& file, const Axes& a, const Frames& frames) {
  const std::string third = a.t ? "it," : "";
  std::string csv = third + "ix,iy," + (a.t ? a.t->key + "," : "") + a.x.key + "," + a.y.key +
                    ",mean,variance,wavelength,coverage,junctions\n";
  for (int it = 0; it < a.frames(); ++it) {
    for (int iy = 0; iy < a.y.n; ++iy) {
      for (int ix = 0; ix < a.x.n; ++ix) {
        const WorldStats& s = frames[static_cast<size_t>(it)][static_cast<size_t>(iy * a.x.n + ix)].stats;
        csv += (a.t ? std::to_string(it) + "," : "") + std::to_string(ix) + "," + std::to_string(iy) + "," +
               (a.t ? csv_number(a.t->value(it)) + "," : "") + csv_number(a.x.value(ix)) + "," +
               csv_number(a.y.value(iy)) + "," + csv_number(s.mean) + "," + csv_number(s.variance) + "," +
               csv_number(s.wavelength) + "," + csv_number(s.coverage) + "," + std::to_string(s.junctions) +
               "\n";
      }
    }
  }
  write_file_atomically(file, csv);
}

void write_stack(const std::string& file, const Axes& a, const Frames& frames) {
  const Size s = frames.front().front().size;
  std::vector<float> stack;
  stack.reserve(static_cast<size_t>(a.worlds()) * frames.front().front().field.size());
  for (const auto& grid : frames)
    for (const WorldResult& w : grid) stack.insert(stack.end(), w.field.begin(), w.field.end());
  std::vector<int> shape = {a.y.n, a.x.n, s.height, s.width};
  if (a.t) shape.insert(shape.begin(), a.t->n);
  write_npy_shape(file, stack.data(), shape);
}

}  // namespace physarum::app::atlas
