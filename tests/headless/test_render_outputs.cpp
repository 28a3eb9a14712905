// The outputs artists post: GIF, WebM and PNG sequences with their frame counts and
// sizes (ffprobe), transparent stills whose alpha is the mapped intensity (a double-precision
// reference), and stills larger than the field sampled bicubically (a double-precision
// Catmull-Rom reference, and no pixel stairs along edges).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "export/output_size.hpp"
#include "gl_support.hpp"
#include "png_image.hpp"
#include "render/colormap.hpp"
#include "render/field_renderer.hpp"
#include "render/palette.hpp"
#include "sim/npy.hpp"
#include "sim/preset.hpp"
#include "test_support.hpp"
#include "video/recorder.hpp"
#include "video/video_format.hpp"
#include "video/video_quality.hpp"
#include "video_support.hpp"
#include "window/window_recording.hpp"
#include "xvfb.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;

const std::vector<std::pair<std::string, std::string>> kEgl = {{"EGL_PLATFORM", "surfaceless"}};

using Image = test::RgbaImage;
using test::load_rgba_png;

std::string file_text(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::vector<std::string> small_render(std::vector<std::string> more) {
  std::vector<std::string> a = {"render", "--backend", "cpu", "--agents", "2K", "--seed", "3", "-q"};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

TEST(RenderOutputsE2e, GifWebmAndPngSequenceHaveTheFrameCountsAndSizes) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  // An odd size: GIF and PNG keep it, VP9 (4:2:0) is cropped to even.
  const auto r = test::run_physarum(small_render({"--size", "65x49", "--steps", "40", "--every", "4", "--out",
                                                  "a.gif", "--out", "a.webm", "--out", "new/dir/%05d.png"}),
                                    dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto gif = probe(dir / "a.gif");
  EXPECT_EQ(gif["ok"], "yes");
  EXPECT_EQ(gif["codec_name"], "gif");
  EXPECT_EQ(gif["width"], "65");
  EXPECT_EQ(gif["height"], "49");
  // 10 frames at 30 fps: the GIF plays the same 1/3 s at 25 fps.
  EXPECT_EQ(gif["nb_read_frames"], std::to_string(gif_frame_count(10, 30, VideoQuality{})));
  // Loops for ever: the NETSCAPE2.0 application block with a loop count of 0.
  const std::string bytes = file_text(dir / "a.gif");
  const auto netscape = bytes.find("NETSCAPE2.0");
  ASSERT_NE(netscape, std::string::npos);
  EXPECT_EQ(bytes.substr(netscape + 11, 5), std::string("\x03\x01\x00\x00\x00", 5));
  EXPECT_FALSE(fs::exists(dir / "a.gif.frames.mkv"))
      << "the lossless frames are removed once the GIF is made";

  auto webm = probe(dir / "a.webm");
  EXPECT_EQ(webm["ok"], "yes");
  EXPECT_EQ(webm["codec_name"], "vp9");
  EXPECT_EQ(webm["width"], "64");
  EXPECT_EQ(webm["height"], "48");
  EXPECT_EQ(webm["nb_read_frames"], "10");

  for (int i = 1; i <= 10; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "%05d.png", i);
    const Image img = load_rgba_png(dir / "new/dir" / name);
    EXPECT_EQ(img.w, 65) << name;
    EXPECT_EQ(img.h, 49) << name;
  }
  EXPECT_FALSE(fs::exists(dir / "new/dir/00011.png"));
  EXPECT_FALSE(fs::exists(dir / "new/dir/00000.png"));
  // The last frame of every output is the same picture: the PNG sequence's last is exact.
  const auto last =
      test::run_physarum(small_render({"--size", "65x49", "--steps", "40", "--out", "last.png"}), dir, kEgl);
  ASSERT_EQ(last.exit_code, 0) << last.err;
  EXPECT_EQ(load_rgba_png(dir / "new/dir/00010.png").rgba, load_rgba_png(dir / "last.png").rgba);
}

// ffprobe's count of a file's frames, their average rate (a fraction, as a number) and the length.
struct Probed {
  long frames = -1;
  double fps = 0;
  double seconds = 0;
};

Probed probe_rate(const fs::path& file) {
  const ProcessOutput r =
      run_capture({"ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                   "stream=nb_read_frames,avg_frame_rate:format=duration", "-of",
                   "default=noprint_wrappers=1", "file:" + fs::absolute(file).string()});
  Probed p;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "nb_read_frames") p.frames = std::stol(value);
    if (key == "duration" && value != "N/A") p.seconds = std::stod(value);
    if (key == "avg_frame_rate" && value.find('/') != std::string::npos) {
      const double den = std::stod(value.substr(value.find('/') + 1));
      p.fps = den > 0 ? std::stod(value) / den : 0;
    }
  }
  return p;
}

