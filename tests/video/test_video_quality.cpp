// Renders that weigh right: the quality and speed options reach ffmpeg's argument vector and are
// refused out of their codec's range; a GIF's frame delays are uniform (read from its Graphic
// Control Extensions) and its size is estimated before the run; 16-bit PNG and OpenEXR stills hold
// the field's colours beyond 8 bits (against a double-precision mapping of the field); the window's
// PNG sequence writes a file per window frame and says how much it wrote, and where.
#include <ImfRgbaFile.h>
#include <gtest/gtest.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "export/exr_writer.hpp"
#include "sim/npy.hpp"
#include "test_support.hpp"
#include "video/ffmpeg_args.hpp"
#include "video/gif_pass.hpp"
#include "video/recorder.hpp"
#include "video/video_quality.hpp"
#include "video_support.hpp"
#include "xvfb.hpp"

namespace physarum::app {
namespace {

namespace fs = std::filesystem;

const std::vector<std::pair<std::string, std::string>> kEgl = {{"EGL_PLATFORM", "surfaceless"}};

std::string file_bytes(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The value after `flag` in `argv`, or "" when the flag is not there.
std::string after(const std::vector<std::string>& argv, const std::string& flag) {
  const auto it = std::find(argv.begin(), argv.end(), flag);
  return it == argv.end() || it + 1 == argv.end() ? std::string() : *(it + 1);
}

std::vector<std::string> argv_for(VideoFormat f, const std::string& encoder, const VideoQuality& q,
                                  RingPolicy policy = RingPolicy::Wait) {
  EncodeSettings s;
  s.format = f;
  s.encoder = encoder;
  s.width = 64;
  s.height = 48;
  s.policy = policy;
  s.output = "/tmp/x";
  s.frames_file = "/tmp/x.frames.mkv";
  s.quality = q;
  return ffmpeg_recording_argv("ffmpeg", s);
}

TEST(VideoQuality, CrfAndPresetReachFfmpegsArgumentVector) {
  VideoQuality q;
  auto a = argv_for(VideoFormat::Mp4, "libx264", q);
  EXPECT_EQ(after(a, "-crf"), "18");
  EXPECT_EQ(after(a, "-preset"), "medium");
  EXPECT_EQ(after(argv_for(VideoFormat::Mp4, "libx264", q, RingPolicy::Drop), "-preset"), "veryfast");
  q.crf = 27;
  q.speed = "slow";
  a = argv_for(VideoFormat::Mp4, "libx264", q);
  EXPECT_EQ(after(a, "-crf"), "27");
  EXPECT_EQ(after(a, "-preset"), "slow");
  q.speed = "p7";
  a = argv_for(VideoFormat::Mp4, "h264_nvenc", q);
  EXPECT_EQ(after(a, "-cq"), "27");
  EXPECT_EQ(after(a, "-preset"), "p7");

  VideoQuality w;
  a = argv_for(VideoFormat::Webm, "libvpx-vp9", w);
  EXPECT_EQ(after(a, "-crf"), "31");
  EXPECT_EQ(after(a, "-deadline"), "good");
  EXPECT_EQ(after(a, "-cpu-used"), "2");
  EXPECT_EQ(after(a, "-b:v"), "0");
  w.crf = 45;
  w.speed = "realtime:6";
  a = argv_for(VideoFormat::Webm, "libvpx-vp9", w);
  EXPECT_EQ(after(a, "-crf"), "45");
  EXPECT_EQ(after(a, "-deadline"), "realtime");
  EXPECT_EQ(after(a, "-cpu-used"), "6");
  w.speed = "best";
  EXPECT_EQ(after(argv_for(VideoFormat::Webm, "libvpx-vp9", w), "-deadline"), "best");
}

TEST(VideoQuality, ValuesOutOfTheirCodecsRangeAreRefusedByName) {
  struct Case {
    VideoQuality q;
    VideoFormat f;
    std::string encoder, says;
  };
  auto with = [](auto set) {
    VideoQuality q;
    set(q);
    return q;
  };
  const std::vector<Case> cases = {
      {with([](VideoQuality& q) { q.crf = 52; }), VideoFormat::Mp4, "libx264", "--crf 52: libx264 takes 0"},
      {with([](VideoQuality& q) { q.crf = -1; }), VideoFormat::Mp4, "libx264", "--crf -1"},
      {with([](VideoQuality& q) { q.crf = 64; }), VideoFormat::Webm, "", "--crf 64: VP9 takes 0"},
      {with([](VideoQuality& q) { q.crf = 20; }), VideoFormat::Gif, "", "only MP4 and WebM"},
      {with([](VideoQuality& q) { q.speed = "fastest"; }), VideoFormat::Mp4, "libx264",
       "--video-preset fastest: libx264 takes ultrafast"},
      {with([](VideoQuality& q) { q.speed = "slow"; }), VideoFormat::Mp4, "h264_nvenc",
       "h264_nvenc takes p1"},
      {with([](VideoQuality& q) { q.speed = "good:6"; }), VideoFormat::Webm, "", "good:0..5"},
      {with([](VideoQuality& q) { q.speed = "medium"; }), VideoFormat::Webm, "", "VP9 takes realtime"},
      {with([](VideoQuality& q) { q.gif_fps = 30; }), VideoFormat::Gif, "",
       "--gif-fps 30: a GIF's frame delays"},
      {with([](VideoQuality& q) { q.gif_colors = 1; }), VideoFormat::Gif, "",
       "--gif-colors 1: must be 2 to 256"},
      {with([](VideoQuality& q) { q.gif_colors = 257; }), VideoFormat::Gif, "", "--gif-colors 257"},
      {with([](VideoQuality& q) { q.gif_width = 8; }), VideoFormat::Gif, "", "--gif-width 8"},
      {with([](VideoQuality& q) { q.gif_dither = "noise"; }), VideoFormat::Gif, "", "--gif-dither noise"},
  };
  for (const Case& c : cases) {
    const std::string why = quality_problem(c.q, c.f, c.encoder);
    EXPECT_NE(why.find(c.says), std::string::npos) << why << " (expected: " << c.says << ")";
  }
  VideoQuality ok;
  ok.crf = 63;
  ok.speed = "good:5";
  EXPECT_EQ(quality_problem(ok, VideoFormat::Webm, ""), "");
  ok.crf = 0;
  ok.speed = "veryslow";
  EXPECT_EQ(quality_problem(ok, VideoFormat::Mp4, "libx264"), "");
  for (int fps : kGifFpsChoices) EXPECT_EQ(100 % fps, 0) << fps << " fps is not whole centiseconds";
}

TEST(VideoQuality, GifPassesScaleTheWidthKeepTheRateAndUseTheChosenPalette) {
  VideoQuality q;
  q.gif_colors = 64;
  q.gif_dither = "bayer";
  const auto palette = gif_palette_args("f.mkv", "p.png", q, 1920);
  EXPECT_EQ(after(palette, "-vf"),
            "fps=25,scale=480:-1:flags=lanczos,palettegen=stats_mode=full:max_colors=64");
  const auto encode = gif_encode_args("f.mkv", "p.png", "o.gif", q, 1920);
  EXPECT_EQ(after(encode, "-lavfi"),
            "[0:v]fps=25,scale=480:-1:flags=lanczos[v];[v][1:v]paletteuse=dither=bayer");
  EXPECT_EQ(after(encode, "-r"), "25");
  // Never wider than the frames: a 320-pixel field stays 320.
  EXPECT_EQ(after(gif_palette_args("f.mkv", "p.png", q, 320), "-vf"),
            "fps=25,palettegen=stats_mode=full:max_colors=64");
  EXPECT_EQ(gif_height_for(q, 1920, 1080), 270);
  const GifEstimate e = estimate_gif(q, 1920, 1080, 600, 30);
  EXPECT_EQ(e.frames, 500u);  // 20 s at 25 fps
  EXPECT_EQ(e.width, 480);
  EXPECT_EQ(e.height, 270);
  EXPECT_GT(e.bound_bytes, e.typical_bytes);
}

// The estimate by hand: 600 frames at 30 fps are 500 GIF frames at 25 fps, of 480x270 pixels.
TEST(VideoQuality, GifEstimateFollowsColoursAndDitherAsFitted) {
  const double pixels = 480.0 * 270.0 * 500.0;
  VideoQuality q;  // the defaults: 64 colours, bayer
  EXPECT_NEAR(static_cast<double>(estimate_gif(q, 1920, 1080, 600, 30).typical_bytes),
              pixels * 0.52 * std::pow(0.25, 0.4), 1.0);
  q.gif_colors = 256;
  q.gif_dither = "none";
  EXPECT_NEAR(static_cast<double>(estimate_gif(q, 1920, 1080, 600, 30).typical_bytes), pixels * 0.52, 1.0);
  q.gif_dither = "sierra2_4a";
  EXPECT_NEAR(static_cast<double>(estimate_gif(q, 1920, 1080, 600, 30).typical_bytes), pixels * 0.52 * 1.4,
              1.0);
  // The defaults' estimate for the 10 s braid says what docs/artists.md says it weighs: under 10 MB.
  EXPECT_LT(estimate_gif(VideoQuality{}, 1920, 1080, 300, 30).typical_bytes, 10'000'000u);
}

// The delays of every frame of a GIF, in centiseconds, from its Graphic Control Extensions.
std::vector<int> gif_delays(const std::string& g) {
  std::vector<int> delays;
  if (g.size() < 13 || g.compare(0, 3, "GIF") != 0) return delays;
  auto byte = [&](size_t i) { return i < g.size() ? static_cast<unsigned char>(g[i]) : 0u; };
  size_t i = 13;
  if (byte(10) & 0x80) i += 3u * (1u << ((byte(10) & 7) + 1));  // the global colour table
  auto skip_sub_blocks = [&] {
    while (i < g.size() && byte(i) != 0) i += byte(i) + 1;
    ++i;
  };
  while (i < g.size()) {
    const unsigned b = byte(i);
    if (b == 0x3B) break;  // trailer
    if (b == 0x21) {
      if (byte(i + 1) == 0xF9) delays.push_back(static_cast<int>(byte(i + 4) | (byte(i + 5) << 8)));
      i += 2;
      skip_sub_blocks();
    } else if (b == 0x2C) {
      const unsigned packed = byte(i + 9);
      i += 10;
      if (packed & 0x80) i += 3u * (1u << ((packed & 7) + 1));  // a local colour table
      ++i;                                                      // LZW minimum code size
      skip_sub_blocks();
    } else {
      ADD_FAILURE() << "unexpected GIF block 0x" << std::hex << b << " at " << std::dec << i;
      break;
    }
  }
  return delays;
}

// A window records at 60 fps and repeats a frame while the simulation is slower: the GIF plays
// at 25 fps, every delay 4 cs, as long as the recording.
TEST(GifRecorderE2e, DelaysAreUniformWhateverTheRecordingsRate) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  RecorderOptions ro;
  ro.output = dir / "win.gif";
  ro.width = 64;
  ro.height = 48;
  ro.fps = 60;
  ro.policy = RingPolicy::Wait;
  Recorder rec(ro);
  std::vector<uint8_t> rgba(64 * 48 * 4, 255);
  constexpr int kFrames = 120;  // 2 s at 60 fps
  for (int f = 0; f < kFrames; ++f) {
    // Each picture three times, as a window at 20 fps recorded at 60 repeats it.
    const int picture = f / 3;
    for (size_t p = 0; p < rgba.size(); p += 4) {
      rgba[p] = static_cast<uint8_t>((p / 4 + static_cast<size_t>(picture) * 7) % 256);
      rgba[p + 1] = static_cast<uint8_t>(picture * 6);
    }
    ASSERT_TRUE(rec.write_rgba(rgba.data(), 64, 48));
  }
  ASSERT_TRUE(rec.stop()) << rec.error();
  const std::vector<int> delays = gif_delays(file_bytes(dir / "win.gif"));
  ASSERT_FALSE(delays.empty());
  int total = 0;
  for (size_t i = 0; i < delays.size(); ++i) {
    EXPECT_EQ(delays[i], 4) << "frame " << i;
    total += delays[i];
  }
  EXPECT_NEAR(total, 200, 4) << "2 s of recording plays in " << total << " cs";
  // What the recorder says of the GIF (the window's "recorded" note, render's "wrote" line) is what
  // the file holds, not the 120 frames at 60 fps it was given.
  const RecorderStatus st = rec.status();
  EXPECT_EQ(st.video_frames, delays.size());
  EXPECT_DOUBLE_EQ(st.video_fps, 25.0);
  EXPECT_DOUBLE_EQ(st.duration_s, total / 100.0);
}

// The estimate said before a render is within a factor of the GIF made (of 1.4 on the fields it
// was fitted to; of 2 here, a short and small run).
TEST(RenderFormatsE2e, GifSizeIsEstimatedBeforeTheRunWithinAFactor) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum({"render", "--preset", "braid", "--backend", "cpu", "--size", "320x180",
                                     "--agents", "60K", "--steps", "150", "--every", "1", "--out", "b.gif"},
                                    dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // "about 1.2 MB": the typical size, said before the run.
  const auto about = r.err.find("about ");
  ASSERT_NE(about, std::string::npos) << r.err;
  const double said_mb = std::stod(r.err.substr(about + 6));
  VideoQuality q;
  const GifEstimate e = estimate_gif(q, 320, 180, 150, 30);
  EXPECT_NEAR(said_mb, static_cast<double>(e.typical_bytes) / 1e6, 0.051);
  const double actual = static_cast<double>(fs::file_size(dir / "b.gif"));
  EXPECT_GT(static_cast<double>(e.typical_bytes), actual / 2)
      << "estimate " << e.typical_bytes << ", made " << actual;
  EXPECT_LT(static_cast<double>(e.typical_bytes), actual * 2)
      << "estimate " << e.typical_bytes << ", made " << actual;
  EXPECT_EQ(gif_delays(file_bytes(dir / "b.gif")).size(), e.frames);
}

// The default palette and dither are chosen for weight: the same frames as 256 colours with error
// diffusion come out at most three quarters the size (0.62 on this short, small run at full
// resolution; 0.38-0.47 for 600-step GIFs scaled down from 1920x1080).
TEST(RenderFormatsE2e, TheDefaultGifWeighsAtMostThreeQuartersOfAFullPaletteDiffusedOne) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  const std::vector<std::string> base = {"render",  "--preset", "braid", "--backend", "cpu", "--size",
                                         "320x180", "--agents", "28K",   "--steps",   "90",  "-q"};
  auto render = [&](std::vector<std::string> more) {
    std::vector<std::string> a = base;
    a.insert(a.end(), more.begin(), more.end());
    const auto r = test::run_physarum(a, dir, kEgl);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  };
  render({"--out", "default.gif"});
  render({"--gif-colors", "256", "--gif-dither", "sierra2_4a", "--out", "full.gif"});
  const auto light = fs::file_size(dir / "default.gif"), full = fs::file_size(dir / "full.gif");
  EXPECT_LT(static_cast<double>(light), 0.75 * static_cast<double>(full))
      << "default " << light << " bytes, 256 colours sierra2_4a " << full;
  EXPECT_EQ(gif_delays(file_bytes(dir / "default.gif")).size(),
            gif_delays(file_bytes(dir / "full.gif")).size());
}

TEST(RenderFormatsE2e, CrfReachesTheEncoderAndBadValuesAreRefusedBeforeAnyWork) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  const auto dir = test::temp_dir();
  const std::vector<std::string> base = {"render",   "--backend", "cpu",     "--size", "64x48",
                                         "--agents", "2K",        "--steps", "20",     "-q"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> a = base;
    a.insert(a.end(), more.begin(), more.end());
    return a;
  };
  auto r =
      test::run_physarum(with({"--crf", "33", "--video-preset", "veryfast", "--out", "a.mp4"}), dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // x264 writes its settings into the stream.
  const std::string mp4 = file_bytes(dir / "a.mp4");
  EXPECT_NE(mp4.find("crf=33.0"), std::string::npos);
  struct Refusal {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<Refusal> refusals = {
      {{"--crf", "60", "--out", "b.mp4"}, "--crf 60: libx264 takes 0"},
      {{"--crf", "70", "--out", "b.webm"}, "--crf 70: VP9 takes 0"},
      {{"--video-preset", "warp", "--out", "b.mp4"}, "--video-preset warp"},
      {{"--gif-fps", "30", "--out", "b.gif"}, "--gif-fps 30"},
      {{"--gif-colors", "300", "--out", "b.gif"}, "--gif-colors 300"},
      {{"--depth", "16", "--out", "b.npy"}, "--depth 16"},
  };
  for (const Refusal& f : refusals) {
    r = test::run_physarum(with(f.args), dir, kEgl);
    EXPECT_EQ(r.exit_code, 2) << f.says << ": " << r.err;
    EXPECT_NE(r.err.find(f.says), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / f.args.back())) << f.args.back();
  }
}

struct Png16 {
  int width = 0, height = 0, channels = 0, depth = 0;
  std::vector<uint16_t> samples;
};

bool read_png_rows(png_structp png, png_infop info, FILE* f, Png16& out) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, f);
  png_read_png(png, info, PNG_TRANSFORM_IDENTITY, nullptr);
  out.width = static_cast<int>(png_get_image_width(png, info));
  out.height = static_cast<int>(png_get_image_height(png, info));
  out.channels = png_get_channels(png, info);
  out.depth = png_get_bit_depth(png, info);
  png_bytepp rows = png_get_rows(png, info);
  const size_t row = static_cast<size_t>(out.width) * static_cast<size_t>(out.channels);
  out.samples.resize(row * static_cast<size_t>(out.height));
  for (int y = 0; y < out.height && out.depth == 16; ++y) {
    for (size_t x = 0; x < row; ++x)  // big-endian
      out.samples[static_cast<size_t>(y) * row + x] =
          static_cast<uint16_t>(rows[y][2 * x] << 8 | rows[y][2 * x + 1]);
  }
  return true;
}