// What a "wrote FILE (N frames at F fps, S s)" line says.
Probed said_about(const std::string& out, const std::string& file) {
  const std::string key = "wrote " + file + " (";
  const auto at = out.find(key);
  Probed p;
  if (at == std::string::npos) return p;
  std::istringstream in(out.substr(at + key.size()));
  std::string frames_word, at_word, fps_word;
  in >> p.frames >> frames_word >> at_word >> p.fps >> fps_word >> p.seconds;
  return p;
}

// Every video's "wrote" line says what its file holds, as ffprobe counts it (the case:
// a GIF said to be 150 frames at 30 fps held 125 at 25). 30 frames at 30 fps make a 1 s MP4 and
// WebM, a GIF of 25 frames at 25 fps (4 cs each) and 30 PNG files; at --fps 24 and --gif-fps 20
// the same 30 frames are 1.25 s, a GIF of 25 frames at 20 fps (5 cs each).
TEST(RenderOutputsE2e, WroteLinesSayWhatEachVideoHolds) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  const auto r =
      test::run_physarum(small_render({"--size", "64x48", "--steps", "60", "--every", "2", "--out", "a.gif",
                                       "--out", "a.mp4", "--out", "a.webm", "--out", "f/%05d.png"}),
                         dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string file : {"a.gif", "a.mp4", "a.webm"}) {
    SCOPED_TRACE(file);
    const Probed said = said_about(r.out, file);
    const Probed real = probe_rate(dir / file);
    EXPECT_EQ(said.frames, real.frames) << r.out;
    EXPECT_NEAR(said.fps, real.fps, 1e-3) << r.out;
    EXPECT_NEAR(said.seconds, real.frames / real.fps, 0.006) << r.out;
  }
  EXPECT_EQ(said_about(r.out, "a.gif").frames, 25) << r.out;
  EXPECT_EQ(said_about(r.out, "a.gif").fps, 25) << r.out;
  EXPECT_EQ(said_about(r.out, "a.mp4").frames, 30) << r.out;
  EXPECT_NE(r.out.find("wrote f/%05d.png (30 PNG frames, f/00001.png to f/00030.png)"), std::string::npos)
      << r.out;
  EXPECT_TRUE(fs::exists(dir / "f/00030.png"));
  EXPECT_FALSE(fs::exists(dir / "f/00031.png"));

  const auto slow =
      test::run_physarum(small_render({"--size", "64x48", "--steps", "60", "--every", "2", "--fps", "24",
                                       "--gif-fps", "20", "--out", "b.gif", "--out", "b.mp4"}),
                         dir, kEgl);
  ASSERT_EQ(slow.exit_code, 0) << slow.err;
  for (const std::string file : {"b.gif", "b.mp4"}) {
    SCOPED_TRACE(file);
    const Probed said = said_about(slow.out, file);
    const Probed real = probe_rate(dir / file);
    EXPECT_EQ(said.frames, real.frames) << slow.out;
    EXPECT_NEAR(said.fps, real.fps, 1e-3) << slow.out;
    EXPECT_NEAR(said.seconds, 1.25, 0.006) << slow.out;
  }
  EXPECT_EQ(said_about(slow.out, "b.gif").frames, 25) << slow.out;
  EXPECT_EQ(said_about(slow.out, "b.gif").fps, 20) << slow.out;
}