Png16 read_png16(const fs::path& file) {
  Png16 out;
  FILE* f = std::fopen(file.c_str(), "rb");
  if (!f) return out;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (!read_png_rows(png, info, f, out)) out = {};
  png_destroy_read_struct(&png, &info, nullptr);
  std::fclose(f);
  return out;
}

// The field drawn in greyscale, linear, at a fixed range: each sample is the cell's value times
// the exposure, as 16 bits. An 8-bit still could be up to 128 off; the 16-bit one is within 2.
TEST(RenderFormatsE2e, SixteenBitPngAndExrHoldTheFieldBeyondEightBits) {
  const auto dir = test::temp_dir();
  const std::vector<std::string> base = {"render", "--backend", "cpu", "--size",  "80x60", "--agents",
                                         "4K",     "--seed",    "5",   "--steps", "60",    "-q"};
  auto r = test::run_physarum(
      [&] {
        auto a = base;
        a.insert(a.end(), {"--out", "f.npy"});
        return a;
      }(),
      dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const NpyArray field = read_npy(dir / "f.npy");
  const double top = *std::max_element(field.data.begin(), field.data.end());
  ASSERT_GT(top, 0.0);
  const double exposure = 0.9 / top;
  char exposure_text[64];
  std::snprintf(exposure_text, sizeof exposure_text, "display.exposure=%.9g", exposure);
  auto a = base;
  a.insert(a.end(), {"--set", "display.palette=greyscale", "--set", "display.mapping=linear", "--set",
                     "display.auto_range=false", "--set", exposure_text, "--depth", "16", "--out", "deep.png",
                     "--out", "deep.exr", "--exr-type", "float"});
  r = test::run_physarum(a, dir, kEgl);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Png16 png = read_png16(dir / "deep.png");
  ASSERT_EQ(png.depth, 16);
  ASSERT_EQ(png.channels, 3);
  ASSERT_EQ(png.width, 80);
  ASSERT_EQ(png.height, 60);
  const double e = std::strtod(exposure_text + std::strlen("display.exposure="), nullptr);
  double worst = 0;
  int off_eight_bit_grid = 0;
  for (size_t i = 0; i < field.data.size(); ++i) {
    const double want = std::clamp(static_cast<double>(field.data[i]) * e, 0.0, 1.0) * 65535.0;
    for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(png.samples[3 * i + c] - want));
    off_eight_bit_grid += png.samples[3 * i] % 257 != 0;
  }
  EXPECT_LE(worst, 2.0);
  EXPECT_GT(off_eight_bit_grid, static_cast<int>(field.data.size()) / 2)
      << "the samples are 8-bit ones widened";

  // The EXR through OpenEXR's own reader: linear light of the same picture.
  Imf::RgbaInputFile exr((dir / "deep.exr").c_str());
  const Imath::Box2i box = exr.dataWindow();
  const int w = box.max.x - box.min.x + 1, h = box.max.y - box.min.y + 1;
  ASSERT_EQ(w, 80);
  ASSERT_EQ(h, 60);
  std::vector<Imf::Rgba> px(static_cast<size_t>(w) * h);
  exr.setFrameBuffer(px.data() - box.min.x - box.min.y * w, 1, w);
  exr.readPixels(box.min.y, box.max.y);
  double exr_worst = 0;
  for (size_t i = 0; i < px.size(); ++i) {
    const double v = std::clamp(static_cast<double>(field.data[i]) * e, 0.0, 1.0);
    // sRGB's transfer function, written out here independently of the program's.
    const double linear = v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    // The reader gives half; a half has 11 significant bits.
    exr_worst = std::max(exr_worst, std::abs(static_cast<double>(px[i].g) - linear) / std::max(linear, 1e-3));
    EXPECT_EQ(static_cast<float>(px[i].a), 1.0f);
  }
  EXPECT_LE(exr_worst, 2e-3);
}