// The window's recorder takes the same formats: a GIF made when the window closes, PNG frames.
TEST(WindowOutputsE2e, RecordsAGifAndAPngSequenceOfTheField) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = test::temp_dir();
  for (const std::string out : {"rec.gif", "frames/%03d.png"}) {
    const auto r = test::run_physarum({"--frames", "20", "--backend", "cpu", "--size", "90x60", "--agents",
                                       "3K", "--no-vsync", "--record-every-frame", "--record", out},
                                      dir, {{"DISPLAY", x.display()}, {"LIBGL_ALWAYS_SOFTWARE", "1"}},
                                      {"WAYLAND_DISPLAY"});
    ASSERT_EQ(r.exit_code, 0) << out << ": " << r.err << r.out;
  }
  auto gif = probe(dir / "rec.gif");
  EXPECT_EQ(gif["codec_name"], "gif");
  EXPECT_EQ(gif["width"], "90");
  EXPECT_EQ(gif["height"], "60");
  const int gif_frames = std::stoi(gif["nb_read_frames"].empty() ? "0" : gif["nb_read_frames"]);
  EXPECT_GT(gif_frames, 0);
  EXPECT_LE(gif_frames, 20);  // one per window frame at most; Drop mode may drop some
  EXPECT_FALSE(fs::exists(dir / "rec.gif.frames.mkv"));
  int pngs = 0;
  for (const auto& e : fs::directory_iterator(dir / "frames")) {
    const Image img = load_rgba_png(e.path());
    EXPECT_EQ(img.w, 90) << e.path();
    EXPECT_EQ(img.h, 60) << e.path();
    ++pngs;
  }
  EXPECT_GT(pngs, 0);
  EXPECT_LE(pngs, 20);
  EXPECT_TRUE(fs::exists(dir / "frames/001.png"));
}

// The window's files are checked before it opens, with no display needed: a name given twice, a
// FIFO, a device or a folder that cannot be written is a usage error, and nothing is made.
TEST(WindowOutputsE2e, ScreenshotAndRecordingAreCheckedBeforeTheWindowOpens) {
  const auto dir = test::temp_dir();
  ASSERT_EQ(::mkfifo((dir / "pipe.png").c_str(), 0600), 0);
  fs::create_directories(dir / "locked");
  ASSERT_EQ(::chmod((dir / "locked").c_str(), 0500), 0);
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  std::vector<Case> cases = {
      {{"--screenshot", "v.mp4", "--record", "v.mp4"}, "--record v.mp4: the same file as --screenshot v.mp4"},
      {{"--screenshot", "pipe.png"}, "--screenshot pipe.png"},
      {{"--screenshot", "/dev/null"}, "--screenshot /dev/null"},
      {{"--record", "pipe.png/%03d.png"}, "--record: cannot write frames to pipe.png"},
  };
  // Root writes into a folder without write permission.
  if (::geteuid() != 0) cases.push_back({{"--record", "locked/v.mp4"}, "--record locked/v.mp4"});
  for (const Case& c : cases) {
    std::vector<std::string> a = {"--frames", "2", "--backend", "cpu", "--size", "32x24"};
    a.insert(a.end(), c.args.begin(), c.args.end());
    const auto r = test::run_physarum(a, dir, {}, {"DISPLAY", "WAYLAND_DISPLAY"});
    EXPECT_EQ(r.exit_code, 2) << c.says << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("no display"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "v.mp4")) << c.says;
  }
}

// A GIF that cannot be made in time loses nothing: the frames stay, losslessly, and the message
// says where.
TEST(GifRecorderE2e, FramesAreKeptWhenTheGifCannotBeMade) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  RecorderOptions o;
  o.output = dir / "slow.gif";
  o.width = 33;
  o.height = 21;
  o.fps = 25;  // the GIF's rate: the frames are kept at it, so every one of the five is kept
  o.policy = RingPolicy::Wait;
  o.convert_limit = std::chrono::milliseconds(1);
  Recorder rec(o);
  EXPECT_EQ(rec.format(), VideoFormat::Gif);
  std::vector<uint8_t> frame(33 * 21 * 4);
  for (int i = 0; i < 5; ++i) {
    for (size_t k = 0; k < frame.size(); ++k) frame[k] = static_cast<uint8_t>(k * 7 + i * 40);
    ASSERT_TRUE(rec.write_rgba(frame.data(), 33, 21));
  }
  EXPECT_FALSE(rec.stop());
  EXPECT_NE(rec.error().find("kept in " + rec.frames_file().string()), std::string::npos) << rec.error();
  auto kept = probe(rec.frames_file());
  EXPECT_EQ(kept["codec_name"], "ffv1");
  EXPECT_EQ(kept["nb_read_frames"], "5");
  EXPECT_EQ(kept["width"], "33");  // GIF frames are not cropped to even
}

TEST(RenderOutputsE2e, BadFramePatternsAndFoldersAreRefusedBeforeAnyWork) {
  const auto dir = test::temp_dir();
  std::ofstream(dir / "plain") << "a file";
  struct Case {
    std::string out, says;
    int exit;
  };
  for (const Case& c :
       {Case{"f/%d%d.png", "one frame number", 2}, Case{"f/%05d%5s.png", "one frame number", 2},
        Case{"f%d/x%d.png", "only the file name", 2}, Case{"plain/%05d.png", "not a folder", 1},
        Case{"x.avi", "extension must be", 2}}) {
    const auto r = test::run_physarum(
        small_render({"--size", "32x24", "--steps", "5", "--out", "x.npy", "--out", c.out}), dir, kEgl);
    EXPECT_EQ(r.exit_code, c.exit) << c.out << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.out << ": " << r.err;
    EXPECT_FALSE(fs::exists(dir / "x.npy")) << c.out;
    EXPECT_FALSE(fs::exists(dir / "f")) << c.out;
  }
}

// Only a number field (%d, %0Nd) makes a sequence; any other '%' is part of a still's name.
TEST(RenderOutputsE2e, StillsWhoseNamesHoldAPercentSignAreWrittenUnderThatName) {
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum(
      small_render({"--size", "32x24", "--steps", "5", "--out", "50%.png", "--out", "a%%b.png"}), dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"50%.png", "a%%b.png"}) {
    const Image im = load_rgba_png(dir / name);
    EXPECT_EQ(im.w, 32) << name;
    EXPECT_EQ(im.h, 24) << name;
  }
  EXPECT_EQ(video_format_of("50%.png"), std::nullopt);
  EXPECT_EQ(video_format_of("a%%b.png"), std::nullopt);
  EXPECT_EQ(video_format_of("a%%_%03d.png"), VideoFormat::PngSequence);
}

TEST(RenderOutputsE2e, OneFileNamedTwiceOrUnwritableOrANonFiniteNumberIsRefusedBeforeAnyWork) {
  const auto dir = test::temp_dir();
  ASSERT_EQ(::mkfifo((dir / "pipe.json").c_str(), 0600), 0);
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"--out", "x.png", "--report", "x.png"}, "the same file as --out x.png"},
      {{"--out", "x.png", "--out", "./x.png"}, "the same file as --out x.png"},
      {{"--out", "x.png", "--report", "pipe.json"}, "a FIFO"},
      {{"--out", "x.png", "--report", "r.json", "--report-threshold", "nan"}, "not a finite number"},
      {{"--out", "x.png", "--report", "r.json", "--report-fraction", "nan"}, "not a finite number"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> a = {"--size", "32x24", "--steps", "5"};
    a.insert(a.end(), c.args.begin(), c.args.end());
    const auto r = test::run_physarum(small_render(a), dir, kEgl);
    EXPECT_EQ(r.exit_code, 2) << c.says << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "x.png")) << c.says;
    EXPECT_FALSE(fs::exists(dir / "r.json")) << c.says;
  }
}