// The window's PNG sequence: a file per window frame, never more, however fast the video's rate;
// the message names the folder and the frames' real size.
TEST(WindowOutputsE2e, PngSequenceWritesAFilePerWindowFrameAndSaysItsSizeAndFolder) {
  if (!have_ffmpeg()) GTEST_SKIP() << "ffmpeg/ffprobe not installed";
  test::XvfbServer x;
  if (!x.ok()) GTEST_SKIP() << "no Xvfb: " << x.error();
  const auto dir = test::temp_dir();
  const auto r = test::run_physarum({"--frames", "30", "--backend", "cpu", "--size", "90x60", "--agents",
                                     "3K", "--no-vsync", "--record", "take/%05d.png"},
                                    dir, {{"DISPLAY", x.display()}, {"LIBGL_ALWAYS_SOFTWARE", "1"}},
                                    {"WAYLAND_DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  uint64_t bytes = 0;
  int files = 0;
  std::vector<std::string> pictures;
  for (const auto& e : fs::directory_iterator(dir / "take")) {
    bytes += fs::file_size(e.path());
    ++files;
  }
  EXPECT_GT(files, 0);
  EXPECT_LE(files, 30) << "more files than window frames";
  const std::string said = r.out + r.err;
  EXPECT_NE(said.find("recorded " + std::to_string(files) + " PNG frames"), std::string::npos) << said;
  EXPECT_NE(said.find("take/"), std::string::npos) << said;
  const auto open = said.find("PNG frames (");
  ASSERT_NE(open, std::string::npos) << said;
  const double kb = std::stod(said.substr(open + 12));
  EXPECT_NEAR(kb, static_cast<double>(bytes) / 1e3, 1.0) << said;
}

}  // namespace
}  // namespace physarum::app