// A palette is checked where it is used: a keyframe naming one that is not installed ends the
// render before the first step, not when its step comes with part of a video written.
TEST(RenderOutputsE2e, AKeyframedPaletteThatIsNotInstalledIsRefusedBeforeAnyWork) {
  const auto dir = test::temp_dir();
  test::write_file(dir / "p.toml",
                   "[model]\ndecay = 0.1\n[[keyframe]]\nstep = 40\ndisplay.palette = \"nosuch\"\n");
  const auto r = test::run_physarum(
      small_render({"--preset", "p.toml", "--size", "32x24", "--steps", "60", "--out", "v.png"}), dir, kEgl);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("keyframe.0.display.palette: no palette named 'nosuch'"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "v.png"));
}

TEST(RecordingName, FollowsTheChosenFormat) {
  const auto dir = test::temp_dir();
  EXPECT_EQ(recording_name((dir / "take.mp4").string(), VideoFormat::Gif), dir / "take.gif");
  EXPECT_EQ(recording_name((dir / "take").string(), VideoFormat::Webm), dir / "take.webm");
  EXPECT_EQ(recording_name((dir / "take").string(), VideoFormat::PngSequence), dir / "take" / "%05d.png");
  fs::create_directories(dir / "take");
  EXPECT_EQ(recording_name((dir / "take").string(), VideoFormat::PngSequence), dir / "take-2" / "%05d.png");
  EXPECT_EQ(recording_name((dir / "s/%03d.png").string(), VideoFormat::PngSequence), dir / "s/%03d.png");
  EXPECT_EQ(recording_name("", VideoFormat::Gif).extension(), ".gif");
  EXPECT_EQ(video_format_of("A.GIF"), VideoFormat::Gif);
  EXPECT_EQ(video_format_of("a.png"), std::nullopt);  // a still
  EXPECT_EQ(video_format_of("f/%04d.png"), VideoFormat::PngSequence);
}

TEST(OutputSize, ScaleOrWidthByHeight) {
  EXPECT_EQ(output_size(parse_resolution("4x"), Size{160, 90}), (Size{640, 360}));
  EXPECT_EQ(output_size(parse_resolution("2.5X"), Size{100, 41}), (Size{250, 103}));  // 102.5 rounds up
  EXPECT_EQ(output_size(parse_resolution("300x200"), Size{160, 90}), (Size{300, 200}));
  for (const char* bad : {"0x", "-2x", "x", "1e1x", "65x", "abcx", "4"}) {
    EXPECT_THROW(parse_resolution(bad), Error) << bad;
  }
  EXPECT_THROW(output_size(parse_resolution("64x"), Size{1000, 10}), Error);  // 64000 wide
}

TEST(PresetBackground, ParsesWritesAndRefusesOthers) {
  Preset p = parse_preset("[display]\nbackground = \"transparent\"\n");
  EXPECT_EQ(p.display.background, Background::Transparent);
  EXPECT_EQ(parse_preset(preset_to_toml(p)), p);
  EXPECT_EQ(parse_preset(preset_to_toml(Preset{})).display.background, Background::Opaque);
  try {
    apply_override(p, "display.background=see-through");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("opaque, transparent"), std::string::npos) << e.what();
  }
}

// The mapped intensity in double precision: linear position in the field's range, log mapping,
// gamma 1 (the defaults), no invert.
double reference_alpha(double v, double lo, double hi) {
  const double x = hi > lo ? std::max((v - lo) / (hi - lo), 0.0) : 0.0;
  return std::clamp(std::log(1.0 + 1000.0 * x) / std::log(1001.0), 0.0, 1.0);
}

TEST(TransparentStillE2e, AlphaIsTheMappedIntensityAndColoursStayTheOpaqueOnes) {
  const auto dir = test::temp_dir();
  const std::vector<std::string> base = {"--size", "96x64", "--steps", "120", "--set", "model.diffuse=0.05"};
  auto args = small_render(base);
  for (const char* a : {"--out", "opaque.png", "--out", "field.npy"}) args.push_back(a);
  ASSERT_EQ(test::run_physarum(args, dir, kEgl).exit_code, 0);
  args = small_render(base);
  for (const char* a : {"--set", "display.background=transparent", "--out", "clear.png"}) args.push_back(a);
  const auto r = test::run_physarum(args, dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;

  const NpyArray field = read_npy(dir / "field.npy");
  const Image opaque = load_rgba_png(dir / "opaque.png"), clear = load_rgba_png(dir / "clear.png");
  ASSERT_EQ(clear.w, 96);
  ASSERT_EQ(clear.h, 64);
  ASSERT_EQ(opaque.rgba.size(), clear.rgba.size());
  double lo = field.data[0], hi = field.data[0], sum = 0;
  for (float v : field.data) lo = std::min<double>(lo, v), hi = std::max<double>(hi, v), sum += v;
  // Auto range starts at the black level: from the min towards the mean as the mean rises from 2%
  // to 20% of the span above the min (a young field's noise reads dark).
  const double mean = sum / static_cast<double>(field.data.size());
  const double w = std::clamp(((mean - lo) / (hi - lo) - 0.02) / (0.2 - 0.02), 0.0, 1.0);
  lo += w * (mean - lo);
  int worst_alpha = 0, worst_rgb = 0, partial = 0;
  for (int y = 0; y < clear.h; ++y) {
    for (int x = 0; x < clear.w; ++x) {
      const uint8_t* c = clear.at(x, y);
      const uint8_t* o = opaque.at(x, y);
      const double a = reference_alpha(field.data[static_cast<size_t>(y) * 96 + x], lo, hi);
      worst_alpha = std::max(worst_alpha, std::abs(c[3] - static_cast<int>(std::lround(a * 255.0))));
      for (int k = 0; k < 3; ++k) worst_rgb = std::max(worst_rgb, std::abs(c[k] - o[k]));
      EXPECT_EQ(o[3], 255);
      partial += c[3] > 10 && c[3] < 245;
    }
  }
  EXPECT_LE(worst_alpha, 1);
  EXPECT_EQ(worst_rgb, 0) << "straight alpha: the colour is the palette's, not multiplied by alpha";
  EXPECT_GT(partial, 96 * 64 / 10) << "a real range of alpha, not only 0 and 255";
}

TEST(TransparentStillE2e, WebmKeepsTheAlphaOfTheLastFrame) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum(
      small_render({"--size", "96x64", "--steps", "120", "--every", "40", "--set", "model.diffuse=0.05",
                    "--set", "display.background=transparent", "--out", "clear.png", "--out", "clear.webm"}),
      dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto p = probe(dir / "clear.webm");
  EXPECT_EQ(p["nb_read_frames"], "3");
  // ffmpeg's own VP9 decoder drops the alpha layer; libvpx reads it.
  const ProcessOutput dec =
      run_capture({"ffmpeg", "-v", "error", "-c:v", "libvpx-vp9", "-i",
                   "file:" + (dir / "clear.webm").string(), "-vf", "select=eq(n\\,2)", "-frames:v", "1",
                   "-pix_fmt", "rgba", "-f", "rawvideo", "-y", "file:" + (dir / "last.rgba").string()},
                  true, std::chrono::seconds(60));
  ASSERT_TRUE(wait_status_ok(dec.wait_status)) << dec.out;
  const std::string raw = file_text(dir / "last.rgba");
  const Image still = load_rgba_png(dir / "clear.png");
  ASSERT_EQ(raw.size(), still.rgba.size());
  double diff = 0;
  int transparent = 0;
  for (size_t i = 3; i < raw.size(); i += 4) {
    diff += std::abs(static_cast<uint8_t>(raw[i]) - still.rgba[i]);
    transparent += static_cast<uint8_t>(raw[i]) < 128;
  }
  EXPECT_LT(diff / (raw.size() / 4), 6.0) << "VP9 is lossy; its alpha follows the still's";
  EXPECT_GT(transparent, 96 * 64 / 20);
}

// Catmull-Rom in double precision, indices wrapping, clamped to the 2x2 nearest cells' range.
double reference_bicubic(const std::vector<float>& f, int w, int h, double cx, double cy) {
  auto weights = [](double t, double* wt) {
    wt[0] = ((-0.5 * t + 1.0) * t - 0.5) * t;
    wt[1] = (1.5 * t - 2.5) * t * t + 1.0;
    wt[2] = ((-1.5 * t + 2.0) * t + 0.5) * t;
    wt[3] = (0.5 * t - 0.5) * t * t;
  };
  const double ux = cx - 0.5, uy = cy - 0.5;
  const int bx = static_cast<int>(std::floor(ux)), by = static_cast<int>(std::floor(uy));
  double wx[4], wy[4];
  weights(ux - bx, wx);
  weights(uy - by, wy);
  auto cell = [&](int x, int y) {
    return static_cast<double>(f[static_cast<size_t>(((y % h) + h) % h) * w + ((x % w) + w) % w]);
  };
  double sum = 0, lo = 1e300, hi = -1e300;
  for (int j = 0; j < 4; ++j) {
    for (int i = 0; i < 4; ++i) {
      const double v = cell(bx + i - 1, by + j - 1);
      sum += wx[i] * wy[j] * v;
      if ((i == 1 || i == 2) && (j == 1 || j == 2)) lo = std::min(lo, v), hi = std::max(hi, v);
    }
  }
  return std::clamp(sum, lo, hi);
}

// Longest run of identical grey values along a row, between the centres of neighbouring cells
// that differ sharply (more than 40 grey levels): an edge. Cell by cell, half a cell's pixels
// repeat on each side; sampled smoothly, the grey changes at almost every pixel.
int longest_run_on_edges(const std::vector<uint8_t>& img, int out_w, int out_h, const std::vector<float>& f,
                         int w, int scale) {
  int longest = 0;
  for (int y = scale / 2; y < out_h; y += scale) {
    const int fy = y / scale;
    for (int cx = 0; cx + 1 < w; ++cx) {
      const float a = f[static_cast<size_t>(fy) * w + cx], b = f[static_cast<size_t>(fy) * w + cx + 1];
      if (std::abs(a - b) * 255.0f < 40.0f) continue;
      int run = 1;
      for (int x = cx * scale + scale / 2 + 1; x <= (cx + 1) * scale + scale / 2 && x < out_w; ++x) {
        // x - 1 is within the stretch too: it starts at the left cell's centre.
        const uint8_t* p = &img[(static_cast<size_t>(y) * out_w + x) * 4];
        run = p[0] == p[-4] ? run + 1 : 1;
        longest = std::max(longest, run);
      }
    }
  }
  return longest;
}

TEST(LargerStill, BicubicMatchesADoubleReferenceAndEdgesHaveNoStairs) {
  std::string why;
  auto egl = test::try_egl(false, why);
  if (!egl) GTEST_SKIP() << "no EGL context: " << why;
  const int w = 24, h = 16, scale = 8;
  std::vector<float> field(static_cast<size_t>(w) * h);  // a disc with a hard rim, and a ramp
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const double r = std::hypot(x - 8.3, y - 7.6);
      field[static_cast<size_t>(y) * w + x] = r < 5.0 ? 1.0f : static_cast<float>(x) / (4.0f * w);
    }
  }
  DisplayParams d;
  d.mapping = Mapping::Linear;
  d.auto_range = false;  // values are their own positions: [0, 1]
  const render::Palette grey = render::greyscale_palette();
  d.palette = grey.name;
  render::FieldRenderer r;
  r.set_palette(grey);
  r.upload_host_field(field.data(), Size{w, h});
  test::Fbo fbo(w * scale, h * scale);
  const int ow = w * scale, oh = h * scale;
  r.set_bicubic(true);
  r.draw(d, render::View{}, ow, oh);
  const auto smooth = render::read_framebuffer_rgba(ow, oh);
  ASSERT_EQ(smooth.size(), static_cast<size_t>(ow) * oh * 4);

  const render::DisplayRange range = render::compute_display_range(field.data(), field.size(), d);
  int worst = 0;
  for (int y = 0; y < oh; ++y) {
    for (int x = 0; x < ow; ++x) {
      const double v = reference_bicubic(field, w, h, (x + 0.5) / scale, (y + 0.5) / scale);
      uint8_t want[4];
      render::lut_lookup(grey, render::continuous_position(static_cast<float>(v), d, range), want);
      const int dd = std::abs(smooth[(static_cast<size_t>(y) * ow + x) * 4] - want[0]);
      worst = std::max(worst, dd);
    }
  }
  EXPECT_LE(worst, 2);
  EXPECT_LE(longest_run_on_edges(smooth, ow, oh, field, w, scale), scale / 4);

  // The same picture cell by cell has stairs: the check above can fail.
  r.set_bicubic(false);
  r.draw(d, render::View{}, ow, oh);
  const auto stairs = render::read_framebuffer_rgba(ow, oh);
  EXPECT_GT(longest_run_on_edges(stairs, ow, oh, field, w, scale), scale / 2);
}

TEST(LargerStillE2e, RenderAtFourTimesTheFieldIsFourTimesLargerAndSmooth) {
  const auto dir = test::temp_dir();
  const auto r =
      test::run_physarum(small_render({"--size", "40x30", "--steps", "60", "--set", "model.diffuse=0.02",
                                       "--resolution", "4x", "--out", "big.png"}),
                         dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Image big = load_rgba_png(dir / "big.png");
  EXPECT_EQ(big.w, 160);
  EXPECT_EQ(big.h, 120);
  // Along every row, a pixel repeats its left neighbour far less than one-per-cell stairs would
  // (those repeat 3 of every 4 pixels). The background below the black level is flat at any
  // resolution: pairs of the darkest colour do not count.
  const auto darkness = [&](int x, int y) { return big.at(x, y)[0] + big.at(x, y)[1] + big.at(x, y)[2]; };
  int darkest = darkness(0, 0);
  for (int y = 0; y < big.h; ++y) {
    for (int x = 0; x < big.w; ++x) darkest = std::min(darkest, darkness(x, y));
  }
  size_t repeats = 0, pairs = 0;
  for (int y = 0; y < big.h; ++y) {
    for (int x = 1; x < big.w; ++x) {
      if (darkness(x, y) == darkest && darkness(x - 1, y) == darkest) continue;
      ++pairs;
      repeats += std::memcmp(big.at(x, y), big.at(x - 1, y), 3) == 0;
    }
  }
  EXPECT_GT(pairs, static_cast<size_t>(big.w * big.h / 4));
  EXPECT_LT(static_cast<double>(repeats) / pairs, 0.5);
  const auto bad = test::run_physarum(
      small_render({"--size", "40x30", "--steps", "1", "--resolution", "0x", "--out", "x.png"}), dir, kEgl);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--resolution 0x"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace physarum::app
